//===- CallingConvention.cpp - Registers a call may clobber ---------------===//
#include "stinkytofu/analysis/CallingConvention.h"
#include "stinkytofu/analysis/ReachingDefs.h"
#include "stinkytofu/hw/HardwareModel.h"
#include "stinkytofu/ir/BranchVocabulary.h"
#include "stinkytofu/ir/Module.h"

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

/// Calls \p Fn(Index, Reg) for every 32-bit register of class \p C that MC
/// names on \p TI's target.
template <typename FnT> static void forEachReg32(const TargetInfo &TI, RegClass C, FnT Fn) {
  for (unsigned I = 0;; ++I) {
    MCRegister R = TI.reg32(C, I);
    if (!R.isValid())
      return;
    Fn(I, R);
  }
}

BitVector calleeSavedUnits(const RegisterUnits &RU) {
  const TargetInfo &TI = RU.target();
  bool GFX90A = hasGFX90AInsts(TI);
  BitVector Saved = RU.none();
  auto AddFile = [&](RegClass C, auto IsSaved) {
    forEachReg32(TI, C, [&](unsigned I, MCRegister R) {
      if (IsSaved(I))
        RU.set(Saved, R);
    });
  };
  AddFile(RegClass::SGPR, isCalleeSavedSGPR);
  AddFile(RegClass::VGPR, isCalleeSavedVGPR);
  AddFile(RegClass::AGPR, [&](unsigned I) { return isCalleeSavedAGPR(I, GFX90A); });
  return Saved;
}

/// Resets SCC, M0 and VCC in \p Regs: the convention passes nothing in
/// them either way, and a call clobbers all three.
static void resetScratchSpecials(const RegisterUnits &RU, BitVector &Regs) {
  for (const char *Name : {"SCC", "M0", "VCC"})
    if (MCRegister R = RU.byName(Name); R.isValid())
      RU.reset(Regs, R);
}

BitVector calleeInputUnits(const RegisterUnits &RU) {
  const TargetInfo &TI = RU.target();
  BitVector Reads = RU.all();
  for (RegClass C : {RegClass::SGPR, RegClass::VGPR, RegClass::AGPR})
    forEachReg32(TI, C, [&](unsigned I, MCRegister R) {
      if (!(C == RegClass::SGPR ? isCalleeInputSGPR(I) : C == RegClass::VGPR && isArgumentVGPR(I)))
        RU.reset(Reads, R);
    });
  resetScratchSpecials(RU, Reads);
  return Reads;
}

BitVector liveAfterAbiReturn(const RegisterUnits &RU) {
  const TargetInfo &TI = RU.target();
  BitVector Live = RU.all();
  resetScratchSpecials(RU, Live);
  for (unsigned S = 0, E = TI.hardware().maxSGPRs(); S < E; ++S)
    if (!isCalleeSavedSGPR(S))
      if (MCRegister R = TI.reg32(RegClass::SGPR, S); R.isValid())
        RU.reset(Live, R);
  return Live;
}

unsigned returnValueVGPRs(const Function &F) {
  const TargetInfo &TI = F.parent()->target();
  // Only the instructions' own writes: a call changes nothing here.
  ReachingDefs Defs(TI, {}, [](const Instruction &, MCRegister) { return false; });
  unsigned Count = 0;
  for (const BasicBlock &BB : F.blocks()) {
    if (BB.empty())
      continue;
    const Instruction &Last = BB.instructions().back();
    if (!isReturn(Last) || isProgramEnd(Last))
      continue;
    unsigned N = 0;
    while (N < 32 && isArgumentVGPR(N)) {
      ReachingDefs::Result R = Defs.before(Last, TI.reg32(RegClass::VGPR, N));
      if (R.FromOutside || R.Defs.empty())
        break;
      ++N;
    }
    Count = std::max(Count, N);
  }
  return Count;
}

BitVector heldAtAbiReturn(const RegisterUnits &RU, const BitVector &Written,
                          unsigned ReturnVGPRs) {
  const TargetInfo &TI = RU.target();
  bool GFX90A = hasGFX90AInsts(TI);
  BitVector Held = liveAfterAbiReturn(RU);
  auto Narrow = [&](RegClass C, auto Kept) {
    forEachReg32(TI, C, [&](unsigned I, MCRegister R) {
      if (!Kept(I, RU.any(Written, R)))
        RU.reset(Held, R);
    });
  };
  // s30:s31 (the return address) and s32 (the stack pointer) are the
  // function's to keep whatever it does with them.
  Narrow(RegClass::SGPR, [](unsigned I, bool W) {
    return (I >= 30 && I <= 32) || (W && isCalleeSavedSGPR(I));
  });
  Narrow(RegClass::VGPR, [&](unsigned I, bool W) {
    return I < ReturnVGPRs || (W && isCalleeSavedVGPR(I));
  });
  Narrow(RegClass::AGPR, [&](unsigned I, bool W) { return W && isCalleeSavedAGPR(I, GFX90A); });
  return Held;
}

BitVector callClobberedUnits(const RegisterUnits &RU) {
  BitVector Clobbered = calleeSavedUnits(RU);
  Clobbered.flip();
  return Clobbered;
}

} // namespace stinkytofu
