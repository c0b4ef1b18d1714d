//===- AnalysisManager.h - Cached analyses and their invalidation -*- C++ -*-===//
//
// In the spirit of LLVM's new pass manager: an analysis is a class with a
// static `Key`, a `Result` type and `Result run(Function &, AnalysisManager &)`.
// Results are computed on first request, cached per function, and dropped
// when a pass reports that it did not preserve them. An analysis that can
// fail (one over CFG edges, when the function has no valid CFG) returns
// `llvm::Expected<Result>` from run, and getResult then hands out
// `llvm::Expected<Result &>`: the error reaches the pass, never an abort.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_ANALYSIS_ANALYSISMANAGER_H
#define STINKYTOFU_ANALYSIS_ANALYSISMANAGER_H

#include "stinkytofu/ir/Function.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/Error.h"
#include <memory>
#include <type_traits>

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

/// An error unless \p F's CFG is valid (Function::hasValidCFG): what an
/// analysis over edges returns rather than a result computed from stale or
/// missing edges.
llvm::Error requireValidCFG(const Function &F, llvm::StringRef Analysis);

class AnalysisManager {
  template <typename T> struct IsExpected : std::false_type {};
  template <typename T> struct IsExpected<llvm::Expected<T>> : std::true_type {};

public:
  /// Whether \p AnalysisT can fail (its run returns an Expected).
  template <typename AnalysisT>
  static constexpr bool IsFallible = IsExpected<decltype(std::declval<AnalysisT &>().run(
      std::declval<Function &>(), std::declval<AnalysisManager &>()))>::value;
  template <typename AnalysisT>
  using ResultRef = std::conditional_t<IsFallible<AnalysisT>,
                                       llvm::Expected<typename AnalysisT::Result &>,
                                       typename AnalysisT::Result &>;

  /// The cached or new result of \p AnalysisT for \p F; an Expected for an
  /// analysis that can fail (a failure is not cached).
  template <typename AnalysisT> ResultRef<AnalysisT> getResult(Function &F) {
    if (auto *Cached = getCachedResult<AnalysisT>(F))
      return *Cached;
    // Computed before the slot is looked up: an analysis may ask for others
    // while it runs, and that can grow the map.
    auto Computed = AnalysisT().run(F, *this);
    if constexpr (IsFallible<AnalysisT>) {
      if (!Computed)
        return Computed.takeError();
      return store(Cache, {&F, &AnalysisT::Key}, std::move(*Computed));
    } else {
      return store(Cache, {&F, &AnalysisT::Key}, std::move(Computed));
    }
  }

  /// The cached or new result of the module-level analysis \p AnalysisT
  /// (its run takes the Module). It summarizes every function, so
  /// invalidating any function of \p M without preserving it drops it.
  template <typename AnalysisT> typename AnalysisT::Result &getModuleResult(Module &M) {
    using ResultT = typename AnalysisT::Result;
    auto It = ModuleCache.find({&M, &AnalysisT::Key});
    if (It != ModuleCache.end() && It->second)
      return static_cast<ResultModel<ResultT> &>(*It->second).Value;
    return store(ModuleCache, {&M, &AnalysisT::Key}, AnalysisT().run(M, *this));
  }

  /// The result of the module-level analysis \p AnalysisT that no
  /// invalidation drops: one that keeps each entry under what the entry was
  /// computed from (instruction edit stamps, Instruction::stamp), so that
  /// what passes change cannot make it wrong. Shared with every manager
  /// that shares lasting results with this one.
  template <typename AnalysisT> typename AnalysisT::Result &getLastingResult(Module &M) {
    using ResultT = typename AnalysisT::Result;
    if (!Lasting)
      Lasting = std::make_shared<LastingResults>();
    auto It = Lasting->find({&M, &AnalysisT::Key});
    if (It != Lasting->end())
      return static_cast<ResultModel<ResultT> &>(*It->second).Value;
    return store(*Lasting, {&M, &AnalysisT::Key}, AnalysisT().run(M, *this));
  }
  /// From now on this manager and \p Other hold the same lasting results
  /// (\p Other's so far): a pipeline's manager lends them to the one its
  /// input is checked under.
  void shareLastingResults(AnalysisManager &Other) {
    if (!Other.Lasting)
      Other.Lasting = std::make_shared<LastingResults>();
    Lasting = Other.Lasting;
  }

  /// The cached result, or null (never computes).
  template <typename AnalysisT>
  typename AnalysisT::Result *getCachedResult(Function &F) {
    auto It = Cache.find({&F, &AnalysisT::Key});
    if (It == Cache.end() || !It->second)
      return nullptr;
    return &static_cast<ResultModel<typename AnalysisT::Result> &>(*It->second).Value;
  }

  /// Drops every result of \p F that \p PA does not preserve, the results
  /// of other functions that were computed from \p F's body (addDependency)
  /// and the module-level results, when not preserved either.
  void invalidate(Function &F, const PreservedAnalyses &PA);
  /// Declares that \p F's result of analysis \p K read \p Other's body (a
  /// callee's): a change to \p Other invalidates it. Called by the analysis
  /// while it runs.
  void addDependency(const Function &F, const AnalysisKey *K, const Function &Other);
  /// Drops everything (after a module-level change).
  void invalidateAll(const PreservedAnalyses &PA);
  void clear() {
    Cache.clear();
    ModuleCache.clear();
    Dependents.clear();
    Lasting.reset();
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
  /// Caches \p R under \p Key of \p Map (the function or the module cache).
  template <typename MapT, typename ResultT>
  ResultT &store(MapT &Map, typename MapT::key_type Key, ResultT R) {
    auto Model = std::make_unique<ResultModel<ResultT>>(std::move(R));
    ++Computations;
    std::unique_ptr<ResultBase> &Slot = Map[Key];
    Slot = std::move(Model);
    return static_cast<ResultModel<ResultT> &>(*Slot).Value;
  }
  llvm::DenseMap<std::pair<Function *, const AnalysisKey *>, std::unique_ptr<ResultBase>>
      Cache;
  using ModuleResults =
      llvm::DenseMap<std::pair<const Module *, const AnalysisKey *>, std::unique_ptr<ResultBase>>;
  ModuleResults ModuleCache;
  /// getLastingResult's, made on first use (most managers never ask).
  struct LastingResults : ModuleResults {};
  std::shared_ptr<LastingResults> Lasting;
  /// Drops the results of \p M's module-level analyses \p PA does not keep.
  void invalidateModule(const Module *M, const PreservedAnalyses &PA);
  /// Per function, the results of other functions that read its body.
  llvm::DenseMap<const Function *,
                 llvm::SmallVector<std::pair<const Function *, const AnalysisKey *>, 2>>
      Dependents;
  unsigned Computations = 0;
};

} // namespace stinkytofu

#endif
