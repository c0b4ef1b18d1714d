//===- WaitTargetUnits.h - Register-unit sets the wait analysis asks --*- C++ -*-===//
//
// Internal to the wait analysis: sets of register units that depend only on
// the target (read from all of MC's opcodes or registers), computed on first
// use and kept for the process, so each analysis of a run does not pay for
// them.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_LIB_ANALYSIS_WAITTARGETUNITS_H
#define STINKYTOFU_LIB_ANALYSIS_WAITTARGETUNITS_H

#include "stinkytofu/analysis/RegisterUnits.h"
#include "stinkytofu/hw/WaitCounters.h"
#include "llvm/ADT/BitVector.h"

namespace stinkytofu {

/// The units of the registers whose MC name is a counter of \p CM (case
/// aside). MC models some wait counters as registers (gfx1250's ASYNCcnt
/// and TENSORcnt: a transfer defines one, its wait reads it). They order
/// instructions, but hold no data a wait must protect: the counter is the
/// subject of the wait itself, so reading "its result" before it completes
/// would make a wait wait for itself.
const llvm::BitVector &counterRegisterUnits(const RegisterUnits &RU, const CounterModel &CM);

// loadDestinationUnits (WaitCountAnalysis.h) is defined here too.

} // namespace stinkytofu

#endif
