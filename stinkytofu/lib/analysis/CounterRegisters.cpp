//===- CounterRegisters.cpp - Registers MC gives a wait counter -----------===//
#include "CounterRegisters.h"
#include "stinkytofu/hw/TargetInfo.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/MC/MCRegisterInfo.h"

#include <memory>
#include <mutex>

using namespace llvm;

namespace stinkytofu {

const BitVector &counterRegisterUnits(const RegisterUnits &RU, const CounterModel &CM) {
  static std::mutex Lock;
  static DenseMap<const TargetInfo *, std::unique_ptr<BitVector>> Cache;
  std::lock_guard<std::mutex> Guard(Lock);
  std::unique_ptr<BitVector> &Units = Cache[&RU.target()];
  if (Units)
    return *Units;
  Units = std::make_unique<BitVector>(RU.none());
  const MCRegisterInfo &MRI = RU.target().regInfo();
  for (unsigned R = 1, N = MRI.getNumRegs(); R < N; ++R)
    for (unsigned C = 0; C < CM.numCounters(); ++C)
      if (MRI.getName(R) && StringRef(MRI.getName(R)).equals_insensitive(CM.counterName(C)))
        RU.set(*Units, MCRegister(R));
  return *Units;
}

} // namespace stinkytofu
