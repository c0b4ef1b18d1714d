//===- TDMLoadWaveSyncPass.h - Barriers between tensor-load groups -*- C++ -*-===//
//
// `TDMLoadWaveSyncPass[=NumWaves=N]` (the reference's name; `--NumWaves=N`
// reaches it). With several waves per workgroup the tensor loads of all of
// them share one queue: a wave that runs ahead and issues loads nobody waits
// for yet delays the loads another wave is about to wait for. Each
// tensor-counter wait that names the tokens it drains (`mod.memtoken`, as the
// reference's wait insertion writes them) splits the tensor loads before it
// into urgent ones (a token it drains) and deferrable ones (none). Walking
// back from the wait along every CFG path (a worklist over predecessors,
// loops included), where a deferrable run follows an urgent load the pass
// puts a workgroup barrier, `s_barrier_signal -1` / `s_barrier_wait -1`,
// before the run's first load, unless every path already has a barrier
// between them (that barrier's comment is tagged instead). The barrier
// carries the tokens of both groups (`mod.memtoken`, as the reference's) and
// `mod.wave_sync = { tokens = [...] }`: it orders issue only and publishes
// no LDS work still in flight, which is what lets the wait verifier accept
// it with the urgent loads pending (docs/waitcnt.md). A wait draining a
// token of the same set ends a path; waits without tokens are ignored.
// Nothing with one wave (NumWaves=1, the default).
//
// Targets with tensor loads and split barriers (gfx1250); an error naming
// the pass elsewhere.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_TRANSFORMS_TDMLOADWAVESYNCPASS_H
#define STINKYTOFU_TRANSFORMS_TDMLOADWAVESYNCPASS_H

#include "stinkytofu/pass/PassArguments.h"

namespace stinkytofu {

llvm::Expected<std::unique_ptr<Pass>> createTDMLoadWaveSyncPass(const PassArguments &Args);

} // namespace stinkytofu

#endif
