//===- PrintLivenessPass.cpp - The PrintLiveness pass ---------------------===//
#include "stinkytofu/transforms/PrintLivenessPass.h"
#include "stinkytofu/analysis/Liveness.h"

using namespace llvm;

namespace stinkytofu {

void printModuleLiveness(Module &M, AnalysisManager &AM, raw_ostream &OS) {
  for (Function &F : M.functions()) {
    OS << "liveness of @" << F.name() << ":\n";
    AM.getResult<LivenessAnalysis>(F).print(OS);
  }
}

namespace {

class PrintLivenessPass final : public Pass {
public:
  StringRef name() const override { return "PrintLiveness"; }
  Expected<PreservedAnalyses> run(Module &M, AnalysisManager &AM,
                                  const PassScope &) override {
    printModuleLiveness(M, AM, errs());
    return PreservedAnalyses::all();
  }
};

} // namespace

Expected<std::unique_ptr<Pass>> createPrintLivenessPass(const PassArguments &Args) {
  return createArgumentlessPass<PrintLivenessPass>(Args);
}

} // namespace stinkytofu
