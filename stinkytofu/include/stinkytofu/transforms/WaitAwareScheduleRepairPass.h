//===- WaitAwareScheduleRepairPass.h - Work behind wait-anchored matrix ops -*- C++ -*-===//
//
// `WaitAwareScheduleRepairPass[=kSlotsToMovePastAnchor=N][,stats]` (the
// reference's name and argument, default 1; 0 turns it off). It runs after
// the waits are inserted: a wait inserter puts a memory-counter wait right
// in front of the matrix instruction (MFMA, WMMA) that reads the awaited
// data, which leaves the matrix instruction nothing to issue behind it
// while it runs. For each such anchor (a run of memory-counter waits right
// before a matrix instruction) the pass moves the last N instructions of
// the window in front of it (since the previous matrix instruction or
// fence of the region) that do not access memory, are not fences and are
// not matrix instructions, to right after the anchor, in their order. The
// waits stay with their anchor and keep their counts.
//
// Why that keeps the waits right: a moved instruction starts no memory
// operation, so every counter counts what it counted; it only issues
// later, after the waits, which can only make the data it reads older. What
// it computes is proven by the schedule validator
// (analysis/ScheduleValidator.h) on the region without the anchor's waits,
// for every move, before it is made: an instruction whose result something
// before the anchor (or the anchor itself) reads, or that would overwrite
// what they read, does not move. Hazard wait states are the later passes'
// work (`--verify-hazards`).
//
// Where the reference differs: it carries the work left behind into the
// next windows and re-emits the whole segment in a Kahn order; ours moves
// instructions only across their own anchor. It applies on every target;
// on one without matrix instructions (gfx900, gfx906, gfx1030) no anchor
// exists and nothing changes.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_TRANSFORMS_WAITAWARESCHEDULEREPAIRPASS_H
#define STINKYTOFU_TRANSFORMS_WAITAWARESCHEDULEREPAIRPASS_H

#include "stinkytofu/pass/PassArguments.h"

namespace stinkytofu {

llvm::Expected<std::unique_ptr<Pass>>
createWaitAwareScheduleRepairPass(const PassArguments &Args);

} // namespace stinkytofu

#endif
