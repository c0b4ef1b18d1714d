//===- MergeBarrierPass.h - Fuse barrier groups close together in loops -*- C++ -*-===//
//
// `StinkyMergeBarrierPass[=threshold=N]` (the reference's name and default
// threshold, 11 cycles). In the blocks of a loop body it finds the barrier
// groups (a run of adjacent barriers with LDS dependences, `mod.lds_deps`
// from StinkyBuildImplicitDependencyPass, all with the same tokens: a
// `s_barrier`, or a split barrier's signal and wait) and fuses two
// consecutive groups of one scheduling region when fewer than N cycles lie
// between them (BlockCycleModel: a matrix instruction counts its latency,
// any other its issue cycles). The first group gets the tokens of both
// (`mod.memtoken`, `mod.lds_deps`, a comment naming them), the second is
// erased; repeated until no pair fuses. Nothing moves.
//
// The proof, checked for every pair before it fuses: nothing between the
// groups is a barrier or a fence other than a nop or an ALU wait (a memory
// wait may be what lets the second barrier publish a global access to the
// other waves; the passes that insert waits run after this one), nothing
// between them accesses memory other than LDS buffers of tokens neither
// group names (an LDS access without tokens may touch any buffer; a global
// or GDS access may be what the second barrier published to other waves).
// Then every LDS access of the second group's tokens that was before it is
// before the first group too, and every one after it still is: the first
// barrier orders them as the second did. The reference checks only the
// tokens of the accesses in between.
//
// Every target has barriers: it runs on all (the reference only on
// gfx1250). Without LDS dependences (assembly input) it changes nothing.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_TRANSFORMS_MERGEBARRIERPASS_H
#define STINKYTOFU_TRANSFORMS_MERGEBARRIERPASS_H

#include "stinkytofu/pass/PassArguments.h"

namespace stinkytofu {

llvm::Expected<std::unique_ptr<Pass>> createStinkyMergeBarrierPass(const PassArguments &Args);

} // namespace stinkytofu

#endif
