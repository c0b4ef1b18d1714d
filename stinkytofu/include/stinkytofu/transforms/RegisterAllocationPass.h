//===- RegisterAllocationPass.h - Renumber a kernel's registers --*- C++ -*-===//
//
// `RegisterAllocationPass[=allocator=greedy,classes=v,apply,report,pinReg=s0:3,
// emitSymbolBreadcrumbs,noVerify]` (the reference's name and arguments):
// gives every web (analysis/RegisterWebs.h: a value of a register) of a
// kernel's VGPRs, SGPRs or AGPRs (`classes=`: letters v, s, a; default v) the
// lowest register first-fit finds, in the order the webs first occur, so
// that the kernel names the fewest registers its liveness needs. A web
// that comes from outside (the descriptor's kernarg and dispatch SGPRs, the
// work-item IDs, any register read before written), one an irregular
// instruction touches (a call's, a branch's) and the registers of `pinReg=`
// keep their register; registers an irregular instruction touches are
// given to no other web. Tuples move whole and keep their alignment (SGPR
// pairs even, larger SGPR tuples at a multiple of 4, VGPR/AGPR tuples even).
//
// Without `apply` the pass only reports (the reference's shadow colouring).
// With it, a file whose count goes down is rewritten (a file that would
// not shrink is left as it is, so a kernel LLVM allocated tightly stays
// byte for byte): operands are respelled with their new registers (a
// symbolic `v[vgprX+1]` becomes numeric when it moves; `.set` values are
// not rewritten) and re-assembled by MC, then the renaming validator builds
// the webs of the result again and requires the same webs at every operand
// (every instruction reads the renamed values of what it read before) and
// pinned webs in their registers (`noVerify`: not checked). The
// descriptor's `.amdhsa_next_free_vgpr`, `.amdhsa_next_free_sgpr` and
// `.amdhsa_accum_offset` and the metadata's `.vgpr_count`, `.sgpr_count`,
// `.agpr_count` go down by what was saved (never below what the descriptor
// sets up). One line per kernel on the statistics stream gives the
// registers and the occupancy (hw/Occupancy.h) before and after, or why the
// kernel was left unchanged: not a kernel, a register at a run-time index,
// a validator finding, MC refusing an operand.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_TRANSFORMS_REGISTERALLOCATIONPASS_H
#define STINKYTOFU_TRANSFORMS_REGISTERALLOCATIONPASS_H

#include "stinkytofu/analysis/RegisterWebs.h"
#include "stinkytofu/pass/PassArguments.h"

namespace stinkytofu {

/// `classes=vs`: the files named (v VGPRs, s SGPRs, a AGPRs); an error for
/// another letter or an empty list.
llvm::Expected<WebFiles> parseRegisterClasses(llvm::StringRef Text);

llvm::Expected<std::unique_ptr<Pass>> createRegisterAllocationPass(const PassArguments &Args);

} // namespace stinkytofu

#endif
