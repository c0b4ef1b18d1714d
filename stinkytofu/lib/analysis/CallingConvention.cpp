//===- CallingConvention.cpp - Registers a call may clobber ---------------===//
#include "stinkytofu/analysis/CallingConvention.h"

using namespace llvm;

namespace stinkytofu {

bool isCalleeSavedSGPR(unsigned I) {
  // s30-s39 keep the return address and the stack, frame and base pointers;
  // then stripes of 8 from s48, the last one (s96-s105) 10 wide.
  return (I >= 30 && I <= 39) || (I >= 48 && I <= 55) || (I >= 64 && I <= 71) ||
         (I >= 80 && I <= 87) || (I >= 96 && I <= 105);
}

bool isCalleeSavedVGPR(unsigned I) {
  // v40-v47, v56-v63, ..., v248-v255.
  return I >= 40 && I <= 255 && (I - 40) % 16 < 8;
}

bool isArgumentVGPR(unsigned I) { return I < 32; }

bool isCalleeInputSGPR(unsigned I) { return I <= 32; }

bool isCalleeSavedAGPR(unsigned I, bool HasGFX90AInsts) {
  return HasGFX90AInsts && I >= 32 && I <= 255;
}

bool hasGFX90AInsts(const TargetInfo &TI) {
  return TI.subtargetInfo().checkFeatures("+gfx90a-insts");
}

BitVector calleeSavedUnits(const RegisterUnits &RU) {
  const TargetInfo &TI = RU.target();
  bool GFX90A = hasGFX90AInsts(TI);
  BitVector Saved = RU.none();
  auto AddFile = [&](RegClass C, auto IsSaved) {
    for (unsigned I = 0;; ++I) {
      MCRegister R = TI.reg32(C, I);
      if (!R.isValid())
        break;
      if (IsSaved(I))
        RU.set(Saved, R);
    }
  };
  AddFile(RegClass::SGPR, isCalleeSavedSGPR);
  AddFile(RegClass::VGPR, isCalleeSavedVGPR);
  AddFile(RegClass::AGPR, [&](unsigned I) { return isCalleeSavedAGPR(I, GFX90A); });
  return Saved;
}

BitVector calleeInputUnits(const RegisterUnits &RU) {
  const TargetInfo &TI = RU.target();
  BitVector Reads = RU.all();
  for (RegClass C : {RegClass::SGPR, RegClass::VGPR, RegClass::AGPR})
    for (unsigned I = 0;; ++I) {
      MCRegister R = TI.reg32(C, I);
      if (!R.isValid())
        break;
      if (!(C == RegClass::SGPR ? isCalleeInputSGPR(I) : C == RegClass::VGPR && isArgumentVGPR(I)))
        RU.reset(Reads, R);
    }
  // The convention passes nothing in SCC, M0 or VCC; all three are clobbered.
  for (const char *Name : {"SCC", "M0", "VCC"})
    if (MCRegister R = RU.byName(Name); R.isValid())
      RU.reset(Reads, R);
  return Reads;
}

BitVector callClobberedUnits(const RegisterUnits &RU) {
  BitVector Clobbered = calleeSavedUnits(RU);
  Clobbered.flip();
  return Clobbered;
}

} // namespace stinkytofu
