//===- CycleEstimate.h - Cycles per block, loop body and kernel path -*- C++ -*-===//
//
// EstimateAsmCycles (the reference's name): every block's cycles on the
// in-order issue model of BlockCycleModel, then
//
//   - per loop (LoopInfo): the cycles of one trip, the longest path from
//     the header to a latch inside the loop, each nested loop counted once,
//     with nothing in flight at the header; and the same path's steady
//     state, its second trip issued from the state the first leaves (a
//     wait at the top for work of the previous trip counts there);
//   - per function: the longest path from the entry block with the edges
//     that close a cycle left out, so every loop body counts once (one
//     trip: the assembly does not say how many trips a loop makes).
//
// Needs a valid CFG (run CFGBuilder first).
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_ANALYSIS_CYCLEESTIMATE_H
#define STINKYTOFU_ANALYSIS_CYCLEESTIMATE_H

#include "stinkytofu/analysis/AnalysisManager.h"
#include "stinkytofu/analysis/BlockCycleModel.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/raw_ostream.h"
#include <vector>

namespace stinkytofu {

/// The cycles of one trip through a loop.
struct LoopCycles {
  const BasicBlock *Header = nullptr;
  unsigned Depth = 1;
  uint64_t Body = 0;
  /// The second of two trips along Body's path (BlockCycleModel::
  /// estimateSecondTrip): what a trip costs once the loop runs.
  uint64_t SteadyBody = 0;
  /// Body's path: the blocks of the trip, header first (empty when no
  /// latch is reached).
  std::vector<const BasicBlock *> Trip;
};

class CycleEstimate {
public:
  /// The cycles of \p BB (zero for a block the function does not hold).
  const BlockCycles &block(const BasicBlock &BB) const;
  /// Every loop, outer loops before the loops they contain.
  const std::vector<LoopCycles> &loops() const { return Loops; }
  /// The longest path from the entry block, every loop body once.
  uint64_t pathCycles() const { return PathCycles; }
  /// Its blocks, entry first.
  const std::vector<const BasicBlock *> &path() const { return Path; }
  /// The sum of the path's blocks: issue cycles and stalls by cause.
  const BlockCycles &pathTotals() const { return PathTotals; }

  /// `EstimateAsmCycles @f: ...`, a line per block, per loop, and the path.
  void print(const Function &F, llvm::raw_ostream &OS) const;

private:
  friend struct EstimateAsmCycles;
  llvm::DenseMap<const BasicBlock *, BlockCycles> Blocks;
  std::vector<LoopCycles> Loops;
  uint64_t PathCycles = 0;
  std::vector<const BasicBlock *> Path;
  BlockCycles PathTotals;
};

/// The analysis; an error when the function has no valid CFG.
struct EstimateAsmCycles {
  static AnalysisKey Key;
  using Result = CycleEstimate;
  llvm::Expected<Result> run(Function &F, AnalysisManager &AM);
};

} // namespace stinkytofu

#endif
