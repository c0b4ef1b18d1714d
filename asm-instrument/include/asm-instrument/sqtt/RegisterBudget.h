//===- RegisterBudget.h - SGPRs the inserted code may take -------*- C++ -*-===//
//
// Scratch SGPRs come first from the registers a function already has:
// s0 .. s[Budget-1], Budget being the kernel descriptor's
// `.amdhsa_next_free_sgpr` (at least one past the highest SGPR the code
// names). When none of them is dead at a point, a kernel whose descriptor
// gives the count as a number may grow: the pass then takes SGPRs above it,
// up to the target's SGPR limit, and raises `.amdhsa_next_free_sgpr` and the
// metadata's `.sgpr_count` of that kernel by the same amount. A callable
// function cannot grow (its callers' descriptors count its registers).
// A kernel's VGPRs grow the same way, by one, for lanes to park SGPRs in
// where none of its own VGPRs is free in every lane.
//
//===----------------------------------------------------------------------===//
#ifndef ASM_INSTRUMENT_SQTT_REGISTERBUDGET_H
#define ASM_INSTRUMENT_SQTT_REGISTERBUDGET_H

#include "stinkytofu/ir/Module.h"
#include "llvm/Support/Error.h"
#include <optional>

namespace stinkytofu::sqtt {

struct SGPRBudget {
  /// s0 .. s[Budget-1] are the function's own.
  unsigned Budget = 0;
  /// Scratch registers may go up to s[Limit-1] (Limit > Budget only for a
  /// kernel that can grow).
  unsigned Limit = 0;
};

/// The budget of \p F (\p AllowGrowth: kernels may take SGPRs above it).
SGPRBudget sgprBudget(const Function &F, bool AllowGrowth);

/// The number after `.amdhsa_next_free_sgpr` in kernel \p Name's
/// descriptor, when it is a plain number.
std::optional<unsigned> kernelNextFreeSGPR(const Module &M, llvm::StringRef Name);

/// Raises kernel \p Name's `.amdhsa_next_free_sgpr` to \p NewCount and its
/// metadata `.sgpr_count` by the same amount. An error when the descriptor
/// or the metadata entry cannot be found or does not hold a number.
llvm::Error growKernelSGPRs(Module &M, llvm::StringRef Name, unsigned NewCount);

/// The index of a VGPR that kernel \p F may take above all it and its
/// callees use, to park SGPRs in its lanes (SgprSpill.h): N for a
/// descriptor that states `.amdhsa_next_free_vgpr N` as a number below 256.
/// With `.amdhsa_accum_offset` (gfx90a and later: the AGPRs follow the
/// VGPRs in one file) only when no AGPR is allocated, N >= accum_offset.
/// \p NamedVGPRs: namedVGPRCount(F) (RegisterUsage.h), which the caller has
/// counted already (a walk of every instruction).
std::optional<unsigned> growableVGPR(const Function &F, unsigned NamedVGPRs);
/// Raises kernel \p Name's `.amdhsa_next_free_vgpr` to \p NewCount (and its
/// `.amdhsa_accum_offset` to cover it, a multiple of 4) and its metadata
/// `.vgpr_count` by the same amount.
llvm::Error growKernelVGPRs(Module &M, llvm::StringRef Name, unsigned NewCount);

} // namespace stinkytofu::sqtt

#endif
