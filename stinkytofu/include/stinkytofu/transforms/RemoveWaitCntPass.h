//===- RemoveWaitCntPass.h - Delete the waits insertion rebuilds -*- C++ -*-===//
//
// `StinkyRemoveWaitCntPass[=keepTensor,removeXcnt,removeKmcnt]`: deletes the
// memory-counter waits that wait insertion rebuilds, by the counters each
// waits on (HardwareModel.td, CounterWait): a wait is deleted when all its
// counters are removable. dscnt, loadcnt and asynccnt always are; tensorcnt
// unless keepTensor; kmcnt only with removeKmcnt; xcnt only with
// removeXcnt. Any other counter (storecnt, samplecnt, bvhcnt, expcnt, and
// gfx9-gfx11's vmcnt, lgkmcnt, vscnt) keeps the wait: `s_waitcnt` and
// `s_waitcnt_vscnt` are never deleted, so on gfx9-gfx11 the pass changes
// nothing.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_TRANSFORMS_REMOVEWAITCNTPASS_H
#define STINKYTOFU_TRANSFORMS_REMOVEWAITCNTPASS_H

#include "stinkytofu/pass/PassArguments.h"

namespace stinkytofu {

llvm::Expected<std::unique_ptr<Pass>> createStinkyRemoveWaitCntPass(const PassArguments &Args);

} // namespace stinkytofu

#endif
