//===- LoopRegionRemarkPass.cpp - What limits scheduling in each loop -----===//
#include "stinkytofu/transforms/LoopRegionRemarkPass.h"

#include "stinkytofu/analysis/HazardGaps.h"
#include "stinkytofu/analysis/InstructionEffects.h"
#include "stinkytofu/analysis/LoopInfo.h"
#include "stinkytofu/ir/BranchVocabulary.h"
#include "stinkytofu/ir/Modifier.h"
#include "stinkytofu/transforms/CFGBuilderPass.h"
#include "stinkytofu/transforms/MemTokenConsistencyCheckPass.h"
#include "llvm/ADT/DenseMap.h"

using namespace llvm;

namespace stinkytofu {

namespace {

/// What one block of a loop holds.
struct BlockRemark {
  unsigned Instructions = 0, Regions = 1, Branches = 0, Calls = 0, UntaggedLds = 0;
  uint64_t HazardWaits = 0, HazardCycles = 0;
  std::string Boundaries; ///< `[kind] mnemonic (#index)`, comma separated

  void add(const BlockRemark &B) {
    Instructions += B.Instructions;
    Regions += B.Regions;
    Branches += B.Branches;
    Calls += B.Calls;
    UntaggedLds += B.UntaggedLds;
    HazardWaits += B.HazardWaits;
    HazardCycles += B.HazardCycles;
  }
};

class LoopRegionRemarkPass final : public Pass {
public:
  StringRef name() const override { return "LoopRegionRemarkPass"; }

  Expected<PreservedAnalyses> run(Module &M, AnalysisManager &AM, const PassScope &) override {
    EffectModel Effects(M.target());
    CounterModel Counters(M.target());
    bool Built = false;
    for (Function &F : M.functions())
      if (!F.hasValidCFG()) {
        buildCFG(F);
        Built = true;
      }
    if (Built)
      AM.invalidateAll(PreservedAnalyses::none());
    raw_ostream &OS = context().statsStream();
    for (Function &F : M.functions()) {
      Expected<LoopInfo &> Loops = AM.getResult<LoopAnalysis>(F);
      if (!Loops)
        return Loops.takeError();
      if (Loops->empty())
        continue;
      // Hazard-wait cycles per block.
      DenseMap<const BasicBlock *, std::pair<uint64_t, uint64_t>> Waits;
      for (const HazardWaitCost &W : AM.getResult<HazardGapAnalysis>(F).Waits) {
        ++Waits[W.Block].first;
        Waits[W.Block].second += W.Cycles;
      }
      for (const Loop *L : Loops->loopsInPreorder()) {
        BlockRemark Total;
        Total.Regions = 0;
        std::string Lines;
        for (const BasicBlock *BB : L->blocks()) {
          BlockRemark B = remark(*BB, Effects, Counters);
          std::tie(B.HazardWaits, B.HazardCycles) = Waits.lookup(BB);
          Total.add(B);
          Lines += "  block " + BB->name().str() + ": " + std::to_string(B.Instructions) +
                   " instructions, " + std::to_string(B.Regions) + " regions" +
                   (B.Boundaries.empty() ? "" : "; boundaries: " + B.Boundaries) + "\n";
        }
        OS << name() << ": " << F.name() << ": loop " << L->header()->name() << " (depth "
           << Loops->loopDepth(L->header()) << ", " << L->size() << " blocks): "
           << Total.Instructions << " instructions, " << Total.Regions << " regions, "
           << Total.HazardWaits << " hazard waits (" << Total.HazardCycles << " cycles), "
           << Total.Branches << " branches, " << Total.Calls << " calls, " << Total.UntaggedLds
           << " LDS accesses without a memory token\n"
           << Lines;
      }
    }
    return Built ? PreservedAnalyses::none() : PreservedAnalyses::all();
  }

private:
  static BlockRemark remark(const BasicBlock &BB, const EffectModel &Effects,
                            const CounterModel &Counters) {
    BlockRemark B;
    unsigned Index = 0;
    for (const Instruction &I : BB.instructions()) {
      ++B.Instructions;
      bool Machine = I.kind() == InstKind::Machine;
      B.Branches += isBranch(I);
      B.Calls += isCall(I);
      B.UntaggedLds += !I.getModifier<MemTokenData>() && isLdsAccess(Counters, I);
      if (Effects.isFence(I)) {
        ++B.Regions;
        StringRef Kind = isBranch(I) ? "branch"
                         : isCall(I) ? "call"
                         : Machine && Counters.decodeWait(I.mcInsts().front(), I.mnemonic())
                             ? "wait"
                             : "fence";
        if (!B.Boundaries.empty())
          B.Boundaries += ", ";
        B.Boundaries += ("[" + Kind + "] " + I.mnemonic() + " (#" + Twine(Index) + ")").str();
      }
      ++Index;
    }
    return B;
  }
};

} // namespace

Expected<std::unique_ptr<Pass>> createLoopRegionRemarkPass(const PassArguments &Args) {
  return createArgumentlessPass<LoopRegionRemarkPass>(Args);
}

} // namespace stinkytofu
