//===- Pass.cpp - Module and function passes ------------------------------===//
#include "stinkytofu/pass/Pass.h"

using namespace llvm;

namespace stinkytofu {

Pass::~Pass() = default;

bool Pass::coversWholeModule(const PassScope &Scope) const {
  if (Scope.isWholeModule())
    return true;
  context().statsStream() << name() << ": not run: it needs the whole module, not a scope\n";
  return false;
}

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

std::vector<const Instruction *> scopeInstructions(const Module &M, const PassScope &Scope) {
  StringRef From = Scope.FromLabel.empty() ? StringRef() : M.resolveAlias(Scope.FromLabel);
  StringRef To = Scope.ToLabel.empty() ? StringRef() : M.resolveAlias(Scope.ToLabel);
  std::vector<const Instruction *> Inside;
  bool In = From.empty(), SeenFrom = false, SeenTo = false;
  // Set while in To's labelled block: it ends at the next label or function.
  const Function *EndsWith = nullptr;
  for (const Function &F : M.functions())
    for (const BasicBlock &BB : F.blocks()) {
      if (EndsWith && (&F != EndsWith || BB.hasLabel()))
        return Inside;
      if (!SeenFrom && !From.empty() && BB.hasLabel() && BB.label() == From)
        In = SeenFrom = true;
      if (!SeenTo && !To.empty() && BB.hasLabel() && BB.label() == To) {
        SeenTo = true;
        EndsWith = &F;
      }
      if (In)
        for (const Instruction &I : BB.instructions())
          Inside.push_back(&I);
    }
  return Inside;
}

bool inScope(const Module &M, const PassScope &Scope, const Instruction &I) {
  if (Scope.isWholeModule())
    return true;
  if (!Scope.Inside) {
    std::vector<const Instruction *> List = scopeInstructions(M, Scope);
    Scope.Inside = std::make_shared<DenseSet<const Instruction *>>(List.begin(), List.end());
  }
  return Scope.Inside->contains(&I);
}

} // namespace stinkytofu
