//===- RemoveWaitCntPass.h - Delete the waits insertion rebuilds -*- C++ -*-===//
//
// `StinkyRemoveWaitCntPass[=keepTensor,keepKmcnt,keepXcnt,all]`: deletes the
// memory-counter waits (HardwareModel.td, CounterWait: `s_waitcnt`,
// `s_waitcnt_vscnt`, the gfx12 `s_wait_*cnt*` forms), which
// StinkyWaitCntInsertionPass rebuilds on every target; a wait on tensorcnt,
// kmcnt or xcnt stays with the matching keep flag. The waits in front of an
// atomic, a barrier or a cache invalidate (only other waits, s_wait_alu or
// s_nop between) stay unless `all` is given: they may order memory for
// other waves (LLVM's memory legalizer puts them there), which no register
// dependence shows and insertion cannot rebuild. The reference's
// `removeXcnt` and `removeKmcnt` select its policy, where kmcnt and xcnt
// waits stay unless named: given one, the other counter's waits stay.
// `s_waitcnt_depctr`/`s_wait_alu` are ALU waits and stay.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_TRANSFORMS_REMOVEWAITCNTPASS_H
#define STINKYTOFU_TRANSFORMS_REMOVEWAITCNTPASS_H

#include "stinkytofu/pass/PassArguments.h"

namespace stinkytofu {

llvm::Expected<std::unique_ptr<Pass>> createStinkyRemoveWaitCntPass(const PassArguments &Args);

} // namespace stinkytofu

#endif
