//===- PrintLivenessPass.cpp - The PrintLiveness pass ---------------------===//
#include "stinkytofu/transforms/PrintLivenessPass.h"
#include "stinkytofu/analysis/Liveness.h"

using namespace llvm;

namespace stinkytofu {

Error printModuleLiveness(Module &M, AnalysisManager &AM, raw_ostream &OS) {
  for (Function &F : M.functions()) {
    Expected<Liveness &> Live = AM.getResult<LivenessAnalysis>(F);
    if (!Live)
      return Live.takeError();
    OS << "liveness of @" << F.name() << ":\n";
    Live->print(OS);
  }
  return Error::success();
}

namespace {

class PrintLivenessPass final : public Pass {
public:
  StringRef name() const override { return "PrintLiveness"; }
  Expected<PreservedAnalyses> run(Module &M, AnalysisManager &AM,
                                  const PassScope &) override {
    if (Error E = printModuleLiveness(M, AM, context().dumpStream()))
      return std::move(E);
    return PreservedAnalyses::all();
  }
};

} // namespace

Expected<std::unique_ptr<Pass>> createPrintLivenessPass(const PassArguments &Args) {
  return createArgumentlessPass<PrintLivenessPass>(Args);
}

} // namespace stinkytofu
