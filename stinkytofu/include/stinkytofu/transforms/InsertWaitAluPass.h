//===- InsertWaitAluPass.h - Insert the ALU dependency waits ----*- C++ -*-===//
//
// `InsertWaitAluPass`: puts, right before every instruction that needs one
// (analysis/DepCtrHazards.h), the depctr wait LLVM would have put there:
// `s_wait_alu depctr_sa_sdst(0)` on gfx12+, `s_waitcnt_depctr ...` on
// earlier targets, built and printed by MC; `mod.waitalu` is filled in. A
// depctr wait standing right before the instruction (an s_delay_alu may lie
// between) takes the new fields instead, as LLVM merges them. On a target
// without a modelled rule it does nothing. A second run adds nothing;
// RemoveWaitAluPass is its inverse.
//
// This follows LLVM (AMDGPUWaitSGPRHazards), not the reference's
// InsertWaitAluPass, which schedules va_vdst/vm_vsrc waits for gfx1250's
// expert scheduling mode (docs/hazards.md).
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_TRANSFORMS_INSERTWAITALUPASS_H
#define STINKYTOFU_TRANSFORMS_INSERTWAITALUPASS_H

#include "stinkytofu/pass/PassArguments.h"

namespace stinkytofu {

llvm::Expected<std::unique_ptr<Pass>> createInsertWaitAluPass(const PassArguments &Args);

} // namespace stinkytofu

#endif
