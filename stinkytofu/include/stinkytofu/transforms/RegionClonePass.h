//===- RegionClonePass.h - The first trip of a loop, with C = 0 --*- C++ -*-===//
//
// `RegionClonePass[=start=LABEL]` (the reference's name and its one clone
// spec, `InitCIterWmma` from `label_LoopBeginL`, the default of `start`).
// Tensile leaves out the zeroing of its accumulators when it asks for this
// pass: the first trip of the unrolled loop starts each accumulation chain
// from zero instead. The region is the loop's first instructions, from the
// header the label starts up to the last chain head (the first matrix
// instruction accumulating into a register, C = D) before the first branch.
// The pass copies the region into a block `label_InitCIterWmma_<start>_<n>`
// placed before the header, gives its chain heads C = 0, ends it with
// `s_branch label_InitCIterWmma_target_<n>` (a label put right after the
// region's last chain head) and sends the loop's entries from outside into
// the copy; the back edges still reach the original region.
//
// What is proven (checked before anything changes, else an error naming
// the pass): the label starts a loop header (LoopInfo) that is not the
// function's first block, entered from outside only by branches or by
// falling through from a block outside the loop (no long branch); the
// region holds no branch, call or directive, so it runs straight through;
// each chain head is the first instruction of the region reading or writing
// its accumulator. So the copy is the region instruction for instruction,
// reached exactly when the loop is entered from outside, and it leaves at
// the point the region would have continued: the output computes what the
// input computes with every chain head's accumulator zero on loop entry,
// the one change the pass is for. The wait and hazard verifiers that end
// the pipeline check the copy and the new edges; a loop whose accumulators
// are not meant to start at zero (a tail loop) must not be named.
//
// Targets with matrix instructions (MFMA: MC's `mai-insts`; WMMA: gfx11 and
// later, MC's `gfx11-insts`); an error naming the pass elsewhere.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_TRANSFORMS_REGIONCLONEPASS_H
#define STINKYTOFU_TRANSFORMS_REGIONCLONEPASS_H

#include "stinkytofu/pass/PassArguments.h"

namespace stinkytofu {

llvm::Expected<std::unique_ptr<Pass>> createRegionClonePass(const PassArguments &Args);

} // namespace stinkytofu

#endif
