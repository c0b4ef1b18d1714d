//===- ModelCheck.h - The cycle estimate against a measurement --*- C++ -*-===//
//
// `sqtt-trace model-check K.s CAPTURE`: for every executed basic block the
// estimate of EstimateAsmCycles (BlockCycleModel: one pass through the
// block, nothing in flight at its start) against the measured cycles per
// execution, and for every loop the estimate of one trip against the
// measured cycles per iteration. Measured = (durations + idle) of the
// group's rows over its executions: the time from the wave reaching the
// group's first instruction to the end of its last.
//
// Error = (estimate - measured) / measured; the distribution (quantiles,
// mean absolute error, cycle-weighted) says how far the model is from the
// hardware and in which direction.
//
//===----------------------------------------------------------------------===//
#ifndef ASM_INSTRUMENT_HOTSPOTS_MODELCHECK_H
#define ASM_INSTRUMENT_HOTSPOTS_MODELCHECK_H

#include "asm-instrument/hotspots/Hotspots.h"
#include "llvm/Support/raw_ostream.h"

namespace stinkytofu::hotspots {

/// Prints the comparison table and the error distribution; \p Json: one
/// JSON object instead.
void printModelCheck(const Hotspots &H, SourceMap &Map, bool Json, llvm::raw_ostream &OS);

} // namespace stinkytofu::hotspots

#endif
