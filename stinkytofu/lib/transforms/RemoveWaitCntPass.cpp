//===- RemoveWaitCntPass.cpp - Delete the waits insertion rebuilds --------===//
#include "stinkytofu/transforms/RemoveWaitCntPass.h"

#include "stinkytofu/hw/WaitCounters.h"
#include "stinkytofu/ir/BasicBlock.h"
#include "stinkytofu/ir/Module.h"
#include "stinkytofu/hw/HardwareModel.h"
#include "stinkytofu/transforms/RewriteSupport.h"
#include "llvm/ADT/STLExtras.h"

using namespace llvm;

namespace stinkytofu {

/// Whether the instruction after \p Wait in its block is an atomic or a
/// barrier: LLVM's memory legalizer puts the waits that release memory to
/// other waves there, and assembly does not say which atomic or barrier
/// releases what, so wait insertion could not rebuild them all.
static bool guardsReleasePoint(const Instruction &Wait) {
  const BasicBlock *BB = Wait.parent();
  auto Next = std::next(Wait.getIterator());
  if (!BB || Next == BB->instructions().end() || Next->mcInsts().empty())
    return false;
  if (HardwareModel::roleOf(Next->mnemonic()) == InstRole::Barrier)
    return true;
  const TargetInfo &TI = BB->parent()->parent()->target();
  return CounterModel(TI).classify(Next->mcInsts()[0], Next->mnemonic()).Atomic;
}

Expected<std::unique_ptr<Pass>> createStinkyRemoveWaitCntPass(const PassArguments &Args) {
  bool KeepTensor = false, KeepKmcnt = false, KeepXcnt = false, All = false;
  // The reference's opt-ins: its insertion did not rebuild these counters;
  // ours does, so they are removed anyway.
  bool RemoveXcnt = false, RemoveKmcnt = false;
  if (Error E = parseFlagArguments(Args, {{"keepTensor", &KeepTensor},
                                          {"keepKmcnt", &KeepKmcnt},
                                          {"keepXcnt", &KeepXcnt},
                                          {"all", &All},
                                          {"removeXcnt", &RemoveXcnt},
                                          {"removeKmcnt", &RemoveKmcnt}}))
    return std::move(E);
  auto Kept = [=](StringRef Counter) {
    return (Counter == "tensorcnt" && KeepTensor) || (Counter == "kmcnt" && KeepKmcnt) ||
           (Counter == "xcnt" && KeepXcnt);
  };
  return createErasePass("StinkyRemoveWaitCntPass", [Kept, All](const Instruction &I) {
    SmallVector<StringRef, 3> Counters = HardwareModel::waitCounters(I.mnemonic());
    return !Counters.empty() && none_of(Counters, Kept) && (All || !guardsReleasePoint(I));
  });
}

} // namespace stinkytofu
