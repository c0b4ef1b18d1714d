//===- Hotspots.cpp - Cycles per instruction, block, loop, function -------===//
#include "asm-instrument/hotspots/Hotspots.h"
#include "stinkytofu/analysis/LoopInfo.h"

using namespace llvm;

namespace stinkytofu::hotspots {

namespace {

/// The executions of \p BB: those of its first instruction the source map
/// placed (zero when none ran).
uint64_t entriesOf(const BasicBlock &BB, const Hotspots &H) {
  for (const Instruction &I : BB.instructions())
    if (const trace::ProfiledInstruction *P = H.ProfileOf.lookup(&I))
      return P->Counts.Executions;
  return 0;
}

} // namespace

unsigned InstructionRow::line() const {
  if (Inst)
    return Inst->location().Line;
  if (PaddingOf)
    return lineOfBlock(*PaddingOf);
  return 0;
}

unsigned lineOfBlock(const BasicBlock &BB) {
  if (BB.location().isValid())
    return BB.location().Line;
  for (const Instruction &I : BB.instructions())
    return I.location().Line;
  return 0;
}

namespace {

trace::InstructionCounts sumBlock(const BasicBlock &BB, const Hotspots &H) {
  trace::InstructionCounts C = H.PaddingOf.lookup(&BB);
  for (const Instruction &I : BB.instructions())
    if (const trace::ProfiledInstruction *P = H.ProfileOf.lookup(&I))
      C += P->Counts;
  return C;
}

void sortRows(std::vector<GroupRow> &Rows) {
  llvm::sort(Rows, [](const GroupRow &A, const GroupRow &B) {
    if (A.Counts.Cycles != B.Counts.Cycles)
      return A.Counts.Cycles > B.Counts.Cycles;
    return std::tie(A.Line, A.Name) < std::tie(B.Line, B.Name);
  });
}

} // namespace

Hotspots computeHotspots(const trace::InstructionProfile &P, SourceMap *Map) {
  Hotspots H;
  H.HasSource = Map;
  H.Total = P.total();
  for (const trace::ProfiledInstruction &PI : P.Instructions) {
    InstructionRow Row{&PI, nullptr};
    if (Map) {
      const Instruction *I = Map->at(PI.CodeObject, PI.Address);
      if (I && SourceMap::normalizedMnemonic(I->mnemonic()) ==
                   SourceMap::normalizedMnemonic(PI.Isa)) {
        Row.Inst = I;
        H.ProfileOf[I] = &PI;
      }
      if (!Row.Inst && SourceMap::normalizedMnemonic(PI.Isa) == "s_nop")
        if ((Row.PaddingOf = Map->paddingBefore(PI.CodeObject, PI.Address)))
          H.PaddingOf[Row.PaddingOf] += PI.Counts;
      if (!Row.Inst && !Row.PaddingOf && PI.Counts.Executions)
        H.Unmapped.push_back(&PI);
    }
    H.Instructions.push_back(Row);
  }
  // Profile rows are in address order: ties keep it.
  llvm::sort(H.Instructions, [](const InstructionRow &A, const InstructionRow &B) {
    if (A.Profile->Counts.Cycles != B.Profile->Counts.Cycles)
      return A.Profile->Counts.Cycles > B.Profile->Counts.Cycles;
    return A.Profile < B.Profile;
  });
  if (!Map)
    return H;

  AnalysisManager AM;
  for (Function &F : Map->module().functions()) {
    if (!Map->placement(F))
      continue;
    GroupRow FnRow{GroupRow::FunctionRow, F.name().str(), &F, nullptr, 0, 0, 0, {}};
    for (const BasicBlock &BB : F.blocks()) {
      GroupRow B{GroupRow::BlockRow, BB.name().str(), &F, &BB, lineOfBlock(BB), 0, entriesOf(BB, H),
                 sumBlock(BB, H)};
      FnRow.Counts += B.Counts;
      if (!FnRow.First) {
        FnRow.First = &BB;
        FnRow.Line = B.Line;
        FnRow.Executions = B.Executions;
      }
      if (B.Counts.Executions)
        H.Blocks.push_back(std::move(B));
    }
    H.Functions.push_back(std::move(FnRow));
    Expected<LoopInfo &> LI = AM.getResult<LoopAnalysis>(F);
    if (!LI) {
      consumeError(LI.takeError());
      continue;
    }
    for (const Loop *L : LI->loopsInPreorder()) {
      GroupRow Row{GroupRow::LoopRow, L->header()->name().str(), &F, L->header(),
                   lineOfBlock(*L->header()), L->depth(), entriesOf(*L->header(), H), {}};
      for (const BasicBlock *BB : L->blocks())
        Row.Counts += sumBlock(*BB, H);
      H.Loops.push_back(std::move(Row));
    }
  }
  sortRows(H.Functions);
  sortRows(H.Loops);
  sortRows(H.Blocks);
  return H;
}

} // namespace stinkytofu::hotspots
