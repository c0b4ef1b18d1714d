//===- CounterRegisters.cpp - Registers MC gives a wait counter -----------===//
#include "CounterRegisters.h"
#include "TargetUnitSets.h"
#include "stinkytofu/hw/TargetInfo.h"
#include "llvm/MC/MCRegisterInfo.h"

using namespace llvm;

namespace stinkytofu {

const BitVector &counterRegisterUnits(const RegisterUnits &RU, const CounterModel &CM) {
  return unitsOncePerTarget(RU, "counter registers", [&](BitVector &Units) {
    const MCRegisterInfo &MRI = RU.target().regInfo();
    for (unsigned R = 1, N = MRI.getNumRegs(); R < N; ++R)
      for (unsigned C = 0; C < CM.numCounters(); ++C)
        if (StringRef(MRI.getName(R)).equals_insensitive(CM.counterName(C)))
          RU.set(Units, MCRegister(R));
  });
}

} // namespace stinkytofu
