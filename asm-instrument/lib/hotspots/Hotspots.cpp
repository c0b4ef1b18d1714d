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

/// Adds \p BB's instructions (and the padding before it) to \p Row.
void addBlock(const BasicBlock &BB, const Hotspots &H, GroupRow &Row) {
  auto Pad = H.PaddingOf.find(&BB);
  if (Pad != H.PaddingOf.end()) {
    Row.Counts += Pad->second.first;
    Row.Samples += Pad->second.second;
  }
  for (const Instruction &I : BB.instructions())
    if (const trace::ProfiledInstruction *P = H.ProfileOf.lookup(&I)) {
      Row.Counts += P->Counts;
      Row.Samples += P->Samples;
    }
}

void sortRows(std::vector<GroupRow> &Rows, const Hotspots &H) {
  llvm::sort(Rows, [&](const GroupRow &A, const GroupRow &B) {
    uint64_t WA = H.weight(A.Counts, A.Samples), WB = H.weight(B.Counts, B.Samples);
    if (WA != WB)
      return WA > WB;
    return std::tie(A.Line, A.Name) < std::tie(B.Line, B.Name);
  });
}

} // namespace

Hotspots computeHotspots(const trace::InstructionProfile &P, SourceMap *Map) {
  Hotspots H;
  H.HasSource = Map;
  H.Total = P.total();
  for (const trace::ProfiledInstruction &PI : P.Instructions)
    H.TotalSamples += PI.Samples;
  H.BySamples = !H.Total.Cycles && P.HasSamples;
  for (const trace::ProfiledInstruction &PI : P.Instructions) {
    bool Ran = PI.Counts.Executions || PI.Samples.Issued || PI.Samples.Stalled;
    InstructionRow Row{&PI, nullptr};
    if (Map) {
      const Instruction *I = Map->at(PI.CodeObject, PI.Address);
      if (I && SourceMap::normalizedMnemonic(I->mnemonic()) ==
                   SourceMap::normalizedMnemonic(PI.Isa)) {
        Row.Inst = I;
        H.ProfileOf[I] = &PI;
      }
      if (!Row.Inst && SourceMap::normalizedMnemonic(PI.Isa) == "s_nop")
        if ((Row.PaddingOf = Map->paddingBefore(PI.CodeObject, PI.Address))) {
          H.PaddingOf[Row.PaddingOf].first += PI.Counts;
          H.PaddingOf[Row.PaddingOf].second += PI.Samples;
        }
      if (!Row.Inst && !Row.PaddingOf && Ran)
        H.Unmapped.push_back(&PI);
    }
    H.Instructions.push_back(Row);
  }
  // Profile rows are in address order: ties keep it.
  llvm::sort(H.Instructions, [&](const InstructionRow &A, const InstructionRow &B) {
    uint64_t WA = H.weight(A.Profile->Counts, A.Profile->Samples),
             WB = H.weight(B.Profile->Counts, B.Profile->Samples);
    if (WA != WB)
      return WA > WB;
    return A.Profile < B.Profile;
  });
  if (!Map)
    return H;

  AnalysisManager AM;
  for (Function &F : Map->module().functions()) {
    if (!Map->placement(F))
      continue;
    GroupRow FnRow{GroupRow::FunctionRow, F.name().str(), &F, nullptr, 0, 0, 0, {}, {}};
    for (const BasicBlock &BB : F.blocks()) {
      GroupRow B{GroupRow::BlockRow, BB.name().str(), &F, &BB, lineOfBlock(BB), 0,
                 entriesOf(BB, H), {}, {}};
      addBlock(BB, H, B);
      FnRow.Counts += B.Counts;
      FnRow.Samples += B.Samples;
      if (!FnRow.First) {
        FnRow.First = &BB;
        FnRow.Line = B.Line;
        FnRow.Executions = B.Executions;
      }
      if (B.Counts.Executions || H.weight(B.Counts, B.Samples))
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
                   lineOfBlock(*L->header()), L->depth(), entriesOf(*L->header(), H), {}, {}};
      for (const BasicBlock *BB : L->blocks())
        addBlock(*BB, H, Row);
      H.Loops.push_back(std::move(Row));
    }
  }
  sortRows(H.Functions, H);
  sortRows(H.Loops, H);
  sortRows(H.Blocks, H);
  return H;
}

} // namespace stinkytofu::hotspots
