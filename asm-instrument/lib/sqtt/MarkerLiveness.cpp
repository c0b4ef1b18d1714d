//===- MarkerLiveness.cpp - Which registers inserted code may use ---------===//
#include "asm-instrument/sqtt/MarkerLiveness.h"
#include "stinkytofu/analysis/CallingConvention.h"
#include "stinkytofu/analysis/Liveness.h"
#include "stinkytofu/hw/HardwareModel.h"
#include "stinkytofu/ir/BranchVocabulary.h"
#include "stinkytofu/ir/Module.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Regex.h"

using namespace llvm;

namespace stinkytofu::sqtt {

MarkerLiveness::MarkerLiveness(Function &F, bool AbiReturns, SGPRBudget B) : Budget(B) {
  const TargetInfo &TI = F.parent()->target();
  RU = std::make_unique<RegisterUnits>(TI);
  All = RU->all();
  Busy = RU->none();
  if (AbiReturns) {
    computeAbiRefined(F);
    return;
  }
  // The core analysis answers per instruction on demand (it caches each
  // block's answers on first use). Live somewhere = live out of a block, or
  // read or written by one of its instructions.
  Core = std::make_unique<Liveness>(F);
  for (BasicBlock &BB : F.blocks()) {
    Busy |= Core->liveIn(BB);
    Busy |= Core->liveOut(BB);
    for (Instruction &I : BB.instructions()) {
      Busy |= Core->readsOf(I);
      Busy |= Core->writesOf(I);
    }
  }
}

MarkerLiveness::~MarkerLiveness() = default;

void MarkerLiveness::computeAbiRefined(Function &F) {
  Liveness L(F); // for what calls and opaque statements read and write
  const TargetInfo &TI = RU->target();
  // What the caller may read after a return: everything but M0, SCC, VCC
  // and the caller-saved SGPRs.
  BitVector AtReturn = All;
  for (const char *Name : {"M0", "SCC", "VCC"})
    if (MCRegister R = RU->byName(Name); R.isValid())
      RU->reset(AtReturn, R);
  for (unsigned S = 0, E = TI.hardware().maxSGPRs(); S < E; ++S)
    if (!isCalleeSavedSGPR(S))
      if (MCRegister R = TI.reg32(RegClass::SGPR, S); R.isValid())
        RU->reset(AtReturn, R);

  std::vector<BasicBlock *> Order;
  DenseMap<const BasicBlock *, unsigned> Index;
  for (BasicBlock &BB : F.blocks()) {
    Index[&BB] = Order.size();
    Order.push_back(&BB);
  }
  const unsigned N = Order.size();
  std::vector<BitVector> In(N, RU->none()), Out(N, RU->none());
  auto Step = [&](const Instruction &I, BitVector &Live) {
    if (I.kind() == InstKind::Opaque || I.facts().has(IF_Opaque)) {
      Live.set();
      return;
    }
    if (I.facts().has(IF_Call)) {
      Live |= L.readsOf(I); // a callee may write less than all: kill nothing
      return;
    }
    for (MCRegister R : I.facts().Defs)
      RU->reset(Live, R);
    for (MCRegister R : I.facts().Uses)
      RU->set(Live, R);
  };
  auto ExitOut = [&](const BasicBlock &BB) -> BitVector {
    if (BB.empty())
      return All;
    const Instruction &Last = BB.instructions().back();
    if (isProgramEnd(Last))
      return RU->none();
    if (isReturn(Last))
      return AtReturn;
    return All;
  };
  bool Changed = true;
  while (Changed) {
    Changed = false;
    for (unsigned B = N; B-- > 0;) {
      const BasicBlock &BB = *Order[B];
      BitVector O = RU->none();
      bool Leaves = false;
      for (const BasicBlock *S : BB.successors()) {
        auto It = Index.find(S);
        if (It == Index.end())
          Leaves = true;
        else
          O |= In[It->second];
      }
      if (Leaves)
        O = All;
      else if (BB.successors().empty())
        O = ExitOut(BB);
      BitVector Live = O;
      for (auto It = BB.instructions().rbegin(); It != BB.instructions().rend(); ++It)
        Step(*It, Live);
      if (Live != In[B] || O != Out[B]) {
        In[B] = Live;
        Out[B] = O;
        Changed = true;
      }
    }
  }
  for (unsigned B = 0; B < N; ++B) {
    BasicBlock &BB = *Order[B];
    Blocks[&BB] = {In[B], Out[B]};
    Busy |= In[B];
    Busy |= Out[B];
    BitVector Live = Out[B];
    for (auto It = BB.instructions().rbegin(); It != BB.instructions().rend(); ++It) {
      BitVector After = Live;
      Step(*It, Live);
      Around[&*It] = {Live, After};
      Busy |= Live;
      Busy |= L.writesOf(*It);
    }
  }
}

const BitVector &MarkerLiveness::liveBefore(const Instruction &I) const {
  if (Core)
    return Core->liveBefore(I);
  auto It = Around.find(&I);
  return It == Around.end() ? All : It->second.first;
}

const BitVector &MarkerLiveness::liveAfter(const Instruction &I) const {
  if (Core)
    return Core->liveAfter(I);
  auto It = Around.find(&I);
  return It == Around.end() ? All : It->second.second;
}

const BitVector &MarkerLiveness::liveIn(const BasicBlock &BB) const {
  if (Core)
    return Core->liveIn(BB);
  auto It = Blocks.find(&BB);
  return It == Blocks.end() ? All : It->second.first;
}

const BitVector &MarkerLiveness::liveAt(const InsertPoint &P) const {
  if (P.Before)
    return liveBefore(*P.Before);
  if (P.Block && !P.Block->empty())
    return liveAfter(P.Block->instructions().back());
  if (P.Block && Core)
    return Core->liveOut(*P.Block);
  if (P.Block) {
    auto It = Blocks.find(P.Block);
    return It == Blocks.end() ? All : It->second.second;
  }
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

std::optional<MCRegister> MarkerLiveness::freeSGPR() const {
  const TargetInfo &TI = RU->target();
  for (unsigned S = 0; S < Budget.Limit; ++S) {
    MCRegister R = TI.reg32(RegClass::SGPR, S);
    if (R.isValid() && !RU->any(Busy, R))
      return R;
  }
  return std::nullopt;
}

bool followsCallingConvention(const Function &F) {
  if (F.isEntry())
    return false;
  const Module &M = *F.parent();
  Regex Type("^[ \t]*\\.type[ \t]+\"?" + Regex::escape(F.name()) +
             "\"?[ \t]*,[ \t]*[@%]function");
  for (const ModuleItem &Item : M.items()) {
    if (Item.K != ModuleItem::Kind::Text || !Item.Contents.contains(".type"))
      continue;
    SmallVector<StringRef, 16> Lines;
    Item.Contents.split(Lines, '\n');
    for (StringRef Line : Lines)
      if (Type.match(Line))
        return true;
  }
  return false;
}

} // namespace stinkytofu::sqtt
