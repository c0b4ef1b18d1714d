//===- BranchConditions.cpp - What the branches a path took say -----------===//
#include "stinkytofu/analysis/BranchConditions.h"

#include "stinkytofu/analysis/Dataflow.h"
#include "stinkytofu/hw/HardwareModel.h"
#include "stinkytofu/hw/TargetInfo.h"
#include "stinkytofu/ir/BasicBlock.h"
#include "stinkytofu/ir/BranchVocabulary.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/MC/MCExpr.h"
#include "llvm/MC/MCInstrDesc.h"
#include "llvm/MC/MCInstrInfo.h"

using namespace llvm;

namespace stinkytofu {

void PathFacts::intersect(PathFacts &A, const PathFacts &B) {
  erase_if(A.Bound, [&](const auto &Binding) { return !is_contained(B.Bound, Binding); });
  erase_if(A.Facts, [&](const BranchFact &F) { return !llvm::binary_search(B.Facts, F); });
}

/// The spelling that names what \p MI computes: its opcode and operands,
/// a `.set` constant by its value. Empty when an operand has no value the
/// assembler knows (a label, a symbol defined later).
static std::string spelling(const MCInst &MI) {
  std::string Text = std::to_string(MI.getOpcode());
  for (const MCOperand &Op : MI) {
    int64_t Value = 0;
    if (Op.isReg())
      Text += " r" + std::to_string(Op.getReg().id());
    else if (Op.isImm())
      Text += " i" + std::to_string(Op.getImm());
    else if (Op.isDFPImm())
      Text += " f" + std::to_string(Op.getDFPImm());
    else if (Op.isSFPImm())
      Text += " f" + std::to_string(Op.getSFPImm());
    else if (Op.isExpr() && Op.getExpr()->evaluateAsAbsolute(Value))
      Text += " i" + std::to_string(Value);
    else
      return "";
  }
  return Text;
}

BranchConditions::BranchConditions(const Function &F, const TargetInfo &TI)
    : RU(TI), ConditionRegisterUnits(RU.none()) {
  // The registers the function's two-way branches test.
  for (const BasicBlock &BB : F.blocks()) {
    if (BB.empty() || !isConditionalBranch(BB.instructions().back()))
      continue;
    const Instruction &Last = BB.instructions().back();
    InstRole Role = HardwareModel::roleOf(Last.mnemonic());
    if (Role != InstRole::BranchIfZero && Role != InstRole::BranchIfNonZero)
      continue;
    Branch B;
    B.TakenIfNonZero = Role == InstRole::BranchIfNonZero;
    const BasicBlock *FallThrough = nullptr;
    for (auto [Succ, Kind] : zip(BB.successors(), BB.successorKinds()))
      (Kind == EdgeKind::FallThrough ? FallThrough : B.Target) = Succ;
    // A branch to the next block decides nothing.
    if (!B.Target || !FallThrough || B.Target == FallThrough || BB.successors().size() != 2)
      continue;
    for (MCRegister R : Last.facts().Uses) {
      B.Reads.push_back(R);
      append_range(B.ReadUnits, RU.units(R));
      RU.set(ConditionRegisterUnits, R);
    }
    if (!B.Reads.empty())
      Branches[&BB] = std::move(B);
  }
  if (Branches.empty())
    return;
  // The comparisons into a tested register name conditions; other
  // instructions matter only where they write a register one of those
  // reads or a tested register.
  // The condition of each writer of a tested register, in layout order
  // (named once: a spelling is a string to build).
  SmallVector<int, 16> WriterConditions;
  BitVector Watched = ConditionRegisterUnits;
  for (const BasicBlock &BB : F.blocks())
    for (const Instruction &I : BB.instructions())
      if (any_of(I.facts().Defs, [&](MCRegister R) { return RU.any(ConditionRegisterUnits, R); })) {
        int C = conditionOf(I);
        WriterConditions.push_back(C);
        if (C >= 0)
          Watched |= Conditions[C].Reads;
      }
  const int *NextWriter = WriterConditions.begin();
  for (const BasicBlock &BB : F.blocks())
    for (const Instruction &I : BB.instructions()) {
      Producer P;
      P.ClearsAll = isOpaqueInstruction(I) || I.facts().has(IF_Call);
      // A writer of a tested register writes a watched one.
      if (!P.ClearsAll &&
          none_of(I.facts().Defs, [&](MCRegister R) { return RU.any(Watched, R); }))
        continue;
      for (MCRegister R : I.facts().Defs) {
        append_range(P.DefUnits, RU.units(R));
        if (RU.any(ConditionRegisterUnits, R))
          P.Binds.push_back(R);
      }
      if (!P.Binds.empty()) {
        int C = *NextWriter++;
        if (!P.ClearsAll)
          P.Condition = C;
      }
      Effects[&I] = std::move(P);
    }
}

/// The TSFlags of LLVM's comparisons (SOPC, VOPC).
static uint64_t comparisonFlags() {
  static const uint64_t Mask = [] {
    uint64_t M = 0;
    for (StringRef Name : {"SOPC", "VOPC"})
      if (std::optional<unsigned> Bit = HardwareModel::tsFlagBit(Name))
        M |= uint64_t(1) << *Bit;
    return M;
  }();
  return Mask;
}

int BranchConditions::conditionOf(const Instruction &I) {
  // Only comparisons: MC marks every AMDGPU instruction as having unmodeled
  // side effects, so it cannot tell which others compute a pure function
  // of their registers (s_getreg_b32 does not).
  if (I.kind() != InstKind::Machine || I.mcInsts().size() != 1 || isOpaqueInstruction(I) ||
      !(RU.target().instrInfo().get(I.mcInsts()[0].getOpcode()).TSFlags & comparisonFlags()))
    return -1;
  std::string Key = spelling(I.mcInsts()[0]);
  if (Key.empty())
    return -1;
  if (auto It = ConditionsBySpelling.find(Key); It != ConditionsBySpelling.end())
    return int(It->second);
  BitVector Reads = RU.none();
  for (MCRegister R : I.facts().Uses)
    RU.set(Reads, R);
  // Its result would describe registers it has changed (the same spelling
  // always does).
  if (any_of(I.facts().Defs, [&](MCRegister R) { return RU.any(Reads, R); }))
    return -1;
  ConditionsBySpelling[Key] = Conditions.size();
  Conditions.push_back({&I, std::move(Reads)});
  return int(Conditions.size() - 1);
}

void BranchConditions::transfer(const Instruction &I, PathFacts &P) const {
  auto It = Effects.find(&I);
  if (It == Effects.end())
    return;
  const Producer &E = It->second;
  if (E.ClearsAll) {
    P.Bound.clear();
    P.Facts.clear();
    return;
  }
  auto Overwritten = [&](unsigned C) {
    return any_of(E.DefUnits, [&](unsigned U) { return Conditions[C].Reads.test(U); });
  };
  erase_if(P.Facts, [&](const BranchFact &F) { return Overwritten(F.Condition); });
  erase_if(P.Bound, [&](const auto &Binding) {
    return Overwritten(Binding.second) ||
           any_of(E.Binds, [&](MCRegister R) {
             return RU.target().regInfo().regsOverlap(R, Binding.first);
           });
  });
  if (E.Condition >= 0)
    for (MCRegister R : E.Binds)
      P.Bound.emplace_back(R, unsigned(E.Condition));
}

std::optional<unsigned> BranchConditions::testedCondition(const Branch &B,
                                                          const PathFacts &P) const {
  // A condition decides the branch when the branch reads its register and
  // otherwise only registers the condition read (unchanged since).
  for (auto [Reg, C] : P.Bound) {
    if (!is_contained(B.Reads, Reg))
      continue;
    SmallVector<unsigned, 4> Own = RU.units(Reg);
    if (all_of(B.ReadUnits,
               [&](unsigned U) { return is_contained(Own, U) || Conditions[C].Reads.test(U); }))
      return C;
  }
  return std::nullopt;
}

bool BranchConditions::decides(const BasicBlock &From, const BasicBlock &) const {
  return Branches.contains(&From);
}

std::optional<BranchFact> BranchConditions::edgeFact(const BasicBlock &From, const BasicBlock &To,
                                                     const PathFacts &P) const {
  auto It = Branches.find(&From);
  if (It == Branches.end())
    return std::nullopt;
  const Branch &B = It->second;
  std::optional<unsigned> C = testedCondition(B, P);
  if (!C)
    return std::nullopt;
  return BranchFact{*C, (&To == B.Target) == B.TakenIfNonZero};
}

bool BranchConditions::takeEdge(const BasicBlock &From, const BasicBlock &To,
                                PathFacts &P) const {
  std::optional<BranchFact> F = edgeFact(From, To, P);
  if (!F)
    return true;
  auto It = llvm::lower_bound(P.Facts, BranchFact{F->Condition, false});
  if (It != P.Facts.end() && It->Condition == F->Condition)
    return It->NonZero == F->NonZero;
  if (P.Facts.size() == MaxFacts)
    return true;
  P.Facts.insert(It, *F);
  return true;
}

std::string BranchConditions::describe(const BranchFact &F) const {
  // The spelling, not the line: the same condition may be computed again.
  const Instruction &I = *Conditions[F.Condition].First;
  std::string Text = RU.target().printMC(I.mcInsts()[0]);
  return (StringRef(Text).trim() + (F.NonZero ? " true" : " false")).str();
}

} // namespace stinkytofu
