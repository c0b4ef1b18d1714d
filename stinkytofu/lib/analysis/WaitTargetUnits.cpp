//===- WaitTargetUnits.cpp - Register-unit sets the wait analysis asks ----===//
#include "WaitTargetUnits.h"
#include "stinkytofu/analysis/WaitCountAnalysis.h"
#include "stinkytofu/hw/TargetInfo.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/MC/MCInstrDesc.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/MC/MCSubtargetInfo.h"

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

using namespace llvm;

namespace stinkytofu {

namespace {

/// The set named \p Set of \p RU's target: \p Fill computes it (from
/// RU.none()) the first time, under a lock, so threads share one copy.
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

} // namespace

const BitVector &counterRegisterUnits(const RegisterUnits &RU, const CounterModel &CM) {
  return unitsOncePerTarget(RU, "counter registers", [&](BitVector &Units) {
    const MCRegisterInfo &MRI = RU.target().regInfo();
    // Compared letter by letter: most names differ in the first two, and
    // measuring each of the target's registers' names cost more than the
    // comparisons.
    auto Named = [](const char *Name, StringRef Counter) {
      for (char C : Counter)
        if (toLower(*Name++) != toLower(C))
          return false;
      return *Name == '\0';
    };
    SmallVector<StringRef, MaxWaitCounters> Counters;
    for (unsigned C = 0; C < CM.numCounters(); ++C)
      Counters.push_back(CM.counterName(C));
    for (unsigned R = 1, N = MRI.getNumRegs(); R < N; ++R)
      if (any_of(Counters, [&](StringRef C) { return Named(MRI.getName(R), C); }))
        RU.set(Units, MCRegister(R));
  });
}

// The destination classes MC gives its real (encodable) load instructions;
// code-generator pseudos such as spill restores are left out.
const BitVector &loadDestinationUnits(const RegisterUnits &RU) {
  return unitsOncePerTarget(RU, "load destinations", [&](BitVector &Units) {
    const MCInstrInfo &MII = RU.target().instrInfo();
    const MCRegisterInfo &MRI = RU.target().regInfo();
    const unsigned HwMode =
        RU.target().subtargetInfo().getHwMode(MCSubtargetInfo::HwMode_RegInfo);
    BitVector Classes(MRI.getNumRegClasses());
    for (unsigned Op = 0; Op < MII.getNumOpcodes(); ++Op) {
      const MCInstrDesc &D = MII.get(Op);
      if (!D.mayLoad() || D.isPseudo())
        continue;
      for (unsigned Def = 0; Def < D.getNumDefs(); ++Def)
        if (int16_t RC = MII.getOpRegClassID(D.operands()[Def], HwMode); RC >= 0)
          Classes.set(RC);
    }
    // The classes overlap (tuples of every width, AV classes holding the
    // VGPRs again): each register's units are set once.
    BitVector Done(MRI.getNumRegs());
    for (unsigned RC : Classes.set_bits())
      for (MCPhysReg R : MRI.getRegClass(RC))
        if (!Done.test(R)) {
          Done.set(R);
          RU.set(Units, R);
        }
  });
}

} // namespace stinkytofu
