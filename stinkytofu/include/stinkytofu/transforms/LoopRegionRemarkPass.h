//===- LoopRegionRemarkPass.h - What limits scheduling in each loop -*- C++ -*-===//
//
// `LoopRegionRemarkPass` (the reference's name; no arguments) reports, on
// the statistics stream, for every loop of every function (LoopInfo.h,
// outer loops first) and every block of it: its instructions, its
// scheduling regions and what cuts them, the cycles its hazard waits cost,
// its branches and calls, and its LDS accesses without a memory token. A
// region boundary is a fence of the effect model the scheduler reads
// (InstructionEffects.h: control transfers, counter waits, barriers, the
// SALU program-control format, ...), named by kind: `wait` (a counter wait
// of the hardware model), `branch`, `call` or `fence`; a block with K
// fences has K + 1 regions, as in the reference. The hazard-wait cost is
// HazardGaps.h's (s_nop, v_nop, s_delay_alu, s_wait_alu), where the
// reference counts s_nop operands only. Untagged LDS accesses are counted,
// not boundaries: the dependence DAG orders LDS accesses by their addresses
// and effects, not by tokens. The CFG is built where there is none; the
// code does not change.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_TRANSFORMS_LOOPREGIONREMARKPASS_H
#define STINKYTOFU_TRANSFORMS_LOOPREGIONREMARKPASS_H

#include "stinkytofu/pass/PassArguments.h"

namespace stinkytofu {

llvm::Expected<std::unique_ptr<Pass>> createLoopRegionRemarkPass(const PassArguments &Args);

} // namespace stinkytofu

#endif
