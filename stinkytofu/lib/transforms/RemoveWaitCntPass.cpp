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

/// Whether the first instruction after \p Wait in its block that is not a
/// wait or a nop is an atomic, a barrier or a cache invalidate: LLVM's
/// memory legalizer puts the waits that order memory for other waves there
/// (a release before the atomic or barrier, the acquiring access done
/// before the invalidate), and assembly does not say which of them orders
/// what, so wait insertion could not rebuild them all.
static bool guardsMemoryOrdering(const Instruction &Wait, std::optional<CounterModel> &Model) {
  const BasicBlock *BB = Wait.parent();
  if (!BB)
    return false;
  for (auto It = std::next(Wait.getIterator()); It != BB->instructions().end(); ++It) {
    InstRole Role = HardwareModel::roleOf(It->mnemonic());
    if (!HardwareModel::waitCounters(It->mnemonic()).empty() || Role == InstRole::DepCtrWait ||
        Role == InstRole::ScalarNop)
      continue;
    if (Role == InstRole::Barrier || Role == InstRole::CacheInvalidate)
      return true;
    if (It->mcInsts().empty())
      return false;
    if (!Model)
      Model.emplace(BB->parent()->parent()->target());
    return Model->classify(It->mcInsts()[0], It->mnemonic()).Atomic;
  }
  return false;
}

Expected<std::unique_ptr<Pass>> createStinkyRemoveWaitCntPass(const PassArguments &Args) {
  bool KeepTensor = false, KeepKmcnt = false, KeepXcnt = false, All = false;
  // The reference's opt-ins: in its policy kmcnt and xcnt waits stay unless
  // named. A caller naming either speaks that policy, so the other stays.
  bool RemoveXcnt = false, RemoveKmcnt = false;
  if (Error E = parseFlagArguments(Args, {{"keepTensor", &KeepTensor},
                                          {"keepKmcnt", &KeepKmcnt},
                                          {"keepXcnt", &KeepXcnt},
                                          {"all", &All},
                                          {"removeXcnt", &RemoveXcnt},
                                          {"removeKmcnt", &RemoveKmcnt}}))
    return std::move(E);
  if (RemoveXcnt || RemoveKmcnt) {
    KeepKmcnt |= !RemoveKmcnt;
    KeepXcnt |= !RemoveXcnt;
  }
  auto Kept = [=](StringRef Counter) {
    return (Counter == "tensorcnt" && KeepTensor) || (Counter == "kmcnt" && KeepKmcnt) ||
           (Counter == "xcnt" && KeepXcnt);
  };
  // One model for the pass's run (a pass reads one module, of one target).
  auto Model = std::make_shared<std::optional<CounterModel>>();
  return createErasePass("StinkyRemoveWaitCntPass", [Kept, All, Model](const Instruction &I) {
    SmallVector<StringRef, 3> Counters = HardwareModel::waitCounters(I.mnemonic());
    return !Counters.empty() && none_of(Counters, Kept) &&
           (All || !guardsMemoryOrdering(I, *Model));
  });
}

} // namespace stinkytofu
