//===- RemoveWaitCntPass.cpp - Delete the waits insertion rebuilds --------===//
#include "stinkytofu/transforms/RemoveWaitCntPass.h"
#include "stinkytofu/hw/HardwareModel.h"
#include "stinkytofu/transforms/RewriteSupport.h"
#include "llvm/ADT/STLExtras.h"

using namespace llvm;

namespace stinkytofu {

Expected<std::unique_ptr<Pass>> createStinkyRemoveWaitCntPass(const PassArguments &Args) {
  bool KeepTensor = false, RemoveXcnt = false, RemoveKmcnt = false;
  if (Error E = parseFlagArguments(Args, {{"keepTensor", &KeepTensor},
                                          {"removeXcnt", &RemoveXcnt},
                                          {"removeKmcnt", &RemoveKmcnt}}))
    return std::move(E);
  auto Removable = [=](StringRef Counter) {
    return Counter == "dscnt" || Counter == "loadcnt" || Counter == "asynccnt" ||
           (Counter == "tensorcnt" && !KeepTensor) || (Counter == "kmcnt" && RemoveKmcnt) ||
           (Counter == "xcnt" && RemoveXcnt);
  };
  return createErasePass("StinkyRemoveWaitCntPass", [Removable](const Instruction &I) {
    SmallVector<StringRef, 3> Counters = HardwareModel::waitCounters(I.mnemonic());
    return !Counters.empty() && all_of(Counters, Removable);
  });
}

} // namespace stinkytofu
