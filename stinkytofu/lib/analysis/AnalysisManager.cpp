//===- AnalysisManager.cpp - Cached analyses and their invalidation -------===//
#include "stinkytofu/analysis/AnalysisManager.h"

namespace stinkytofu {

llvm::Error requireValidCFG(const Function &F, llvm::StringRef Analysis) {
  if (F.hasValidCFG())
    return llvm::Error::success();
  return llvm::createStringError(
      llvm::inconvertibleErrorCode(),
      "function '" + F.name() + "': " + Analysis +
          " needs its CFG, which is not built or was changed since (run CFGBuilder "
          "after the edit that added or removed a branch or a block)");
}

void AnalysisManager::invalidateModule(const Module *M, const PreservedAnalyses &PA) {
  for (auto &[Key, Result] : ModuleCache)
    if ((!M || Key.first == M) && !PA.isPreserved(Key.second))
      Result.reset();
}

void AnalysisManager::invalidate(Function &F, const PreservedAnalyses &PA) {
  if (PA.areAllPreserved())
    return;
  invalidateModule(F.parent(), PA);
  for (auto &[Key, Result] : Cache)
    if (Key.first == &F && !PA.isPreserved(Key.second))
      Result.reset();
  auto It = Dependents.find(&F);
  if (It == Dependents.end())
    return;
  for (auto [Reader, K] : It->second)
    if (!PA.isPreserved(K))
      if (auto Slot = Cache.find({const_cast<Function *>(Reader), K}); Slot != Cache.end())
        Slot->second.reset();
}

void AnalysisManager::addDependency(const Function &F, const AnalysisKey *K,
                                    const Function &Other) {
  auto &Readers = Dependents[&Other];
  if (!llvm::is_contained(Readers, std::make_pair(&F, K)))
    Readers.emplace_back(&F, K);
}

void AnalysisManager::invalidateAll(const PreservedAnalyses &PA) {
  if (PA.areAllPreserved())
    return;
  invalidateModule(nullptr, PA);
  for (auto &[Key, Result] : Cache)
    if (!PA.isPreserved(Key.second))
      Result.reset();
}

} // namespace stinkytofu
