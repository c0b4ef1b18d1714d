//===- CyclePasses.h - The cycle estimate passes -----------------*- C++ -*-===//
//
// `EstimateAsmCyclesPass` prints the cycle estimate of every function
// (analysis/CycleEstimate.h): a line per block, per loop and the longest
// path; with `heaviestLoop=FILE` it also writes the instructions of the
// module's heaviest loop body, along the path its estimate takes, to FILE
// (for an outside model such as llvm-mca, bench/oracle-mca.py).
// `HazardGapAnalysisPass` (the reference's name) prints what the
// hazard waits of every function cost (analysis/HazardGaps.h): their count
// and cycles per mnemonic, and with `verbose` a line per wait. Both write
// to the stats stream (`stinkytofu-opt --stats`), build the CFG of a
// function that has none, and change nothing else.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_TRANSFORMS_CYCLEPASSES_H
#define STINKYTOFU_TRANSFORMS_CYCLEPASSES_H

#include "stinkytofu/pass/PassArguments.h"

namespace stinkytofu {

/// `heaviestLoop=FILE`: the heaviest loop's instructions to FILE.
llvm::Expected<std::unique_ptr<Pass>> createEstimateAsmCyclesPass(const PassArguments &Args);
/// `verbose`: a line per wait.
llvm::Expected<std::unique_ptr<Pass>> createHazardGapAnalysisPass(const PassArguments &Args);

} // namespace stinkytofu

#endif
