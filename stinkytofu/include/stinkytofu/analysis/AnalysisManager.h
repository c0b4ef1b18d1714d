//===- AnalysisManager.h - Cached analyses and their invalidation -*- C++ -*-===//
//
// In the spirit of LLVM's new pass manager: an analysis is a class with a
// static `Key`, a `Result` type and `Result run(Function &, AnalysisManager &)`.
// Results are computed on first request, cached per function, and dropped
// when a pass reports that it did not preserve them.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_ANALYSIS_ANALYSISMANAGER_H
#define STINKYTOFU_ANALYSIS_ANALYSISMANAGER_H

#include "stinkytofu/ir/Function.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include <memory>

namespace stinkytofu {

/// Identifies an analysis by the address of its static key.
struct AnalysisKey {};

/// What a pass left valid.
class PreservedAnalyses {
public:
  static PreservedAnalyses all() {
    PreservedAnalyses PA;
    PA.All = true;
    return PA;
  }
  static PreservedAnalyses none() { return PreservedAnalyses(); }
  /// Marks one analysis as still valid.
  template <typename AnalysisT> PreservedAnalyses &preserve() {
    Preserved.insert(&AnalysisT::Key);
    return *this;
  }
  bool areAllPreserved() const { return All; }
  bool isPreserved(const AnalysisKey *K) const { return All || Preserved.count(K); }

private:
  bool All = false;
  llvm::SmallPtrSet<const AnalysisKey *, 8> Preserved;
};

class AnalysisManager {
public:
  template <typename AnalysisT>
  typename AnalysisT::Result &getResult(Function &F) {
    if (auto *Cached = getCachedResult<AnalysisT>(F))
      return *Cached;
    // Computed before the slot is looked up: an analysis may ask for others
    // while it runs, and that can grow the map.
    auto R = std::make_unique<ResultModel<typename AnalysisT::Result>>(
        AnalysisT().run(F, *this));
    ++Computations;
    std::unique_ptr<ResultBase> &Slot = Cache[{&F, &AnalysisT::Key}];
    Slot = std::move(R);
    return static_cast<ResultModel<typename AnalysisT::Result> &>(*Slot).Value;
  }

  /// The cached result, or null (never computes).
  template <typename AnalysisT>
  typename AnalysisT::Result *getCachedResult(Function &F) {
    auto It = Cache.find({&F, &AnalysisT::Key});
    if (It == Cache.end() || !It->second)
      return nullptr;
    return &static_cast<ResultModel<typename AnalysisT::Result> &>(*It->second).Value;
  }

  /// Drops every result of \p F that \p PA does not preserve, and the
  /// results of other functions that were computed from \p F's body
  /// (addDependency) and are not preserved either.
  void invalidate(Function &F, const PreservedAnalyses &PA);
  /// Declares that \p F's result of analysis \p K read \p Other's body (a
  /// callee's): a change to \p Other invalidates it. Called by the analysis
  /// while it runs.
  void addDependency(const Function &F, const AnalysisKey *K, const Function &Other);
  /// Drops everything (after a module-level change).
  void invalidateAll(const PreservedAnalyses &PA);
  void clear() {
    Cache.clear();
    Dependents.clear();
  }
  /// How many results were computed (tests check caching with it).
  unsigned computations() const { return Computations; }

private:
  struct ResultBase {
    virtual ~ResultBase() = default;
  };
  template <typename T> struct ResultModel final : ResultBase {
    explicit ResultModel(T V) : Value(std::move(V)) {}
    T Value;
  };
  llvm::DenseMap<std::pair<Function *, const AnalysisKey *>, std::unique_ptr<ResultBase>>
      Cache;
  /// Per function, the results of other functions that read its body.
  llvm::DenseMap<const Function *,
                 llvm::SmallVector<std::pair<const Function *, const AnalysisKey *>, 2>>
      Dependents;
  unsigned Computations = 0;
};

} // namespace stinkytofu

#endif
