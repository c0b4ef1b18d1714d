//===- RegisterUsage.cpp - The registers a function names -----------------===//
#include "stinkytofu/analysis/RegisterUsage.h"
#include "stinkytofu/hw/HardwareModel.h"
#include "stinkytofu/ir/Module.h"
#include "llvm/ADT/BitVector.h"
#include <algorithm>

using namespace llvm;

namespace stinkytofu {

/// One past the highest register of \p Class an instruction of \p F names.
static unsigned namedCount(const Function &F, RegClass Class) {
  const TargetInfo &TI = F.parent()->target();
  unsigned Used = 0;
  auto Note = [&](MCRegister R) {
    for (MCRegister Part : TI.covered32(R))
      if (TI.classOf(Part) == Class)
        if (std::optional<unsigned> Idx = TI.indexOf(Part))
          Used = std::max(Used, *Idx + 1);
  };
  // Each distinct register once: a kernel names a few dozen registers over
  // thousands of instructions, and covered32 walks a tuple's sub-registers.
  BitVector Seen(TI.regInfo().getNumRegs());
  auto NoteOnce = [&](MCRegister R) {
    if (!Seen.test(R.id())) {
      Seen.set(R.id());
      Note(R);
    }
  };
  for (const BasicBlock &BB : F.blocks())
    for (const Instruction &I : BB.instructions()) {
      const InstrFacts &Facts = I.facts();
      for (MCRegister R : Facts.Defs)
        NoteOnce(R);
      for (MCRegister R : Facts.Uses)
        NoteOnce(R);
    }
  return Used;
}

unsigned namedSGPRCount(const Function &F) {
  return std::min(namedCount(F, RegClass::SGPR), F.parent()->target().hardware().maxSGPRs());
}

unsigned namedVGPRCount(const Function &F) { return namedCount(F, RegClass::VGPR); }

} // namespace stinkytofu
