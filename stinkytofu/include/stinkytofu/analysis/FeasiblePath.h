//===- FeasiblePath.h - One path a finding takes, with its branches -*- C++ -*-===//
//
// The evidence of a finding: the blocks from the producer to the consumer
// on a path whose branches agree with one another (BranchConditions) and
// with the facts of the consumer's partition, on which no wait completes
// the producer's operation, and the branch conditions it takes. Breadth
// first, so the path is one of the shortest; bounded.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_ANALYSIS_FEASIBLEPATH_H
#define STINKYTOFU_ANALYSIS_FEASIBLEPATH_H

#include "stinkytofu/analysis/BranchConditions.h"
#include "stinkytofu/hw/WaitCounters.h"
#include "stinkytofu/ir/Function.h"
#include "llvm/ADT/DenseMap.h"
#include <optional>
#include <string>
#include <vector>

namespace stinkytofu {

/// A path of blocks; Taken[K] is the fact the edge into Blocks[K] adds.
struct FeasiblePath {
  std::vector<const BasicBlock *> Blocks;
  std::vector<std::optional<BranchFact>> Taken;
};

/// The operation \p From started, on one counter, followed along a path:
/// a wait on the path that surely completes it (a count of 0, or of no more
/// than the operations of the same in-order kind started after it) makes
/// the path no evidence that it is still in flight.
struct PendingOperation {
  const CounterModel *Counters;
  unsigned Counter;
};

/// What a path search reads of each block, made once per block and kept
/// for every search over the same function, branch conditions and counter
/// model (valid while the function is unchanged): the instructions that
/// change branch facts, and each MC instruction's wait or counter events.
/// A search otherwise classified every instruction again at every visit of
/// its block (a block is visited once per set of facts and counter state).
class PathSteps {
public:
  /// One MC instruction of \p I (First: the first of \p I's).
  struct Step {
    const Instruction *I;
    std::optional<WaitCounts> Wait;
    uint32_t Events = 0; ///< eventBit()s it starts, when it is no wait
    bool First = true;
    bool ChangesFacts = false; ///< on First only
  };

  /// \p Counters null: the searches follow no pending operation.
  PathSteps(const BranchConditions &BC, const CounterModel *Counters)
      : BC(BC), Counters(Counters) {}

  /// The steps of \p BB that do anything.
  llvm::ArrayRef<Step> of(const BasicBlock &BB);
  /// The steps of \p BB from \p Begin on, at least one per instruction.
  std::vector<Step> every(const BasicBlock &BB, BasicBlock::const_iterator Begin) const;

  const BranchConditions &conditions() const { return BC; }

private:
  void append(const Instruction &I, bool KeepEmpty, std::vector<Step> &Out) const;

  const BranchConditions &BC;
  const CounterModel *Counters;
  llvm::DenseMap<const BasicBlock *, std::vector<Step>> ByBlock;
};

/// A path from right after \p From to the start of \p To (another block,
/// or \p From's again around a loop) whose branch facts contradict neither
/// one another nor \p AtTo, and, with \p Pending, on which no wait
/// completes \p From's operation. None when there is none, or none within
/// the search's budget. \p Steps (of \p BC and \p Pending's counter
/// model): kept from earlier searches; null, the search makes its own.
std::optional<FeasiblePath> findFeasiblePath(const BranchConditions &BC, const Instruction &From,
                                             const BasicBlock &To, const PathFacts &AtTo,
                                             std::optional<PendingOperation> Pending = {},
                                             PathSteps *Steps = nullptr);

/// A path from the entry of \p F to \p Consumer through \p Producer whose
/// branch facts, from the entry on, contradict one another nowhere, and on
/// which no wait completes the operation \p Producer last started before
/// \p Consumer (FindingReplay.h replays it). Its last block is \p
/// Consumer's. None when there is none within the search's budget.
std::optional<FeasiblePath> findPathFromEntry(const BranchConditions &BC, const Function &F,
                                              const Instruction &Producer,
                                              const Instruction &Consumer,
                                              PendingOperation Pending,
                                              PathSteps *Steps = nullptr);

/// `k -> .LBB0_2 -> .LBB0_3 (at .LBB0_2: s_cmp_eq_u32 s5, 1 false)`: the
/// branch of each named block and the outcome the path takes.
std::string describePath(const BranchConditions &BC, const FeasiblePath &P);

/// A block's label, or where it starts when it has none.
std::string blockName(const BasicBlock &BB);

} // namespace stinkytofu

#endif
