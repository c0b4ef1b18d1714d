//===- PathPartitions.h - A dataflow state split by branch facts --*- C++ -*-===//
//
// Trace partitioning for a forward DataflowAnalysis: the state at a point is
// a few partitions, each the join of the states of the paths that agree on
// a set of branch facts (BranchConditions). An edge adds its fact to every
// partition and drops those it contradicts, so what an infeasible path
// carries never reaches the point where it would be wrong. Partitions with
// the same facts join; so do partitions with the same state, keeping the
// facts they share: what they would carry apart is the same state, and a
// later branch adds its own fact again (instrumentation's `if (enabled)`
// diamonds otherwise double the partitions of everything after them and
// push real conditions out at the cap). Beyond the cap the two sharing most
// facts merge, keeping only the facts they share (sound: fewer facts prune
// less). A state with no partition is reached by no path (the join's
// identity).
//
// An analysis keeps its own state type, join and transfer, and lifts them
// with the helpers below (WaitCountAnalysis is the example).
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_ANALYSIS_PATHPARTITIONS_H
#define STINKYTOFU_ANALYSIS_PATHPARTITIONS_H

#include "stinkytofu/analysis/BranchConditions.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include <algorithm>
#include <utility>

namespace stinkytofu {

template <typename StateT> struct PathPartitions {
  struct Part {
    PathFacts Facts;
    StateT State;
    bool operator==(const Part &) const = default;
  };
  llvm::SmallVector<Part, 2> Parts;
  bool operator==(const PathPartitions &) const = default;

  /// One partition without facts: what holds where no branch is known.
  static PathPartitions unconditional(StateT State) {
    PathPartitions P;
    P.Parts.push_back({PathFacts(), std::move(State)});
    return P;
  }

  /// Adds the paths of \p State with \p Facts; \p Join(Into, From) joins
  /// two states. A state given as an rvalue is moved in when it starts a
  /// partition.
  template <typename S, typename JoinT> void add(const PathFacts &Facts, S &&State, JoinT Join) {
    for (Part &Mine : Parts)
      if (Mine.Facts.Facts == Facts.Facts) {
        PathFacts::intersect(Mine.Facts, Facts);
        Join(Mine.State, State);
        return;
      }
    for (auto *Same = Parts.begin(); Same != Parts.end(); ++Same)
      if (Same->State == State) {
        // Fewer facts may now equal another partition's: added again.
        Part Merged = std::move(*Same);
        Parts.erase(Same);
        PathFacts::intersect(Merged.Facts, Facts);
        add(Merged.Facts, std::move(Merged.State), Join);
        return;
      }
    Parts.push_back({Facts, std::forward<S>(State)});
  }

  template <typename JoinT> void join(const PathPartitions &From, unsigned Cap, JoinT Join) {
    for (const Part &P : From.Parts)
      add(P.Facts, P.State, Join);
    limit(Cap, Join);
  }

  /// Merges partitions until at most \p Cap are left, the pair that shares
  /// the most facts first; then orders them by their facts.
  template <typename JoinT> void limit(unsigned Cap, JoinT Join) {
    while (Parts.size() > Cap) {
      unsigned BestA = 0, BestB = 1, BestShared = 0;
      for (unsigned A = 0; A < Parts.size(); ++A)
        for (unsigned B = A + 1; B < Parts.size(); ++B) {
          unsigned Shared = llvm::count_if(Parts[A].Facts.Facts, [&](const BranchFact &F) {
            return llvm::binary_search(Parts[B].Facts.Facts, F);
          });
          if (Shared > BestShared) {
            BestA = A;
            BestB = B;
            BestShared = Shared;
          }
        }
      Part Merged = std::move(Parts[BestA]);
      PathFacts::intersect(Merged.Facts, Parts[BestB].Facts);
      Join(Merged.State, Parts[BestB].State);
      Parts.erase(Parts.begin() + BestB);
      Parts.erase(Parts.begin() + BestA);
      // The merged facts may be another partition's.
      add(Merged.Facts, std::move(Merged.State), Join);
    }
    llvm::sort(Parts, [](const Part &X, const Part &Y) { return X.Facts.Facts < Y.Facts.Facts; });
  }

  /// The partitions of \p Out along the edge \p From -> \p To: \p Out itself
  /// when the edge decides nothing, else \p Scratch filled.
  template <typename JoinT>
  static const PathPartitions &alongEdge(const BranchConditions &BC, const BasicBlock &From,
                                         const BasicBlock &To, const PathPartitions &Out,
                                         PathPartitions &Scratch, unsigned Cap, JoinT Join) {
    if (!BC.decides(From, To) ||
        llvm::none_of(Out.Parts, [&](const Part &P) { return BC.edgeFact(From, To, P.Facts); }))
      return Out;
    Scratch.Parts.clear();
    for (const Part &P : Out.Parts) {
      PathFacts Facts = P.Facts;
      if (BC.takeEdge(From, To, Facts))
        Scratch.add(Facts, P.State, Join);
    }
    Scratch.limit(Cap, Join);
    return Scratch;
  }
};

} // namespace stinkytofu

#endif
