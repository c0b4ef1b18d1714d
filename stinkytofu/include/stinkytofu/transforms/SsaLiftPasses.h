//===- SsaLiftPasses.h - The reference's SSA lift, as an analysis -*- C++ -*-===//
//
// The reference lifts physical registers into SSA values attached to its IR
// (`LiftAsmRegistersToSSAPass`) for its register allocator, and drops its
// def-use chains and PHIs before (`RemoveDefUseAnalysisPass`). Here the
// values are an analysis (analysis/RegisterWebs.h: one web per value) that
// RegisterAllocationPass builds itself, so nothing is attached and the
// passes keep their names and arguments for the reference's command lines:
//   - `LiftAsmRegistersToSSAPass[=classes=vs,strictLiveIns,noVerify]` builds
//     the webs of each function (the CFG is built where it is not valid)
//     and prints one line per function on the statistics stream: how many
//     values it lifted and how many come from outside (live-ins). With
//     `strictLiveIns` a function with a live-in read is reported as not
//     lifted (the reference's refusal, a remark, not an error). A register
//     at a run-time index is reported as not lifted. `noVerify` is accepted
//     (the webs need no separate verification).
//   - `RemoveDefUseAnalysisPass` (no arguments) changes nothing: there are
//     no attached chains to drop.
//   - `TieExecMaskedWritesPass` (no arguments) changes nothing either: the
//     reference makes a VGPR written under a narrowed EXEC a source of its
//     own write so its allocator keeps the other lanes; the webs already
//     continue the old value there. It prints, per function, the lines of
//     the vector writes so tied (RegisterWebs::laneKeepingWrites).
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_TRANSFORMS_SSALIFTPASSES_H
#define STINKYTOFU_TRANSFORMS_SSALIFTPASSES_H

#include "stinkytofu/pass/PassArguments.h"

namespace stinkytofu {

llvm::Expected<std::unique_ptr<Pass>> createLiftAsmRegistersToSSAPass(const PassArguments &Args);
llvm::Expected<std::unique_ptr<Pass>> createRemoveDefUseAnalysisPass(const PassArguments &Args);
llvm::Expected<std::unique_ptr<Pass>> createTieExecMaskedWritesPass(const PassArguments &Args);

} // namespace stinkytofu

#endif
