//===- AnalysisManager.cpp - Cached analyses and their invalidation -------===//
#include "stinkytofu/analysis/AnalysisManager.h"

namespace stinkytofu {

void AnalysisManager::invalidate(Function &F, const PreservedAnalyses &PA) {
  if (PA.areAllPreserved())
    return;
  for (auto &[Key, Result] : Cache)
    if (Key.first == &F && !PA.isPreserved(Key.second))
      Result.reset();
}

void AnalysisManager::invalidateAll(const PreservedAnalyses &PA) {
  if (PA.areAllPreserved())
    return;
  for (auto &[Key, Result] : Cache)
    if (!PA.isPreserved(Key.second))
      Result.reset();
}

} // namespace stinkytofu
