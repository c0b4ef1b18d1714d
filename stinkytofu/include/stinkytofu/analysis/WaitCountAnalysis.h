//===- WaitCountAnalysis.h - Outstanding memory events per instruction -*- C++ -*-===//
//
// A forward dataflow over one function's CFG of the memory operations still
// in flight, per counter, the registers (and LDS) they will write or still
// read, as LLVM's SIInsertWaitcnts models them (hw-dependencies-reference.md
// 1.7, 1.8):
//
//   - each counted instruction takes the next score of its counters; a wait
//     `cnt(N)` completes all but the N newest of an in-order counter, `cnt(0)`
//     everything; a counter with an out-of-order event pending (SMEM, a
//     generic flat on gfx9, two kinds of event at once, a caller's work) is
//     only proven idle by a wait for 0;
//   - an instruction needs a wait when it reads or writes a register a
//     pending operation writes (RAW, WAW; not for a second VMEM load where
//     results land in order), writes one a pending export, GDS operation or
//     gfx1250 address translation still reads (WAR), touches LDS a pending
//     LDS DMA, tensor or async transfer writes or reads (refined by
//     `mod.memtoken`), is a barrier with LDS work in flight (every counter on
//     gfx900/906/908), invalidates caches (an acquire: vector memory must be
//     done), or returns from a callable function (every counter but the
//     store counter and xcnt);
//   - a callable function starts with its caller's work pending in every
//     register a load can write (the destination classes of MC's loads:
//     not EXEC, M0, SCC or MODE);
//     a call ends with everything but the store counter idle (the callee
//     waits at entry and return);
//   - joins keep the longest queue and the newest pending write of each
//     register; queues longer than a counter's limit are clamped, so the
//     states form a finite lattice and loops reach a fixed point.
//
// Branch correlated: the states are partitioned by the facts of the
// branches taken (PathPartitions.h), so a path that takes a branch one way
// and then the other way on the same unchanged comparison carries nothing
// to where it would need a wait.
//
// The transfer applies the waits an instruction needs before it, as if they
// were there: what remains are the waits the code lacks, each with the
// operation it waits for (WaitCntVerifier reports them, wait insertion
// writes them).
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_ANALYSIS_WAITCOUNTANALYSIS_H
#define STINKYTOFU_ANALYSIS_WAITCOUNTANALYSIS_H

#include "stinkytofu/analysis/AnalysisManager.h"
#include "stinkytofu/analysis/RegisterUnits.h"
#include "stinkytofu/hw/WaitCounters.h"
#include "stinkytofu/ir/Function.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/MC/MCRegister.h"
#include "llvm/Support/Error.h"
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace stinkytofu {

class WaitDescriptions;

struct WaitCountOptions {
  /// Waves per workgroup: with more than one, the LDS a tensor load writes
  /// is read after a barrier, which is then the only reader that waits for
  /// it (the reference's NumWaves).
  unsigned NumWaves = 1;
  /// Partition the states by the branch facts of each path (above); off,
  /// every path counts, feasible or not.
  bool CorrelateBranches = true;
  /// Find and describe a feasible path for each reason whose producer is
  /// in another block (WaitReason::Path): a bounded search per reason, on
  /// large kernels most of a run. Off for the clients that only place
  /// waits (they read MissingWait::Needed alone).
  bool DescribePaths = true;
  /// With a WaitCountCache: also run without it and fail unless both find
  /// the same missing and redundant waits (the cache's debug mode).
  bool CheckCache = false;
  /// Each instruction's description, kept for other runs (of any function,
  /// pass or analysis manager: WaitDescriptions); null: a WaitCountCache's,
  /// else the run's own.
  WaitDescriptions *Descriptions = nullptr;
  /// Keep what allQuiet asks: the state each block starts with and the
  /// function's instructions as they are now, so that the state before any
  /// of them can be asked after code has been inserted around them.
  bool KeepStates = false;
};

/// One WaitDescriptions per module, in the AnalysisManager's lasting
/// results: no invalidation drops it, and the manager of a pipeline shares
/// it with the one its input check runs under (verifyInput).
struct WaitDescriptionsAnalysis {
  static AnalysisKey Key;
  using Result = WaitDescriptions;
  Result run(Module &, AnalysisManager &);
};

/// What the wait analyses read of each instruction (its counter events, the
/// wait it is, its register units), described once and kept under the
/// instruction's edit stamp (Instruction::stamp), which every change of the
/// instruction replaces: an entry is found again only for the instruction
/// as it was described, whatever passes ran in between. So the check of a
/// pipeline's input and the verifier of its output, under different
/// analysis managers, describe an instruction the pipeline left alone once.
/// Entries of instructions since changed or erased stay until the
/// descriptions go (a few hundred bytes each).
class WaitDescriptions {
public:
  WaitDescriptions();
  ~WaitDescriptions();
  WaitDescriptions(WaitDescriptions &&);
  WaitDescriptions &operator=(WaitDescriptions &&);

  /// Instructions described so far (kept or since dropped with a change of
  /// target).
  unsigned described() const;

private:
  friend class WaitCountAnalysis;
  friend class WaitCountCache;
  struct Impl;
  std::unique_ptr<Impl> P;
};

/// What the wait analyses of one function keep from one run to the next:
/// each instruction's description (its counter events, waits, register
/// units), made once, and per block the states its last path-insensitive
/// transfers began and ended with and the waits its last replay found. A
/// run given the cache transfers or replays a block again only when its
/// instructions or the state it starts from changed (the states compare as
/// the dataflow compares them), so after an edit only the edited blocks
/// and those their changed states reach are solved again. The blocks are
/// visited in the order of a run without the cache and end in the same
/// states: the same missing waits (consumers and counts) and redundant
/// waits. A reason of a reused block may name another operation of the
/// same score than a new run would, so the clients that read only the
/// counts share a cache (the scheduler's guard, the wait insertion), and
/// the verifier runs without.
///
/// The descriptions are kept by edit stamp (WaitDescriptions); the block
/// results by instruction and block: valid while instructions are only
/// moved between runs. A pass that creates, erases or changes an
/// instruction must not preserve WaitCountCacheAnalysis.
class WaitCountCache {
public:
  /// With \p Shared, the descriptions are those (kept beyond this cache);
  /// else its own.
  explicit WaitCountCache(WaitDescriptions *Shared = nullptr);
  ~WaitCountCache();
  WaitCountCache(WaitCountCache &&);
  WaitCountCache &operator=(WaitCountCache &&);

  /// Block transfers and replays the runs so far made and reused.
  struct Counts {
    unsigned Described = 0, Transferred = 0, TransfersReused = 0, Replayed = 0,
             ReplaysReused = 0;
  };
  const Counts &counts() const;

private:
  friend class WaitCountAnalysis;
  struct Impl;
  std::unique_ptr<Impl> P;
};

/// One WaitCountCache per function in the AnalysisManager, describing
/// through its module's WaitDescriptionsAnalysis.
struct WaitCountCacheAnalysis {
  static AnalysisKey Key;
  using Result = WaitCountCache;
  Result run(Function &F, AnalysisManager &AM);
};

/// Why an instruction needs a wait on one counter.
struct WaitReason {
  enum Kind : uint8_t {
    Read,        ///< reads a register the operation writes
    Write,       ///< writes a register the operation writes
    Overwrite,   ///< writes a register the operation still reads
    LdsAccess,   ///< touches LDS the operation writes or reads
    Barrier,     ///< a barrier while the operation touches LDS
    Return,      ///< returns to a caller that assumes idle counters
    Invalidate,  ///< invalidates caches (an acquire) while memory is in flight
    Opaque,      ///< an instruction MC does not describe
  };
  Kind What = Read;
  unsigned Counter = 0;
  int Needed = 0;             ///< the count that is enough
  unsigned Outstanding = 0;   ///< events in flight on the counter here
  llvm::MCRegister Register;  ///< for Read, Write, Overwrite
  /// The pending operation; null for work of a caller or callee.
  const Instruction *Producer = nullptr;
  /// A path from a producer in another block to the consumer whose branch
  /// conditions agree (FeasiblePath.h), described; empty otherwise.
  std::string Path;
};

/// The waits one instruction lacks.
struct MissingWait {
  const Instruction *Consumer = nullptr;
  WaitCounts Needed;
  /// The strictest reason per counter that waits.
  llvm::SmallVector<WaitReason, 2> Reasons;
};

class WaitCountAnalysis {
public:
  ~WaitCountAnalysis();
  WaitCountAnalysis(WaitCountAnalysis &&);

  /// Runs over \p F (its CFG must be valid). Fails only if the dataflow
  /// finds no fixed point within its visit limit.
  static llvm::Expected<WaitCountAnalysis> run(const Function &F, const CounterModel &CM,
                                               WaitCountOptions Opts = {});
  /// The same with \p Cache (of \p F, see WaitCountCache): the
  /// descriptions and block results of earlier runs are reused, this run's
  /// kept.
  static llvm::Expected<WaitCountAnalysis> run(const Function &F, const CounterModel &CM,
                                               WaitCountOptions Opts, WaitCountCache &Cache);

  /// Every instruction that lacks a wait, in layout order.
  llvm::ArrayRef<MissingWait> missingWaits() const { return Missing; }
  /// The waits already in the code that complete nothing (every counter
  /// they name is idle or already down to their count, or out of order and
  /// they do not wait for 0).
  llvm::ArrayRef<const Instruction *> redundantWaits() const { return Redundant; }

  const CounterModel &counters() const { return *CM; }

  /// Why the findings are path-insensitive (the branch-correlated analysis
  /// reached no fixed point), or empty: they lie on paths whose branches
  /// agree.
  const std::string &gaveUp() const { return GaveUp; }

  /// With KeepStates: the place of \p I in the function's layout as the
  /// run saw it (keptInstructions), or std::nullopt.
  std::optional<unsigned> keptPlace(const Instruction &I) const;
  /// With KeepStates: the function's instructions in layout order, as the
  /// run saw them.
  llvm::ArrayRef<const Instruction *> keptInstructions() const;
  /// An instruction the run did not see, and the place of an instruction
  /// the run saw whose state it is asked in: the one before it, or with
  /// AfterPlace the one after it.
  struct QuietQuestion {
    const Instruction *Inserted;
    unsigned Place;
    bool AfterPlace = false;
  };
  /// With KeepStates: whether each question's instruction starts no memory
  /// event, is no call, return, barrier, cache invalidation, LDS access or
  /// instruction MC does not describe, and needs no wait in the state this
  /// run found at its place (on every path). Every
  /// instruction the run saw must be alive and unchanged since (its stamp),
  /// and so must the counter model and descriptions it was given.
  bool allQuiet(llvm::ArrayRef<QuietQuestion> Questions) const;

private:
  struct Impl;
  struct KeptStates;
  explicit WaitCountAnalysis(const CounterModel &CM);
  static llvm::Expected<WaitCountAnalysis> solve(const Function &F, const CounterModel &CM,
                                                 WaitCountOptions Opts,
                                                 WaitCountCache::Impl *Cache);
  /// Keeps in \p Result what KeepStates asks of \p A, solved on \p F.
  static void keepStates(WaitCountAnalysis &Result, std::unique_ptr<Impl> A, const Function &F);
  const CounterModel *CM;
  std::vector<MissingWait> Missing;
  std::vector<const Instruction *> Redundant;
  std::string GaveUp;
  /// With KeepStates: the solved analysis and its blocks' states.
  std::unique_ptr<KeptStates> Kept;
};

/// The message of a missing wait: `v[4:5] read before the global_load_dwordx2
/// at line 12 completes (vmcnt needs <= 0 here, is 1)`, with the blocks the
/// operation's result travels through when it crosses blocks.
std::string describeMissingWait(const CounterModel &CM, const MissingWait &W,
                                const WaitReason &R);

/// The register units a memory operation can write: SGPRs, VGPRs, AGPRs,
/// and vcc, ttmp and flat_scratch, which SMEM loads may name; never EXEC,
/// M0, SCC or MODE. What a caller's loads may still be writing when a
/// callable function starts.
const llvm::BitVector &loadDestinationUnits(const RegisterUnits &RU);

/// The rule a missing wait breaks, without its counts: the reason and the
/// counter (`read vmcnt`), for telling findings apart across runs.
std::string waitRuleName(const CounterModel &CM, const WaitReason &R);

} // namespace stinkytofu

#endif
