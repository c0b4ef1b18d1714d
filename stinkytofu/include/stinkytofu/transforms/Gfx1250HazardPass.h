//===- Gfx1250HazardPass.h - s_wait_xcnt 0 for XNACK replay -----*- C++ -*-===//
//
// `Gfx1250HazardPass[=profile]` (the reference's name and argument) keeps
// the memory instructions of gfx1250 replayable after an XNACK retry: while
// a translation may still fault, the wave issues on and replays the
// faulting instruction later, so the registers that instruction read must
// still hold its inputs. The hardware drains the translation counter (xcnt)
// at every non-memory instruction and at a change of memory kind (scalar,
// vector, tensor), so a "group" is a run of consecutive memory instructions
// of one kind. The pass inserts `s_wait_xcnt 0` where a group would be
// unsafe:
//   - before the first atomic after a non-atomic memory instruction;
//   - before a scalar load, or a generic flat_* access (not atomic), that
//     writes a register the group read, or one it reads itself when the
//     group is not empty;
//   - before a forever `s_sleep` (bit 15) or an `s_prefetch_inst_pc_rel`
//     with a group open, and before an `s_set_vgpr_msb` with a group open
//     unless the next instruction of the block is a memory instruction.
// A counter wait whose every count is 0 closes the group, and so does a
// tensor transfer (it keeps no replay state). A scalar load of several
// dwords into its own address registers is warned about: a partial replay
// reads the overwritten address and no wait repairs it. Blocks are walked
// in layout order and a group stays open into the next block, which a
// block ending in a memory instruction reaches by falling through. An
// instruction MC does not know (or a macro) gets a drain before it when a
// group is open, and counts as a memory instruction of any kind reading
// every register. The memory kinds come from the counter model's events
// (hw/WaitCounters.h); the pass runs on processors with an xcnt counter
// (gfx1250) and is an error naming it elsewhere. `profile` prints how many
// waits each rule inserted to the statistics stream.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_TRANSFORMS_GFX1250HAZARDPASS_H
#define STINKYTOFU_TRANSFORMS_GFX1250HAZARDPASS_H

#include "stinkytofu/pass/PassArguments.h"

namespace stinkytofu {

llvm::Expected<std::unique_ptr<Pass>> createGfx1250HazardPass(const PassArguments &Args);

} // namespace stinkytofu

#endif
