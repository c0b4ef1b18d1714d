//===- AsmMovePropagationPass.h - Block-local copy propagation ---*- C++ -*-===//
//
// `AsmMovePropagationPass`: within a block, after `v_mov_b32 vD, vS` or
// `s_mov_b32 sD, sS` (one 32-bit register to another of the same file, no
// source modifiers), a later read of D is rewritten to read S while neither
// D nor S has been written since (and, for VGPRs, EXEC has not: lanes the
// copy left inactive differ). A read is rewritten only where it is a plain
// source operand (not tied to a destination, no source modifiers, not a
// 16-bit half), not in a DPP or SDWA form or a cross-lane instruction
// (v_readlane_b32, v_permlane*, ds_bpermute_b32, ...: HardwareModel.td
// CrossLane) for VGPRs, and only when MC accepts the rewritten instruction
// (InstBuilder re-assembles it). Then identity copies (`v_mov_b32 v1, v1`)
// are deleted, and copies whose destination the block writes again before
// any read. A directive, a call, a macro invocation or an opaque statement
// forgets every copy.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_TRANSFORMS_ASMMOVEPROPAGATIONPASS_H
#define STINKYTOFU_TRANSFORMS_ASMMOVEPROPAGATIONPASS_H

#include "stinkytofu/pass/PassArguments.h"

namespace stinkytofu {

llvm::Expected<std::unique_ptr<Pass>> createAsmMovePropagationPass(const PassArguments &Args);

} // namespace stinkytofu

#endif
