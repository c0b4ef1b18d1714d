//===- HazardPasses.h - Verify and insert hazard wait states ----*- C++ -*-===//
//
// The wait-state rules of hw/HazardRules.td (analysis/HazardAnalysis.h;
// docs/hazards.md):
//
// `HazardVerifier` (`stinkytofu-opt --verify-hazards`): every instruction
// short of a rule's wait states is an error at its line and column naming
// the rule, the producer and the states missing; the ALU dependency checks
// (s_wait_alu / s_waitcnt_depctr, s_delay_alu) report through it as well.
//
// `HazardRecognizerPass`: puts the fewest nops in front of every
// instruction that lacks them, as LLVM's hazard recognizer does: `v_nop`s
// for the rules counted in VALUs, then `s_nop`s of at most 8 wait states
// each. A second run adds nothing.
//
// `InsertCoexecHazardPass` (the reference's name): the same for the rules
// counted in VALUs only (WMMA and gfx1250 co-execution), v_nop alone.
//
// StinkyRemoveNopPass (transforms/RemoveInstructionPass.h) is the inverse.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_TRANSFORMS_HAZARDPASSES_H
#define STINKYTOFU_TRANSFORMS_HAZARDPASSES_H

#include "stinkytofu/pass/PassArguments.h"

namespace stinkytofu {

llvm::Expected<std::unique_ptr<Pass>> createHazardVerifierPass(const PassArguments &Args);
llvm::Expected<std::unique_ptr<Pass>> createHazardRecognizerPass(const PassArguments &Args);
llvm::Expected<std::unique_ptr<Pass>> createInsertCoexecHazardPass(const PassArguments &Args);

} // namespace stinkytofu

#endif
