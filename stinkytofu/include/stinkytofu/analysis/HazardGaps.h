//===- HazardGaps.h - What each hazard wait costs in cycles ------*- C++ -*-===//
//
// For every hazard wait of a function (`s_nop`, `v_nop`, `s_delay_alu`,
// `s_wait_alu` / `s_waitcnt_depctr`: InstRole ScalarNop, VectorNop,
// DelayAlu, DepCtrWait), the cycles it adds to its block: the block's
// estimate (BlockCycleModel) minus the estimate of the same block without
// it. A wait the code needs anyway costs its issue cycles (the consumer
// would have stalled as long without it); a wait stronger than needed
// costs its stall as well. Works on blocks as laid out: no CFG needed.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_ANALYSIS_HAZARDGAPS_H
#define STINKYTOFU_ANALYSIS_HAZARDGAPS_H

#include "stinkytofu/analysis/AnalysisManager.h"
#include "llvm/Support/raw_ostream.h"
#include <vector>

namespace stinkytofu {

struct HazardWaitCost {
  const Instruction *Wait = nullptr;
  const BasicBlock *Block = nullptr;
  uint64_t Cycles = 0;
};

struct HazardGaps {
  /// Every hazard wait, in layout order.
  std::vector<HazardWaitCost> Waits;
  uint64_t totalCycles() const;

  /// `HazardGapAnalysisPass @f: N hazard waits cost C cycles (...)`, the
  /// count and cycles per mnemonic; \p Verbose adds a line per wait.
  void print(const Function &F, bool Verbose, llvm::raw_ostream &OS) const;
};

struct HazardGapAnalysis {
  static AnalysisKey Key;
  using Result = HazardGaps;
  Result run(Function &F, AnalysisManager &AM);
};

} // namespace stinkytofu

#endif
