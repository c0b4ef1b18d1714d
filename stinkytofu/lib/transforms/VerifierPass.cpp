//===- VerifierPass.cpp - The Verifier pass -------------------------------===//
#include "stinkytofu/transforms/VerifierPass.h"
#include "stinkytofu/analysis/Verifier.h"

using namespace llvm;

namespace stinkytofu {

namespace {

class VerifierPass final : public Pass {
public:
  StringRef name() const override { return "Verifier"; }
  Expected<PreservedAnalyses> run(Module &M, AnalysisManager &, const PassScope &) override {
    if (Error E = verifyModule(M))
      return std::move(E);
    return PreservedAnalyses::all();
  }
};

} // namespace

Expected<std::unique_ptr<Pass>> createVerifierPass(const PassArguments &Args) {
  return createArgumentlessPass<VerifierPass>(Args);
}

} // namespace stinkytofu
