//===- RemoveWaitAluPass.h - Drop the GPR hazard waits of s_wait_alu -*- C++ -*-===//
//
// `RemoveWaitAluPass` (gfx10 and later; an error on gfx9, which has no
// depctr wait): clears the six GPR hazard fields (va_vdst, vm_vsrc, va_sdst,
// va_ssrc, va_vcc, sa_sdst) of every `s_wait_alu` / `s_waitcnt_depctr`,
// rewriting it through MC; deletes it when no field is left, keeps one that
// still waits on hold_cnt. Also deletes `s_setreg*` writes of the DEP_MODE
// bits of hwreg(HW_REG_WAVE_SCHED_MODE), the expert scheduling mode those
// waits serve. The field layout is the hardware model's (DepCtrFields,
// checked against MC by a unit test).
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_TRANSFORMS_REMOVEWAITALUPASS_H
#define STINKYTOFU_TRANSFORMS_REMOVEWAITALUPASS_H

#include "stinkytofu/pass/PassArguments.h"

namespace stinkytofu {

llvm::Expected<std::unique_ptr<Pass>> createRemoveWaitAluPass(const PassArguments &Args);

} // namespace stinkytofu

#endif
