//===- Verifier.h - Structural invariants of the Asm IR ---------*- C++ -*-===//
//
// What every pass may rely on and must leave true:
//   - every function's parent is the module, every block's parent its
//     function, every instruction's parent its block;
//   - no instruction has operands edited without new MC instructions
//     (Instruction::hasStaleMC), and every register an instruction's text
//     names is a register of its MC instruction, in order
//     (ir/OperandMapping.h);
//   - block labels are unique across the module;
//   - every branch target (getBranchTargets: LabelData, then the label
//     operand, `.set` aliases followed) is the label of a block of the
//     branch's own function; a label of another function is an error too;
//   - when a function has CFG edges: no branch or program end before the
//     last instruction of a block, every edge stays in the function,
//     predecessor lists mirror successor lists, and each block's successor
//     set is exactly what the CFG contract (CFGBuilderPass.h) gives for its
//     last instruction. A function without any edge has no CFG yet and is
//     not checked against the contract.
//
// Diagnostics point at the offending instruction (`file:line:col: error:`);
// every problem found is reported, not just the first.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_ANALYSIS_VERIFIER_H
#define STINKYTOFU_ANALYSIS_VERIFIER_H

#include "stinkytofu/ir/Module.h"
#include "llvm/Support/Error.h"

namespace stinkytofu {

/// Success, or one error listing every violation found.
llvm::Error verifyModule(const Module &M);

} // namespace stinkytofu

#endif
