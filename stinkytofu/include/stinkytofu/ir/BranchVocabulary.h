//===- BranchVocabulary.h - The one way passes ask about control flow -*- C++ -*-===//
//
// Every pass classifies control transfers through these predicates (the role
// BOLT's MCPlusBuilder plays): flags come from LLVM MC (InstrFacts), targets
// from LabelData first, then from the label operand. Calls are not branches:
// their callees live in CallTargetData and never become CFG edges.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_IR_BRANCHVOCABULARY_H
#define STINKYTOFU_IR_BRANCHVOCABULARY_H

#include "stinkytofu/ir/Instruction.h"
#include <string>
#include <vector>

namespace stinkytofu {

/// Any branch: direct, conditional, indirect (s_setpc_b64). Not a call.
bool isBranch(const Instruction &I);
/// s_cbranch_*.
bool isConditionalBranch(const Instruction &I);
/// isBranch && !isConditionalBranch.
bool isUnconditionalBranch(const Instruction &I);
/// A branch whose target comes from a register (s_setpc_b64).
bool isIndirectBranch(const Instruction &I);
/// A branch whose target is computed at run time: from a register
/// (s_setpc_b64) or by adding an expression to the PC (gfx1250's
/// s_add_pc_i64). The long-branch forms: their target is known only through
/// LabelData, which LongBranchLoweringPass attaches once it proves it.
bool isComputedBranch(const Instruction &I);
/// The mnemonic of the conditional branch taken exactly when \p I (a
/// conditional branch) is not: scc0/scc1, vccz/vccnz, execz/execnz, the
/// predicates LLVM's SIInstrInfo reverses; "" for one without an inverse
/// (s_cbranch_cdbg*). MC has no notion of inverse conditions.
std::string invertedBranchMnemonic(const Instruction &I);
/// s_swappc_b64 and other MC calls.
bool isCall(const Instruction &I);
/// s_endpgm and its variants: the wave ends.
bool isProgramEnd(const Instruction &I);
/// Leaves the function: a program end, or (in a callable function) an
/// indirect branch without a known target: the return through the
/// return-address pair, or a tail call.
bool isReturn(const Instruction &I);
/// A return that is a tail call: an indirect branch whose CallTargetData
/// (TailCall) names the function it jumps to, which then returns to our
/// caller.
bool isTailCall(const Instruction &I);
/// A branch or a program end: the last instruction of its block, where the
/// block's edges come from (a call returns and does not end it).
bool endsBlock(const Instruction &I);
/// Branches, calls and program ends: a scheduling or region boundary.
bool isControlTransfer(const Instruction &I);

/// The labels a branch may go to (at most one), in this order: LabelData;
/// none for a computed branch without it (even when, as in
/// `s_add_pc_i64 L-.-12`, a label appears in its operand: only a proof makes
/// it a target); the label operand of a direct branch (`.set` aliases
/// followed).
std::vector<std::string> getBranchTargets(const Instruction &I);
/// The first of getBranchTargets, or "".
std::string getBranchTarget(const Instruction &I);
/// CallTargetData of a call, else none.
std::vector<std::string> getCallTargets(const Instruction &I);

} // namespace stinkytofu

#endif
