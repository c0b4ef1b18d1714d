//===- WaitCountState.cpp - The wait analysis's state in canonical form ---===//
//
// Inside a block the scores only grow; a state is compared and joined in
// its canonical form (LB = 0, the queue clamped to the counter's limit),
// which keeps the lattice finite.
//
//===----------------------------------------------------------------------===//
#include "WaitCountState.h"

#include "llvm/ADT/STLExtras.h"

using namespace llvm;

namespace stinkytofu::waitcount {

namespace {

/// Gives a register map that lost most of its entries buckets for those
/// left: a copy of a map copies every bucket, used or not. (Only for the
/// register maps: nothing depends on the order they are walked in.)
void shrinkToFit(DenseMap<unsigned, Pending> &Map) {
  constexpr size_t BucketSize = sizeof(DenseMap<unsigned, Pending>::value_type);
  if (Map.getMemorySize() <= 4 * BucketSize * std::max<size_t>(Map.size(), 16))
    return;
  DenseMap<unsigned, Pending> Fitted(Map.size());
  for (const auto &Entry : Map)
    Fitted.insert(Entry);
  Map = std::move(Fitted);
}

/// Whether the pending entries of \p A and \p B (of counter \p C of states
/// \p SA and \p SB) are the same in canonical form.
template <typename MapT>
bool sameEntries(const WaitState &SA, ArrayRef<int64_t> ShA, const MapT &A, const WaitState &SB,
                 ArrayRef<int64_t> ShB, const MapT &B, unsigned C) {
  const CounterState &CA = SA.C[C], &CB = SB.C[C];
  size_t PendingInB = count_if(B, [&](const auto &E) { return entryPending(SB, CB, E.second); });
  size_t PendingInA = 0;
  for (const auto &[K, P] : A) {
    if (!entryPending(SA, CA, P))
      continue;
    ++PendingInA;
    auto It = B.find(K);
    if (It == B.end() || !entryPending(SB, CB, It->second))
      return false;
    Pending X = rebasedEntry(P, ShA, C), Y = rebasedEntry(It->second, ShB, C);
    if (X.Score != Y.Score || X.DoneWith != Y.DoneWith || X.DoneScore != Y.DoneScore)
      return false;
  }
  return PendingInA == PendingInB;
}

} // namespace

SmallVector<int64_t, MaxWaitCounters> canonicalShift(const WaitState &S) {
  SmallVector<int64_t, MaxWaitCounters> Shift(S.C.size());
  for (unsigned C = 0; C < S.C.size(); ++C) {
    const CounterState &CS = S.C[C];
    Shift[C] = CS.UB - std::min<int64_t>(CS.UB - CS.LB, CS.Max);
  }
  return Shift;
}

void canonicalize(WaitState &S) {
  SmallVector<int64_t, MaxWaitCounters> Shift = canonicalShift(S);
  // Whether an entry is pending asks other counters' LBs as they were
  // (entryPending).
  SmallVector<int64_t, MaxWaitCounters> LBs(S.C.size());
  for (unsigned C = 0; C < S.C.size(); ++C)
    LBs[C] = std::as_const(S).C[C].LB;
  auto IsPending = [&](const CounterState &CS, const Pending &P) {
    return CS.pending(P.Score) && !(P.DoneWith >= 0 && P.DoneScore <= LBs[P.DoneWith]);
  };
  for (unsigned C = 0; C < S.C.size(); ++C) {
    CounterState &CS = S.C[C];
    CS.FlatScore = rebasedScore(CS, CS.FlatScore, Shift[C]);
    CS.LdsScore = rebasedScore(CS, CS.LdsScore, Shift[C]);
    CS.UnknownScore = rebasedScore(CS, CS.UnknownScore, Shift[C]);
    auto RebaseMap = [&](auto &Map) {
      for (auto It = Map.begin(); It != Map.end(); ++It) {
        if (!IsPending(CS, It->second)) {
          Map.erase(It);
          continue;
        }
        It->second = rebasedEntry(It->second, Shift, C);
      }
    };
    RebaseMap(CS.Writes);
    RebaseMap(CS.Reads);
    RebaseMap(CS.LdsWrites);
    RebaseMap(CS.LdsReads);
    shrinkToFit(CS.Writes);
    shrinkToFit(CS.Reads);
    CS.UB -= Shift[C];
    CS.LB = 0;
    if (!CS.UB)
      CS.Kinds = 0;
  }
}

bool WaitState::operator==(const WaitState &Other) const {
  if (C.sameAs(Other.C))
    return true;
  if (C.size() != Other.C.size())
    return false;
  SmallVector<int64_t, MaxWaitCounters> ShA = canonicalShift(*this), ShB = canonicalShift(Other);
  for (unsigned I = 0; I < C.size(); ++I) {
    const CounterState &X = C[I], &Y = Other.C[I];
    int64_t UBX = X.UB - ShA[I], UBY = Y.UB - ShB[I];
    if (UBX != UBY || (UBX ? X.Kinds : 0) != (UBY ? Y.Kinds : 0) ||
        rebasedScore(X, X.FlatScore, ShA[I]) != rebasedScore(Y, Y.FlatScore, ShB[I]) ||
        rebasedScore(X, X.LdsScore, ShA[I]) != rebasedScore(Y, Y.LdsScore, ShB[I]) ||
        rebasedScore(X, X.UnknownScore, ShA[I]) != rebasedScore(Y, Y.UnknownScore, ShB[I]))
      return false;
  }
  for (unsigned I = 0; I < C.size(); ++I) {
    const CounterState &X = C[I], &Y = Other.C[I];
    if (!sameEntries(*this, ShA, X.Writes, Other, ShB, Y.Writes, I) ||
        !sameEntries(*this, ShA, X.Reads, Other, ShB, Y.Reads, I) ||
        !sameEntries(*this, ShA, X.LdsWrites, Other, ShB, Y.LdsWrites, I) ||
        !sameEntries(*this, ShA, X.LdsReads, Other, ShB, Y.LdsReads, I))
      return false;
  }
  return true;
}

} // namespace stinkytofu::waitcount
