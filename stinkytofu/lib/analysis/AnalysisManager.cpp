//===- AnalysisManager.cpp - Cached analyses and their invalidation -------===//
#include "stinkytofu/analysis/AnalysisManager.h"

namespace stinkytofu {

void AnalysisManager::invalidate(Function &F, const PreservedAnalyses &PA) {
  if (PA.areAllPreserved())
    return;
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
  for (auto &[Key, Result] : Cache)
    if (!PA.isPreserved(Key.second))
      Result.reset();
}

} // namespace stinkytofu
