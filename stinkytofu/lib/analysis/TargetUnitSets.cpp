//===- TargetUnitSets.cpp - Register-unit sets kept per target ------------===//
#include "TargetUnitSets.h"

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

using namespace llvm;

namespace stinkytofu {

const BitVector &unitsOncePerTarget(const RegisterUnits &RU, StringRef Set,
                                    function_ref<void(BitVector &)> Fill) {
  static std::mutex Lock;
  static std::map<std::pair<const TargetInfo *, std::string>, std::unique_ptr<BitVector>> Cache;
  std::lock_guard<std::mutex> Guard(Lock);
  std::unique_ptr<BitVector> &Units = Cache[{&RU.target(), Set.str()}];
  if (!Units) {
    Units = std::make_unique<BitVector>(RU.none());
    Fill(*Units);
  }
  return *Units;
}

} // namespace stinkytofu
