//===- LoopLoadRotationPass.h - The next trip's loads issued in this trip -*- C++ -*-===//
//
// `LoopLoadRotationPass[=stats]`: software pipelining by one stage of the
// loads that start a divergent single-block loop (docs/scheduler.md, "Loop
// load rotation"). The loop exits through EXEC (`s_andn2_b64 exec, exec,
// s[8:9]` / `s_cbranch_execnz`); its first instructions are per-lane
// vector loads. They move to the end of the trip, after the last EXEC
// write and before the branch, where they are the next trip's loads, and
// copies of them go to the end of the preheader (the loads of trip 0). A
// trip then waits for loads issued a whole trip earlier, not a branch
// earlier. No guard is needed: after the last trip EXEC is empty, and a
// vector load with no lane active reads no memory and writes no register.
//
// The proof, checked for every rotation from the instructions before and
// after (proveLoadRotation): every path executes the original's sequence
// with the trip boundary moved (the preheader is the old one and then the
// moved loads, the body is the rest of the old body, the moved loads, the
// old branch); the body holds no directive; the moved loads are per-lane
// vector loads that write no EXEC, after the body's last EXEC write, and
// the branch is taken on a nonzero EXEC and reads nothing else, so the
// extra trip's loads run with no lane active; the preheader falls through
// into the loop and is its only entry (no instruction computes the loop
// label's address). The memory counters change (the extra loads are in
// flight at the exit): run the wait insertion after it, as -O2 and -O3 do.
//
// A loop is rotated only when its steady state (BlockCycleModel::
// estimateSecondTrip) gets faster.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_TRANSFORMS_LOOPLOADROTATIONPASS_H
#define STINKYTOFU_TRANSFORMS_LOOPLOADROTATIONPASS_H

#include "stinkytofu/ir/BasicBlock.h"
#include "stinkytofu/pass/PassArguments.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Error.h"

namespace stinkytofu {

class TargetInfo;

/// The proof of one rotation (see above): \p OldPreheader and \p OldBody
/// are the instructions of the two blocks before it, \p Preheader and
/// \p Body the blocks after it, \p AddressTaken the module's
/// addressTakenLabels (a rotation moves no label). An error names what
/// fails.
llvm::Error proveLoadRotation(llvm::ArrayRef<const Instruction *> OldPreheader,
                              llvm::ArrayRef<const Instruction *> OldBody,
                              const BasicBlock &Preheader, const BasicBlock &Body,
                              const llvm::StringSet<> &AddressTaken, const TargetInfo &TI);

llvm::Expected<std::unique_ptr<Pass>> createLoopLoadRotationPass(const PassArguments &Args);

} // namespace stinkytofu

#endif
