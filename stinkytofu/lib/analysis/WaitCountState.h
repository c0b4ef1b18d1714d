//===- WaitCountState.h - The wait analysis's state and instruction facts -*- C++ -*-===//
//
// Internal to the wait analysis (WaitCountAnalysis.cpp, WaitCountCache.cpp):
// the memory operations in flight per counter, as scores (LLVM's
// SIInsertWaitcnts), their canonical form, and what the analysis reads of
// each instruction.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_LIB_ANALYSIS_WAITCOUNTSTATE_H
#define STINKYTOFU_LIB_ANALYSIS_WAITCOUNTSTATE_H

#include "stinkytofu/analysis/PathPartitions.h"
#include "stinkytofu/analysis/WaitCountAnalysis.h"
#include "stinkytofu/hw/WaitCounters.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/IntrusiveRefCntPtr.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/MC/MCRegister.h"
#include <algorithm>
#include <memory>
#include <optional>
#include <vector>

namespace stinkytofu {

class Instruction;

namespace waitcount {

struct RingInfo;

using llvm::ArrayRef;
using llvm::DenseMap;
using llvm::IntrusiveRefCntPtr;
using llvm::makeIntrusiveRefCnt;
using llvm::MCRegister;
using llvm::SmallVector;

/// The newest pending operation that writes (or still reads) a slot.
struct Pending {
  int64_t Score = 0;
  const Instruction *Producer = nullptr;
  /// An address translation also ends when its own load or store does:
  /// counter DoneWith reaching DoneScore completes the entry too.
  int DoneWith = -1;
  int64_t DoneScore = 0;
};

/// LDS slots: the buffers of `mod.memtoken`, or Untagged.
constexpr int64_t Untagged = -1;

struct CounterState : llvm::RefCountedBase<CounterState> {
  unsigned Max = 0;
  int64_t LB = 0, UB = 0;
  uint32_t Kinds = 0; ///< events pending since the counter was last idle
  int64_t FlatScore = 0, LdsScore = 0, UnknownScore = 0;
  const Instruction *LdsProducer = nullptr, *Newest = nullptr;
  DenseMap<unsigned, Pending> Writes, Reads;     ///< by register unit
  /// Every unit Writes and Reads hold lies in [UnitsLo, UnitsHi]: a lookup
  /// of another unit is skipped. (It may also cover units whose entries
  /// went; nothing but the lookups reads it.)
  unsigned UnitsLo = ~0u, UnitsHi = 0;
  DenseMap<int64_t, Pending> LdsWrites, LdsReads; ///< by LDS token

  bool pending(int64_t Score) const { return Score > LB; }
  bool busy() const { return UB > LB; }
  /// Writes or Reads may hold \p Unit.
  bool mayHold(unsigned Unit) const { return UnitsLo <= Unit && Unit <= UnitsHi; }
  void holdUnit(unsigned Unit) {
    UnitsLo = std::min(UnitsLo, Unit);
    UnitsHi = std::max(UnitsHi, Unit);
  }
  /// What a copy of this counter becomes by idle(), made without copying
  /// the maps idle() empties. Only for LDS maps without buckets (idle()
  /// keeps theirs). Names every field: keep in step with them.
  CounterState idleCopy() const {
    CounterState N;
    N.Max = Max;
    N.LB = N.UB = UB;
    N.FlatScore = FlatScore;
    N.LdsScore = LdsScore;
    N.UnknownScore = UnknownScore;
    N.LdsProducer = LdsProducer;
    N.Newest = Newest;
    return N;
  }
  void idle() {
    LB = UB;
    Kinds = 0;
    // Released, not cleared: a map keeps its buckets through clear(), and
    // every copy of the state copies them all.
    Writes = DenseMap<unsigned, Pending>();
    Reads = DenseMap<unsigned, Pending>();
    UnitsLo = ~0u;
    UnitsHi = 0;
    LdsWrites.clear();
    LdsReads.clear();
  }
};

/// The counters of a state, each shared by the state's copies until one of
/// them changes it (copy on write): the dataflow copies a state into each
/// block and partition and along each edge, a block without memory
/// operations or waits changes none of it, and a memory operation changes
/// only its own counters (the others' maps stay shared). Read through a
/// const reference: the non-const accessor makes the counter this state's
/// own.
class CounterStates {
public:
  unsigned size() const { return unsigned(P.size()); }
  const CounterState &operator[](unsigned C) const { return *P[C]; }
  CounterState &operator[](unsigned C) {
    IntrusiveRefCntPtr<CounterState> &Mine = P[C];
    if (Mine->UseCount() > 1)
      Mine = makeIntrusiveRefCnt<CounterState>(*Mine);
    return *Mine;
  }
  /// Makes counter \p C idle (CounterState::idle); one shared with other
  /// states is not copied first where idling empties all its maps.
  void idle(unsigned C) {
    const CounterState &Old = *P[C];
    if (P[C]->UseCount() > 1 && !Old.LdsWrites.getMemorySize() &&
        !Old.LdsReads.getMemorySize())
      P[C] = makeIntrusiveRefCnt<CounterState>(Old.idleCopy());
    else
      (*this)[C].idle();
  }
  void resize(unsigned N) {
    unsigned Old = size();
    P.resize(N);
    for (unsigned C = Old; C < N; ++C)
      P[C] = makeIntrusiveRefCnt<CounterState>();
  }
  /// Whether both are copies of one set of counters (then equal).
  bool sameAs(const CounterStates &Other) const { return P == Other.P; }

private:
  // Counted without atomics or a control block: every copy of a state
  // counts each counter, and the analysis runs on one thread.
  SmallVector<IntrusiveRefCntPtr<CounterState>, MaxWaitCounters> P;
};

/// The counters of one point of the program (one path partition).
struct WaitState {
  CounterStates C;
  bool operator==(const WaitState &Other) const;
};

inline bool entryPending(const WaitState &S, const CounterState &CS, const Pending &P) {
  return CS.pending(P.Score) &&
         !(P.DoneWith >= 0 && P.DoneScore <= S.C[P.DoneWith].LB);
}

/// A score of counter \p CS in canonical form (0 when complete).
inline int64_t rebasedScore(const CounterState &CS, int64_t Score, int64_t Shift) {
  return CS.pending(Score) ? std::max<int64_t>(Score - Shift, 1) : 0;
}

/// A pending entry of counter \p C in canonical form.
inline Pending rebasedEntry(Pending P, ArrayRef<int64_t> Shift, unsigned C) {
  P.Score = std::max<int64_t>(P.Score - Shift[C], 1);
  if (P.DoneWith >= 0)
    P.DoneScore = std::max<int64_t>(P.DoneScore - Shift[P.DoneWith], 1);
  return P;
}

/// What canonical form takes off each counter: it rebases every counter to
/// LB = 0 with at most Max events in flight and drops what is complete.
SmallVector<int64_t, MaxWaitCounters> canonicalShift(const WaitState &S);

/// Puts \p S in canonical form in place. Comparing and joining read the
/// other side's canonical form on the fly (a copy of a state copies every
/// map's buckets, the analysis's main cost on large kernels).
void canonicalize(WaitState &S);

/// What the analysis needs of each instruction, computed once from the
/// instruction alone (not its place: it is kept by edit stamp, which a move
/// keeps).
struct InstInfo {
  MemoryAccess Access;
  std::optional<WaitCounts> Wait;
  bool Opaque = false, Barrier = false, Call = false, WritesExec = false,
       CacheInvalidate = false;
  /// Jumps to the return address without a label: a return in a callable
  /// function (isReturn), which is the place's to say.
  bool JumpsToCaller = false;
  /// The register units the instruction writes and reads (explicit and
  /// implicit), each with its register (for the message), and those of its
  /// explicit register operands that it reads.
  SmallVector<std::pair<unsigned, MCRegister>, 8> DefUnits, UseUnits;
  SmallVector<unsigned, 8> ExplicitUseUnits;
  /// The range of DefUnits and UseUnits (empty: Lo above Hi).
  unsigned UnitsLo = ~0u, UnitsHi = 0;
  SmallVector<int64_t, 2> Tokens;
  /// Its `mod.lds_ring` (LdsRingState.h), else null.
  std::shared_ptr<const RingInfo> Ring;
};

/// The states the dataflow runs on: one per set of branch facts
/// (PathPartitions.h).
using WaitPaths = PathPartitions<WaitState>;

} // namespace waitcount

/// The descriptions by edit stamp (the class comment of WaitDescriptions).
struct WaitDescriptions::Impl {
  /// Starts a run on \p T: descriptions made for another target go.
  void begin(const TargetInfo &T) {
    if (Target != &T) {
      Infos.clear();
      Units.clear();
      Target = &T;
    }
  }
  const TargetInfo *Target = nullptr;
  llvm::DenseMap<uint64_t, waitcount::InstInfo> Infos;
  /// The register units of each register described so far (by MC id).
  llvm::DenseMap<unsigned, llvm::SmallVector<unsigned, 8>> Units;
  unsigned Described = 0;
};

/// The descriptions and block results kept between runs (the class
/// comment of WaitCountCache).
struct WaitCountCache::Impl {
  using InstInfo = waitcount::InstInfo;
  using WaitPaths = waitcount::WaitPaths;
  /// A block transfer: the instructions transferred, the state before and
  /// after them.
  struct Transfer {
    std::vector<const Instruction *> Body;
    WaitPaths In, Out;
  };
  /// A block replay: its instructions, the state it started from, what
  /// they lack (reasons without paths) and the waits that complete nothing.
  struct Replay {
    std::vector<const Instruction *> Body;
    WaitPaths In;
    std::vector<MissingWait> Missing;
    std::vector<const Instruction *> Redundant;
  };

  explicit Impl(WaitDescriptions *Shared) : Descriptions(Shared ? Shared->P.get() : Own.P.get()) {}
  /// Starts a run on \p Target with \p NumWaves: what was kept for
  /// another target or count of waves goes.
  void begin(const TargetInfo &Target, unsigned NumWaves);
  /// The kept transfer of \p BB's instructions as they are now from a
  /// state equal to \p In, or null.
  const Transfer *findTransfer(const BasicBlock &BB, const WaitPaths &In) const;
  void addTransfer(const BasicBlock &BB, const WaitPaths &In, const WaitPaths &Out);
  /// The same for the final replay of a block.
  const Replay *findReplay(const BasicBlock &BB, const WaitPaths &In) const;
  Replay &addReplay(const BasicBlock &BB, const WaitPaths &In);

  const TargetInfo *Target = nullptr;
  unsigned NumWaves = 0;
  WaitDescriptions Own;
  /// The descriptions: shared ones (WaitCountCache's constructor) or Own.
  WaitDescriptions::Impl *Descriptions;
  /// Per block, newest last; a few per block (a loop's blocks are
  /// transferred from several states in one run, and a scheduler's guard
  /// puts a block back into an earlier order).
  llvm::DenseMap<const BasicBlock *, std::vector<Transfer>> Transfers;
  llvm::DenseMap<const BasicBlock *, std::vector<Replay>> Replays;
  Counts Stats;
};

} // namespace stinkytofu

#endif
