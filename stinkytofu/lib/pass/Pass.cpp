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
  bool Inside = !Scope.First;
  for (const Function &F : M.functions())
    for (const BasicBlock &BB : F.blocks())
      for (const Instruction &Other : BB.instructions()) {
        if (&Other == Scope.First)
          Inside = true;
        if (&Other == &I)
          return Inside;
        if (&Other == Scope.Last)
          Inside = false;
      }
  return false;
}

} // namespace stinkytofu
