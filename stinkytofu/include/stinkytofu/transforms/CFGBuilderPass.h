//===- CFGBuilderPass.h - Blocks and edges from the branch vocabulary -*- C++ -*-===//
//
// The contract (docs/asm-ir.md "Control flow", shared asm-ir-reference
// section 4; s_add_pc_i64 differs from the latter: no edge without LabelData):
//   s_branch L            -> L, no fall-through
//   s_cbranch_* L         -> L and fall-through
//   s_setpc_b64 + LabelData{X} -> X (long branch), no fall-through
//   s_setpc_b64 without   -> nothing: a return or an unknown jump
//   s_add_pc_i64 + LabelData{X} -> X (long branch), no fall-through
//   s_add_pc_i64 without  -> nothing, like s_setpc_b64 without (a label in
//                            its expression is a target only once
//                            LongBranchLoweringPass has proven it)
//   s_swappc_b64          -> fall-through only; CallTargetData is no edge
//   s_endpgm*             -> nothing
// Labels start blocks; a block also ends after every branch and program end.
// Unreachable blocks are kept (and reported by analyses), never deleted.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_TRANSFORMS_CFGBUILDERPASS_H
#define STINKYTOFU_TRANSFORMS_CFGBUILDERPASS_H

#include "stinkytofu/pass/PassArguments.h"

namespace stinkytofu {

/// Splits \p F's blocks after terminators and rebuilds every edge.
void buildCFG(Function &F);

llvm::Expected<std::unique_ptr<Pass>> createCFGBuilderPass(const PassArguments &Args);

} // namespace stinkytofu

#endif
