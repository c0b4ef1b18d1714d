//===- RemoveDscntPass.h - Delete provably redundant s_wait_dscnt -*- C++ -*-===//
//
// `RemoveDscntPass`: deletes an `s_wait_dscnt N` that cannot make the wave
// wait. Within a block, after a wait that leaves at most W DS operations
// outstanding (s_wait_dscnt W, or the dscnt part of s_wait_loadcnt_dscnt /
// s_wait_storecnt_dscnt), and K instructions that may count on dscnt since
// (any memory access other than a scalar one: DS, FLAT, and, to stay on the
// safe side, every other vector memory access), at most W + K are
// outstanding (the combined s_wait_loadcnt_dscnt / s_wait_storecnt_dscnt,
// which MC reads only as raw immediates, lower the count and keep the
// bound); a later `s_wait_dscnt N` with N >= W + K is redundant. A
// call, a macro invocation, an opaque statement or a directive forgets what
// is known; nothing is known at a block's start. The reference's pass is a
// cycle-model heuristic that also removes waits it only estimates to be
// satisfied; this one deletes a wait only when that is a proof. Targets
// without s_wait_dscnt (gfx9-gfx11) have nothing to remove.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_TRANSFORMS_REMOVEDSCNTPASS_H
#define STINKYTOFU_TRANSFORMS_REMOVEDSCNTPASS_H

#include "stinkytofu/pass/PassArguments.h"

namespace stinkytofu {

llvm::Expected<std::unique_ptr<Pass>> createRemoveDscntPass(const PassArguments &Args);

} // namespace stinkytofu

#endif
