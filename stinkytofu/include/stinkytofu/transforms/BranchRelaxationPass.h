//===- BranchRelaxationPass.h - Short branches out of range become long -*- C++ -*-===//
//
// `s_branch` and `s_cbranch_*` reach -32768..32767 dwords (BranchRange.h).
// A short branch whose target lies farther becomes a long branch, the way
// LLVM's BranchRelaxation does it with SIInstrInfo::insertIndirectBranch:
//
//   s_cbranch_scc0 .Lfar          s_cbranch_scc1 .Lrelax_skipN    (inverted)
//                           =>    s_getpc_b64 s[P:P+1]
//                                 .Lpost_getpcN:
//                                 s_add_u32 sP, sP, (.Lfar-.Lpost_getpcN)&4294967295
//                                 s_addc_u32 sP+1, sP+1, (.Lfar-.Lpost_getpcN)>>32
//                                 s_setpc_b64 s[P:P+1]            (LabelData .Lfar)
//                                 .Lrelax_skipN:
//
// An `s_branch` loses the inverted branch and the skip label. Where MC
// assembles `s_add_pc_i64` (gfx1250) the jump is
// `s_add_pc_i64 .Lfar-.Lpost_addpcN` followed by `.Lpost_addpcN:`, which
// needs no register. Where MC has `s_wait_alu` (gfx12) the SALU writes of
// the pair are waited for before it is read (`s_wait_alu
// depctr_sa_sdst(0)` after the label and before `s_setpc_b64`), as in what
// LLVM emits there.
//
// The sequence writes its pair and SCC on the way to the target only: they
// must be dead there (Liveness: the target block's live-in). The pair is the
// lowest aligned one among the SGPRs the function already names, so no
// register budget grows; a branch without one, a condition without an
// inverse (s_cbranch_cdbg*) or a branch inside a macro expansion is an error
// naming the branch (file:line:col).
//
// Relaxing grows the code, which can push other branches out: the pass
// measures again and repeats until every short branch reaches. Branches in
// range and everything else are left as they are (byte-identical output).
// The CFG is rebuilt.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_TRANSFORMS_BRANCHRELAXATIONPASS_H
#define STINKYTOFU_TRANSFORMS_BRANCHRELAXATIONPASS_H

#include "stinkytofu/pass/PassArguments.h"

namespace stinkytofu {

class InstBuilder;

/// Relaxes the short branches of \p F (those in \p Scope) that are out of
/// range, until all reach; returns how many became long branches.
llvm::Expected<unsigned> relaxBranches(Function &F, InstBuilder &B, AnalysisManager &AM,
                                       const PassScope &Scope = {});

llvm::Expected<std::unique_ptr<Pass>> createBranchRelaxationPass(const PassArguments &Args);

} // namespace stinkytofu

#endif
