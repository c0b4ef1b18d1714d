//===- SwInstructionPrefetchPass.h - s_prefetch_inst_pc_rel on a grid -*- C++ -*-===//
//
// Software instruction prefetch for kernels longer than what the CP fetches
// at launch (the first `.amdhsa_inst_pref_size` lines, at most 255 lines of
// 128 bytes from gfx12: hw/InstructionPrefetch.h). Past that window the
// passes insert `s_prefetch_inst_pc_rel 0x0, null, 31`, which fetches the
// 32 lines (4 KiB) from its own address on, on a grid of byte offsets from
// the kernel's symbol: P(k) = window + k * 4096 (32640 + 4096k on gfx12 and
// gfx1250, the reference's grid). Offsets come from LLVM MC's encoding of
// every instruction and directive (InstructionSizes.h, BranchRange.h's
// directiveBytes), alignment padding exact from the kernel's 256-byte
// aligned entry, and include the prefetches already placed.
//
// `SwInstructionPrefetchRelStaticPass` walks the kernel in layout order and
// places one prefetch for each P(k) before the first instruction whose
// encoding reaches P(k) (the instruction holding byte P(k)-1, or the next
// one when P(k) falls in padding): straight-line position.
//
// `SwInstructionPrefetchRelDynamicPass` follows the paths instead (the
// reference's two phases): each block's entry distance is the longest
// forward path to it, counted in bytes past the window (back edges and
// other retreating edges of a depth-first walk ignored); a block's
// instructions are placed on that path position once the block itself has
// bytes past the window (layout position before), and a grid point is
// placed before the instruction whose path span (start, end] holds it. A
// point left between the path's end and the block's layout end gets one
// prefetch at the block's end, before its branch. Every block restarts at
// the first grid point past its start, so two arms of a branch may each
// get the same point.
//
// Neither places code between an `s_getpc_b64` / `s_get_pc_i64`
// (HardwareModel.td role ProgramCounterRead) and the last following
// instruction whose encoding depends on its distance from it: an
// instruction with an expression operand that is not an absolute value
// (`sym@rel32@lo+4`, `label-.`, `.Lpost_getpc` differences), not a branch,
// found while the value read from the PC (or one computed from it) is still
// live, up to the next branch. A grid point inside such a window is placed
// before the `s_getpc` (the reference protects a fixed five instructions;
// this follows the data flow, docs/passes.md).
//
// Where LLVM MC has the xcnt counter (gfx1250), a prefetch placed right
// after a scalar or vector memory instruction gets `s_wait_xcnt 0` in front:
// it must not issue while that instruction's translation may still fault
// (Gfx1250HazardPass's rule), and the wait's bytes are counted.
//
// Entry functions (kernels) only: the CP window counts from the kernel's
// entry, and a callable function's offset in it is not known. A grid point
// whose place lies outside the pass scope gets no prefetch. A target
// without `s_prefetch_inst_pc_rel` in LLVM MC is an error naming the pass
// (before gfx12). A statement of unknown size (one MC cannot encode, data
// with a symbolic count) makes the offsets unknown: an error at it.
// Branches the inserted bytes push out of range are not relaxed here: run
// BranchRelaxation after (each prefetch is 8 bytes every 4 KiB).
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_TRANSFORMS_SWINSTRUCTIONPREFETCHPASS_H
#define STINKYTOFU_TRANSFORMS_SWINSTRUCTIONPREFETCHPASS_H

#include "stinkytofu/pass/PassArguments.h"

namespace stinkytofu {

llvm::Expected<std::unique_ptr<Pass>>
createSwInstructionPrefetchRelStaticPass(const PassArguments &Args);
llvm::Expected<std::unique_ptr<Pass>>
createSwInstructionPrefetchRelDynamicPass(const PassArguments &Args);

} // namespace stinkytofu

#endif
