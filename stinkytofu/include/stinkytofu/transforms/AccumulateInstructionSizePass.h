//===- AccumulateInstructionSizePass.h - Code bytes per kernel ---*- C++ -*-===//
//
// `AccumulateInstructionSizePass` measures each function's code: every
// instruction at the bytes LLVM MC's code emitter encodes it to (literals,
// 64-bit encodings and macro expansions included, InstructionSizes.h), every
// directive at the bytes it emits, alignment (`.p2align`, `.balign`,
// `.align`) padded exactly from the running offset (BranchRange.h's
// directiveBytes). Offsets count from the function's symbol, which the
// kernel ABI aligns to 256 bytes, so padding up to that alignment is the
// padding the assembler writes.
//
// On gfx11 and later, a kernel's descriptor gets `.amdhsa_inst_pref_size`
// (the 128-byte instruction cache lines the wave prefetches at launch) set
// to the lines its code spans, at most the field's width (6 bits on gfx11,
// 8 from gfx12: LLVM's AMDHSAKernelDescriptor.h), the way LLVM's AMDGPU
// backend sets it; the directive is added when the descriptor lacks it.
// Before gfx11 the field does not exist and the pass only measures.
//
// `AccumulateInstructionSizeDebugPass` does the same and prints, on the
// statistics stream, every label, directive and instruction with its
// offset and size. Both print one summary line per function there.
//
// A statement MC cannot encode (kept by --allow-unknown-instructions) or a
// pseudo-instruction not yet lowered has no size: an error naming it.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_TRANSFORMS_ACCUMULATEINSTRUCTIONSIZEPASS_H
#define STINKYTOFU_TRANSFORMS_ACCUMULATEINSTRUCTIONSIZEPASS_H

#include "stinkytofu/pass/PassArguments.h"

namespace stinkytofu {

llvm::Expected<std::unique_ptr<Pass>>
createAccumulateInstructionSizePass(const PassArguments &Args);
llvm::Expected<std::unique_ptr<Pass>>
createAccumulateInstructionSizeDebugPass(const PassArguments &Args);

} // namespace stinkytofu

#endif
