//===- EpilogueStoreSinkPass.h - Stores late and in groups -------*- C++ -*-===//
//
// `EpilogueStoreSinkPass[=noStoreGroup,noGuard]` (the reference's name and
// arguments; every target). A global or buffer store issued right after
// the VALU work that produced its data makes the ALU-hazard wait before it
// drain every VALU; issued later, the wait counts fewer. In each run of
// instructions of a block (between directives), the pass
//
//  1. sinks each store, last first, past up to 10 VALU, transcendental or
//     matrix instructions (the reference's target), across anything that
//     does not access memory, is not a fence and does not write a register
//     the store reads, and across memory-counter waits of counters the
//     store does not count on; with the guard (targets with VGPR MSBs and
//     XNACK replay, unless `noGuard`) it stops before an instruction whose
//     VGPR banks differ from the store's, where a replay-safe MSB switch
//     would drain xcnt;
//  2. unless `noStoreGroup`, packs up to 4 stores together: each later
//     store moves up right behind the one before when nothing between
//     accesses memory, is a fence or a wait, or writes what it reads (so
//     one s_wait_xcnt covers a group).
//
// Every move is proven first: the schedule validator (ScheduleValidator.h)
// runs the run's order before and after, waits and nops left out as
// `--verify-schedule` does; a refused move is not made. The waits a store
// crossed are the wait verifier's at the end of the pipeline. The reference
// runs it on the producer's `globalWriteEpilogue` region under ESM2; run
// alone it covers every block, as here (use --from-label/--to-label).
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_TRANSFORMS_EPILOGUESTORESINKPASS_H
#define STINKYTOFU_TRANSFORMS_EPILOGUESTORESINKPASS_H

#include "stinkytofu/pass/PassArguments.h"

namespace stinkytofu {

llvm::Expected<std::unique_ptr<Pass>> createEpilogueStoreSinkPass(const PassArguments &Args);

} // namespace stinkytofu

#endif
