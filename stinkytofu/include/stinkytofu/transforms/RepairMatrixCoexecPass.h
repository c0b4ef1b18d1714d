//===- RepairMatrixCoexecPass.h - ALU work out of the way of matrix ops -*- C++ -*-===//
//
// `RepairMatrixCoexecPass[=debug]` (the reference's name; `--debug-pass
// RepairMatrixCoexecPass` gives `debug`). For processors whose matrix
// instructions run on their own pipe beside the VALU (gfx1250: the hardware
// model's DelayAluMatrixIsTrans); an error naming the pass elsewhere.
//
// After the waits are inserted, a matrix instruction often has more work in
// front of it than the shadow of the matrix instruction before it can hide,
// and a matrix instruction that reads the previous one's result as A or B
// gets v_nop padding where nothing else is. Per scheduling region the pass
// (docs/passes.md, "RepairMatrixCoexecPass"):
//
//   - hoists VALU work that follows a dependent pair in front of its second
//     matrix instruction, up to the VALUs the hazard rule wants there (it
//     replaces v_nops), when that window is empty (so nothing crosses a
//     wait) and the VALU touches neither matrix instruction's registers;
//   - defers, from a window whose work (issue cycles, the waits in front of
//     the next matrix instruction and the s_set_vgpr_msb switches
//     InsertVgprMsbPass will add) exceeds its room (the matrix pipe's
//     cycles after the opening instruction's issue), the last ALU
//     instructions to right behind the closing matrix instruction, as far
//     as the next window has room, in their order.
//
// Matrix, memory, wait and every other instruction that is not plain SALU
// or VALU work stays where it is; waits stay with their matrix instruction
// with their counts (a moved instruction starts no memory operation), and
// windows with hazard waits are left alone. Each move is proven by the
// schedule validator (analysis/ScheduleValidator.h) before it is made, and
// a window whose moves make the code around it lack more hazard wait states
// or VALUs (HazardAnalysis) goes back to its order. VGPRs 256 and up are
// repaired as the registers they are (withLogicalVgprs).
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_TRANSFORMS_REPAIRMATRIXCOEXECPASS_H
#define STINKYTOFU_TRANSFORMS_REPAIRMATRIXCOEXECPASS_H

#include "stinkytofu/pass/PassArguments.h"

namespace stinkytofu {

llvm::Expected<std::unique_ptr<Pass>> createRepairMatrixCoexecPass(const PassArguments &Args);

} // namespace stinkytofu

#endif
