//===- CyclePasses.cpp - The cycle estimate passes ------------------------===//
#include "stinkytofu/transforms/CyclePasses.h"

#include "stinkytofu/analysis/CycleEstimate.h"
#include "stinkytofu/analysis/HazardGaps.h"
#include "stinkytofu/transforms/CFGBuilderPass.h"
#include "stinkytofu/transforms/RewriteSupport.h"

using namespace llvm;

namespace stinkytofu {

namespace {

/// Builds the CFG of every function without a valid one; whether any was
/// built (which changes blocks).
bool ensureCFGs(Module &M) {
  bool Built = false;
  for (Function &F : M.functions())
    if (!F.hasValidCFG()) {
      buildCFG(F);
      Built = true;
    }
  return Built;
}

class EstimateAsmCyclesPass final : public Pass {
public:
  StringRef name() const override { return "EstimateAsmCyclesPass"; }
  Expected<PreservedAnalyses> run(Module &M, AnalysisManager &AM, const PassScope &) override {
    bool Built = ensureCFGs(M);
    if (Built)
      AM.invalidateAll(PreservedAnalyses::none());
    for (Function &F : M.functions()) {
      Expected<CycleEstimate &> E = AM.getResult<EstimateAsmCycles>(F);
      if (!E)
        return E.takeError();
      E->print(F, context().statsStream());
    }
    return Built ? PreservedAnalyses::none() : PreservedAnalyses::all();
  }
};

class HazardGapAnalysisPass final : public Pass {
public:
  explicit HazardGapAnalysisPass(bool Verbose) : Verbose(Verbose) {}
  StringRef name() const override { return "HazardGapAnalysisPass"; }
  Expected<PreservedAnalyses> run(Module &M, AnalysisManager &AM, const PassScope &) override {
    bool Built = ensureCFGs(M);
    if (Built)
      AM.invalidateAll(PreservedAnalyses::none());
    for (Function &F : M.functions())
      AM.getResult<HazardGapAnalysis>(F).print(F, Verbose, context().statsStream());
    return Built ? PreservedAnalyses::none() : PreservedAnalyses::all();
  }

private:
  bool Verbose;
};

} // namespace

Expected<std::unique_ptr<Pass>> createEstimateAsmCyclesPass(const PassArguments &Args) {
  return createArgumentlessPass<EstimateAsmCyclesPass>(Args);
}

Expected<std::unique_ptr<Pass>> createHazardGapAnalysisPass(const PassArguments &Args) {
  bool Verbose = false;
  if (Error E = parseFlagArguments(Args, {{"verbose", &Verbose}}))
    return std::move(E);
  return std::make_unique<HazardGapAnalysisPass>(Verbose);
}

} // namespace stinkytofu
