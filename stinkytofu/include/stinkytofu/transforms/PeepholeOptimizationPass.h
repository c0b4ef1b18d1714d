//===- PeepholeOptimizationPass.h - Provable local rewrites ------*- C++ -*-===//
//
// `PeepholeOptimizationPass`: replaces an integer VALU operation with its
// identity element by a copy: `v_add_u32 vD, 0, x` (and x + 0), x - 0,
// x | 0, x ^ 0, x & -1, and shifts by 0 (v_lshlrev_b32, v_lshrrev_b32,
// v_ashrrev_i32, v_sub*/v_subrev* in the right order) become
// `v_mov_b32 vD, x` (lib/transforms/PeepholePatterns.def). Only the plain
// form qualifies: exactly a destination and two sources, no modifier (clamp,
// DPP, SDWA, op_sel), no source modifiers, no true16 half; `_e32`/`_e64`
// spellings count. The copy is assembled by MC in the module's context (x
// keeps its spelling, symbols included), takes the original's place,
// comments and trailing comment, and is used only when MC accepts it.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_TRANSFORMS_PEEPHOLEOPTIMIZATIONPASS_H
#define STINKYTOFU_TRANSFORMS_PEEPHOLEOPTIMIZATIONPASS_H

#include "stinkytofu/pass/PassArguments.h"

namespace stinkytofu {

llvm::Expected<std::unique_ptr<Pass>> createPeepholeOptimizationPass(const PassArguments &Args);

} // namespace stinkytofu

#endif
