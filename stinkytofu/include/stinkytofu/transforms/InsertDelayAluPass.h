//===- InsertDelayAluPass.h - Insert the s_delay_alu LLVM would ---*- C++ -*-===//
//
// `InsertDelayAluPass` (gfx11, gfx12, gfx1250; nothing on older targets):
// runs DelayAluAnalysis (analysis/DelayAluAnalysis.h) over every function,
// building its CFG if needed, and puts an `s_delay_alu` right before each
// ALU instruction whose delay the code's s_delay_alu instructions do not
// already ask for. As LLVM's AMDGPUInsertDelayAlu does, a single delay goes
// into the free `instid1` of the previous s_delay_alu of the block when
// fewer than 6 instructions lie between them (`instskip`), never across an
// `s_set_vgpr_msb`, and never into one of the input's: those stay byte for
// byte, so the repair after a pass that inserted code only adds s_delay_alu.
// Each new or edited s_delay_alu carries `mod.delayalu`.
// A second run adds nothing; `RemoveDelayAluPass` first recomputes them all.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_TRANSFORMS_INSERTDELAYALUPASS_H
#define STINKYTOFU_TRANSFORMS_INSERTDELAYALUPASS_H

#include "stinkytofu/pass/PassArguments.h"

namespace stinkytofu {

llvm::Expected<std::unique_ptr<Pass>> createInsertDelayAluPass(const PassArguments &Args);

} // namespace stinkytofu

#endif
