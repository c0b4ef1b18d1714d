//===- CallTargetRecoveryPass.h - Callees of s_swappc_b64 from raw .s -*- C++ -*-===//
//
// Recovers call targets from assembly text. For every call (`s_swappc_b64`,
// `s_swap_pc_i64`) without CallTargetData it proves, from the register
// chain feeding the call's address pair (analysis/AddressChains.h), which
// labels the pair can hold: rocisa's SGetPositivePCOffset
//
//   s_getpc_b64 s[X:X+1]; s_add_i32 sY, label_Activation_..., 4
//   s_add_u32 sX, sX, sY; s_addc_u32 sX+1, sX+1, 0
//
// in the same block or in blocks that reach the call (the ActivationType=all
// dispatch: one `label_To_Activation_*` block per activation, each ending in
// `s_branch label_ActivationSetPCAddrEnd`; the call then gets every possible
// callee), and LLVM's call sequences: `F@rel32@lo+A` / `F@rel32@hi+B` after
// `s_getpc_b64` (gfx9-gfx12; gfx12 sign-extends the high half and puts
// waits in between), `s_get_pc_i64` + `s_add_nc_u64 ..., F@rel64+A`
// (gfx1250), the address possibly kept in VGPR lanes across an earlier call
// (-O0). It attaches CallTargetData{callees} (deduplicated, first-seen
// order), never guessing.
//
// Each callee label then becomes a callable function: the callee's block and
// the blocks after it (to the next function start) are split off into a new
// non-entry Function placed right after the one it came from. The split is
// skipped when a CFG edge would cross it (code reaching the callee other than
// by a call). CallTargetData never becomes a CFG edge.
//
// Tail calls are proven the same way: an `s_setpc_b64` (`s_set_pc_i64`)
// leaving a callable function whose pair holds another function's address
// (`F@rel32@lo`/`@hi`, `F@rel64`) gets CallTargetData{callees, tail}: the
// call graph has the edge, liveness at the jump is the callee's reads and
// what our caller reads after our return (Liveness.h), and the callee
// becomes a function like any other.
//
// A call whose chain crosses an earlier call is proven once that call's
// callees are known functions of the module that do not write the pair;
// rounds repeat until nothing changes. Run LongBranchLoweringPass first: the
// proofs need the long-branch edges.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_TRANSFORMS_CALLTARGETRECOVERYPASS_H
#define STINKYTOFU_TRANSFORMS_CALLTARGETRECOVERYPASS_H

#include "stinkytofu/pass/PassArguments.h"

namespace stinkytofu {

struct CallTargetStats {
  /// Calls without CallTargetData before the pass.
  unsigned Unannotated = 0;
  /// Of those, the ones the pass annotated.
  unsigned Resolved = 0;
  /// Callee labels split off into functions.
  unsigned FunctionsCreated = 0;
  /// Tail calls annotated (not counted in Unannotated or Resolved).
  unsigned TailCalls = 0;
};

/// Runs the recovery over \p M (calls in \p Scope only) and rebuilds the CFG
/// of every function.
CallTargetStats recoverCallTargets(Module &M, const PassScope &Scope = {});

llvm::Expected<std::unique_ptr<Pass>> createCallTargetRecoveryPass(const PassArguments &Args);

} // namespace stinkytofu

#endif
