//===- FindingReplay.h - A wait finding replayed along one path -*- C++ -*-===//
//
// The evidence of a wait finding, checked apart from the dataflow that
// found it: a path from the function's entry through the producer to the
// consumer whose branch facts agree from the entry on (findPathFromEntry),
// followed instruction by instruction by a small interpreter of the
// counters. Each memory operation joins the queue of its counter; a wait
// `cnt(N)` retires all but the N newest of a queue that holds one in-order
// kind of event, and of any other queue (SMEM, two kinds at once) all on a
// wait for 0 and otherwise the oldest but the producer, which may be among
// the N that stay (the worst case); a call leaves only stores in flight.
// The finding replays as real when the producer's operation is still
// queued at the consumer.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_ANALYSIS_FINDINGREPLAY_H
#define STINKYTOFU_ANALYSIS_FINDINGREPLAY_H

#include "stinkytofu/analysis/FeasiblePath.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/raw_ostream.h"
#include <optional>

namespace stinkytofu {

/// The counters after one instruction of the path (or at a block's start).
struct ReplayStep {
  const BasicBlock *Block = nullptr;  ///< a block entered: no instruction
  const Instruction *Inst = nullptr;
  std::optional<BranchFact> Taken;    ///< what the edge into Block adds
  llvm::SmallVector<unsigned, MaxWaitCounters> InFlight; ///< per counter
  /// Operations younger than the producer on the finding's counter, or -1
  /// while the producer is not in flight.
  int ProducerYounger = -1;
};

struct FindingReplay {
  FeasiblePath Path;
  /// Block entries, every instruction that changes a counter, the consumer.
  std::vector<ReplayStep> Steps;
  const Instruction *Producer = nullptr, *Consumer = nullptr;
  unsigned Counter = 0;
  /// The producer's operation is in flight at the consumer.
  bool Real = false;
  /// The count that would be enough at the consumer (0 on a queue that is
  /// not in order).
  unsigned Needed = 0;
};

/// Replays the finding that \p Consumer needs a wait on \p Counter for
/// \p Producer. None when no path from the entry within the search's
/// budget leaves the producer's operation pending at the consumer.
std::optional<FindingReplay> replayFinding(const BranchConditions &BC, const CounterModel &CM,
                                           const Function &F, const Instruction &Producer,
                                           const Instruction &Consumer, unsigned Counter);

/// The path, then one line per step with the counters in flight, then the
/// verdict at the consumer.
void printReplay(llvm::raw_ostream &OS, const BranchConditions &BC, const CounterModel &CM,
                 const FindingReplay &R);

} // namespace stinkytofu

#endif
