//===- LongBranchLoweringPass.h - Targets of long branches ------*- C++ -*-===//
//
// Metadata only: attaches LabelData{target} to every `s_setpc_b64` /
// `s_set_pc_i64` whose target it proves from the register chain feeding it,
// and to `s_add_pc_i64 L-.-12` / `s_add_pc_i64 L-.Lpost_addpcN` (the label
// alone). The proof (analysis/AddressChains.h) follows reaching definitions
// across blocks and never guesses: an incomplete or ambiguous chain leaves
// the branch unannotated. Existing LabelData is kept; running twice changes
// nothing; the emitted assembly is unchanged. The CFG is rebuilt at the end.
//
// Proofs are made on the CFG as it grows: each round annotates what it can
// prove and rebuilds the CFG; a final round re-proves every annotation on
// the final CFG and drops (then re-checks) any that no longer holds.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_TRANSFORMS_LONGBRANCHLOWERINGPASS_H
#define STINKYTOFU_TRANSFORMS_LONGBRANCHLOWERINGPASS_H

#include "stinkytofu/pass/PassArguments.h"

namespace stinkytofu {

struct LongBranchStats {
  /// Computed-target branches without LabelData before the pass.
  unsigned Unannotated = 0;
  /// Of those, the ones the pass annotated.
  unsigned Resolved = 0;
};

/// Runs the lowering over every function of \p M (or the instructions in
/// \p Scope only) and rebuilds each function's CFG.
LongBranchStats lowerLongBranches(Module &M, const PassScope &Scope = {});

llvm::Expected<std::unique_ptr<Pass>> createLongBranchLoweringPass(const PassArguments &Args);

} // namespace stinkytofu

#endif
