//===- CyclePasses.cpp - The cycle estimate passes ------------------------===//
#include "stinkytofu/transforms/CyclePasses.h"

#include "stinkytofu/analysis/CycleEstimate.h"
#include "stinkytofu/analysis/HazardGaps.h"
#include "stinkytofu/ir/BranchVocabulary.h"
#include "stinkytofu/mc/InstructionFormatter.h"
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

/// The instructions of \p L's trip path, in trip order, one a line, after
/// a comment naming the loop, its function, cycles and blocks; labels and
/// branches left out, macro invocations as written. What an outside model
/// (bench/oracle-mca.py's llvm-mca) is given as the loop our estimate
/// measures.
std::string tripText(const Function &F, const LoopCycles &L) {
  std::string Text;
  raw_string_ostream OS(Text);
  OS << "// loop " << L.Header->name() << " of @" << F.name() << ": " << L.Body
     << " cycles per trip, blocks";
  for (const BasicBlock *B : L.Trip)
    OS << " " << B->name();
  OS << "\n";
  for (const BasicBlock *B : L.Trip)
    for (const Instruction &I : B->instructions()) {
      if ((I.kind() != InstKind::Machine && I.kind() != InstKind::MacroCall) || isBranch(I))
        continue;
      // An instruction read from data words (`.long`) is written as the
      // instruction it is.
      StringRef Source = I.sourceText().trim();
      if (I.isModified() || Source.starts_with("."))
        OS << StringRef(formatInstruction(I, AsmStyle())).trim() << "\n";
      else
        OS << Source << "\n";
    }
  return Text;
}

class EstimateAsmCyclesPass final : public Pass {
public:
  explicit EstimateAsmCyclesPass(std::string HeaviestLoopOut)
      : HeaviestLoopOut(std::move(HeaviestLoopOut)) {}
  StringRef name() const override { return "EstimateAsmCyclesPass"; }
  Expected<PreservedAnalyses> run(Module &M, AnalysisManager &AM, const PassScope &) override {
    bool Built = ensureCFGs(M);
    if (Built)
      AM.invalidateAll(PreservedAnalyses::none());
    // The heaviest loop body of the module, the first of equals (the
    // loop-body column of --stats for a one-function file).
    std::string Heaviest;
    uint64_t HeaviestBody = 0;
    for (Function &F : M.functions()) {
      Expected<CycleEstimate &> E = AM.getResult<EstimateAsmCycles>(F);
      if (!E)
        return E.takeError();
      E->print(F, context().statsStream());
      if (!HeaviestLoopOut.empty())
        for (const LoopCycles &L : E->loops())
          if (Heaviest.empty() || L.Body > HeaviestBody) {
            Heaviest = tripText(F, L);
            HeaviestBody = L.Body;
          }
    }
    if (!HeaviestLoopOut.empty())
      artifacts().addFile(HeaviestLoopOut, std::move(Heaviest));
    return Built ? PreservedAnalyses::none() : PreservedAnalyses::all();
  }

private:
  std::string HeaviestLoopOut;
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
  std::string HeaviestLoopOut;
  for (const auto &[Key, Value] : Args) {
    if (Key != "heaviestLoop" || Value.empty())
      return createStringError(inconvertibleErrorCode(),
                               "unknown argument '" + Key + "' (known: heaviestLoop=FILE)");
    HeaviestLoopOut = Value;
  }
  return std::make_unique<EstimateAsmCyclesPass>(std::move(HeaviestLoopOut));
}

Expected<std::unique_ptr<Pass>> createHazardGapAnalysisPass(const PassArguments &Args) {
  bool Verbose = false;
  if (Error E = parseFlagArguments(Args, {{"verbose", &Verbose}}))
    return std::move(E);
  return std::make_unique<HazardGapAnalysisPass>(Verbose);
}

} // namespace stinkytofu
