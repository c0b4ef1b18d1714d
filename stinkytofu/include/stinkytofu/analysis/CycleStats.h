//===- CycleStats.h - The cycle table of --stats -----------------*- C++ -*-===//
//
// What `stinkytofu-opt --stats` prints after the control-flow table: per
// function the estimated cycles of its longest path (EstimateAsmCycles,
// every loop body once), the stalls on it, its loops and the heaviest loop
// body, and its hazard waits with the cycles they cost (HazardGapAnalysis).
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_ANALYSIS_CYCLESTATS_H
#define STINKYTOFU_ANALYSIS_CYCLESTATS_H

#include "stinkytofu/ir/Module.h"
#include "llvm/Support/raw_ostream.h"

namespace stinkytofu {

/// A header line, one row per function (print order), a `<total>` row (sums;
/// the largest loop body). A function without a valid CFG shows `-` for
/// its path and loops.
void printCycleStats(Module &M, llvm::raw_ostream &OS);

} // namespace stinkytofu

#endif
