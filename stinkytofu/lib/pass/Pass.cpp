//===- Pass.cpp - Module and function passes ------------------------------===//
#include "stinkytofu/pass/Pass.h"

using namespace llvm;

namespace stinkytofu {

Pass::~Pass() = default;

Expected<PreservedAnalyses> FunctionPass::run(Module &M, AnalysisManager &AM,
                                              const PassScope &Scope) {
  for (Function &F : M.functions()) {
    Expected<PreservedAnalyses> PA = runOnFunction(F, AM, Scope);
    if (!PA)
      return PA.takeError();
    AM.invalidate(F, *PA);
  }
  // Each function's results were invalidated as it changed; the others stay.
  return PreservedAnalyses::all();
}

bool inScope(const Module &M, const PassScope &Scope, const Instruction &I) {
  if (Scope.isWholeModule())
    return true;
  if (!Scope.Inside) {
    auto Inside = std::make_shared<DenseSet<const Instruction *>>();
    bool In = !Scope.First;
    for (const Function &F : M.functions())
      for (const BasicBlock &BB : F.blocks())
        for (const Instruction &Other : BB.instructions()) {
          if (&Other == Scope.First)
            In = true;
          if (In)
            Inside->insert(&Other);
          if (&Other == Scope.Last)
            In = false;
        }
    Scope.Inside = std::move(Inside);
  }
  return Scope.Inside->contains(&I);
}

} // namespace stinkytofu
