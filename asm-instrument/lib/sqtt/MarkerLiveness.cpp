//===- MarkerLiveness.cpp - Which registers inserted code may use ---------===//
#include "asm-instrument/sqtt/MarkerLiveness.h"
#include "stinkytofu/analysis/CallingConvention.h"
#include "stinkytofu/analysis/Liveness.h"
#include "stinkytofu/analysis/RegisterUsage.h"
#include "stinkytofu/hw/HardwareModel.h"
#include "stinkytofu/ir/Module.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Regex.h"

using namespace llvm;

namespace stinkytofu::sqtt {

/// What the caller of a function that follows the calling convention may
/// read after it returns: everything but M0, SCC, VCC and the caller-saved
/// SGPRs.
static BitVector liveAfterAbiReturn(const RegisterUnits &RU) {
  const TargetInfo &TI = RU.target();
  BitVector Live = RU.all();
  for (const char *Name : {"M0", "SCC", "VCC"})
    if (MCRegister R = RU.byName(Name); R.isValid())
      RU.reset(Live, R);
  for (unsigned S = 0, E = TI.hardware().maxSGPRs(); S < E; ++S)
    if (!isCalleeSavedSGPR(S))
      if (MCRegister R = TI.reg32(RegClass::SGPR, S); R.isValid())
        RU.reset(Live, R);
  return Live;
}

MarkerLiveness::MarkerLiveness(Function &F, bool AbiReturns, SGPRBudget B,
                               const CallerView *Callers)
    : Budget(B) {
  const TargetInfo &TI = F.parent()->target();
  RU = std::make_unique<RegisterUnits>(TI);
  All = RU->all();
  Busy = RU->none();
  if (AbiReturns) {
    Options.LiveAfterReturn = liveAfterAbiReturn(*RU);
    // A callee may write less than all it may clobber: a call ends no
    // liveness.
    Options.CallsEndLiveness = false;
    // Its unknown callees follow the convention too: none reads SCC or M0.
    Options.UnknownCalleeReads = RU->all();
    for (const char *Name : {"SCC", "M0"})
      if (MCRegister R = RU->byName(Name); R.isValid())
        RU->reset(*Options.UnknownCalleeReads, R);
  }
  if (Callers) {
    // Both bound what is read after a return.
    if (Options.LiveAfterReturn)
      *Options.LiveAfterReturn &= Callers->LiveAfterReturn;
    else
      Options.LiveAfterReturn = Callers->LiveAfterReturn;
  }
  // v256 and up need s_set_vgpr_msb around every access: not lane storage.
  VGPRBudget = std::min(Callers ? Callers->VGPRBudget : namedVGPRCount(F), 256u);
  Core = std::make_unique<Liveness>(F, Options);
  // The verifier asks after the code changed: answer for the original.
  Core->computeAllInstructionSets();
  // Live somewhere = live out of a block, or read or written by one of its
  // instructions.
  for (BasicBlock &BB : F.blocks()) {
    Busy |= Core->liveIn(BB);
    Busy |= Core->liveOut(BB);
    for (Instruction &I : BB.instructions())
      Core->addAccessesOf(I, Busy);
  }
}

MarkerLiveness::~MarkerLiveness() = default;

const BitVector &MarkerLiveness::liveBefore(const Instruction &I) const {
  return Core->liveBefore(I);
}

const BitVector &MarkerLiveness::liveAfter(const Instruction &I) const {
  return Core->liveAfter(I);
}

const BitVector &MarkerLiveness::liveIn(const BasicBlock &BB) const { return Core->liveIn(BB); }

const BitVector &MarkerLiveness::liveAt(const InsertPoint &P) const {
  if (P.Before)
    return liveBefore(*P.Before);
  if (P.Block && !P.Block->empty())
    return liveAfter(P.Block->instructions().back());
  if (P.Block)
    return Core->liveOut(*P.Block);
  return All;
}

bool MarkerLiveness::isLive(const InsertPoint &P, MCRegister R) const {
  return RU->any(liveAt(P), R);
}

bool MarkerLiveness::isLive(const InsertPoint &P, StringRef MCName) const {
  MCRegister R = RU->byName(MCName);
  return !R.isValid() || isLive(P, R);
}

std::vector<MCRegister> MarkerLiveness::deadSGPRs(const InsertPoint &P, size_t Max) const {
  std::vector<MCRegister> Dead;
  const BitVector &Live = liveAt(P);
  const TargetInfo &TI = RU->target();
  for (unsigned S = 0; S < Budget.Limit && Dead.size() < Max; ++S) {
    MCRegister R = TI.reg32(RegClass::SGPR, S);
    if (R.isValid() && !RU->any(Live, R))
      Dead.push_back(R);
  }
  return Dead;
}

std::vector<MCRegister> MarkerLiveness::deadVGPRs(const InsertPoint &P, size_t Max) const {
  std::vector<MCRegister> Unused, DeadHere;
  const BitVector &Live = liveAt(P);
  const TargetInfo &TI = RU->target();
  for (unsigned V = 0; V < VGPRBudget; ++V) {
    MCRegister R = TI.reg32(RegClass::VGPR, V);
    if (!R.isValid() || RU->any(Live, R))
      continue;
    (RU->any(Busy, R) ? DeadHere : Unused).push_back(R);
  }
  llvm::append_range(Unused, DeadHere);
  if (Unused.size() > Max)
    Unused.resize(Max);
  return Unused;
}

std::optional<MCRegister> MarkerLiveness::freeSGPR() const {
  const TargetInfo &TI = RU->target();
  for (unsigned S = 0; S < Budget.Limit; ++S) {
    MCRegister R = TI.reg32(RegClass::SGPR, S);
    if (R.isValid() && !RU->any(Busy, R))
      return R;
  }
  return std::nullopt;
}

/// Whether a text line of \p F's module matches \p Pattern, in which
/// `NAME` stands for F's (possibly quoted) symbol.
static bool declares(const Function &F, StringRef Pattern) {
  const Module &M = *F.parent();
  std::string P = Pattern.str();
  P.replace(P.find("NAME"), 4, "\"?" + Regex::escape(F.name()) + "\"?");
  Regex Re(P);
  for (const ModuleItem &Item : M.items()) {
    if (Item.K != ModuleItem::Kind::Text || !Item.Contents.contains(F.name()))
      continue;
    SmallVector<StringRef, 16> Lines;
    Item.Contents.split(Lines, '\n');
    for (StringRef Line : Lines)
      if (Re.match(Line))
        return true;
  }
  return false;
}

bool followsCallingConvention(const Function &F) {
  return !F.isEntry() && declares(F, "^[ \t]*\\.type[ \t]+NAME[ \t]*,[ \t]*[@%]function");
}

bool isExported(const Function &F) {
  return declares(F, "^[ \t]*\\.(globl|global|weak)[ \t]+NAME([ \t;]|$)");
}

} // namespace stinkytofu::sqtt
