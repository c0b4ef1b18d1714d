//===- CounterRegisters.h - Registers MC gives a wait counter ---*- C++ -*-===//
//
// Internal to the wait analysis. MC models some wait counters as registers
// (gfx1250's ASYNCcnt and TENSORcnt): an asynchronous load defines one,
// its wait reads it. They order instructions, but they hold no data a wait
// must protect: the counter is the subject of the wait itself, so reading
// "its result" before it completes would make a wait wait for itself.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_LIB_ANALYSIS_COUNTERREGISTERS_H
#define STINKYTOFU_LIB_ANALYSIS_COUNTERREGISTERS_H

#include "stinkytofu/analysis/RegisterUnits.h"
#include "stinkytofu/hw/WaitCounters.h"
#include "llvm/ADT/BitVector.h"

namespace stinkytofu {

/// The units of the registers whose MC name is a counter of \p CM (case
/// aside); computed once per target.
const llvm::BitVector &counterRegisterUnits(const RegisterUnits &RU, const CounterModel &CM);

} // namespace stinkytofu

#endif
