//===- DeadCodeEliminationPass.h - Delete instructions nobody reads -*- C++ -*-===//
//
// `DeadCodeEliminationPass`: deletes the instructions whose every write is
// dead, on the Liveness analysis (the CFG is built first where it is not
// valid). Only an instruction without effects besides its register writes
// qualifies: no memory access, branch, call, return, program end or side
// effect in LLVM's description (of the pseudo-instruction behind MC's real
// opcode, RewriteSupport.h hasSideEffects), not opaque, not a macro invocation, and at least one def. A write
// of a scalar register (SGPR, SCC, VCC, EXEC, M0, ...) is dead when no unit
// of it is live after the instruction. A VGPR or AGPR write is dead only when
// the same block writes the whole register again before any read, with no
// EXEC write in between and by an instruction that writes every lane it
// leaves as it was (not SDWA or DPP, whose writes may be partial): Liveness
// counts an EXEC-masked VALU write as a full def, which is not a proof that
// the inactive lanes are not read later. Repeats until nothing changes.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_TRANSFORMS_DEADCODEELIMINATIONPASS_H
#define STINKYTOFU_TRANSFORMS_DEADCODEELIMINATIONPASS_H

#include "stinkytofu/pass/PassArguments.h"

namespace stinkytofu {

class TargetInfo;

llvm::Expected<std::unique_ptr<Pass>> createDeadCodeEliminationPass(const PassArguments &Args);

/// True when \p I has no effect besides writing its registers (the first
/// condition above); shared by the passes that delete or merge such
/// instructions.
bool onlyWritesRegisters(const TargetInfo &TI, const Instruction &I);

} // namespace stinkytofu

#endif
