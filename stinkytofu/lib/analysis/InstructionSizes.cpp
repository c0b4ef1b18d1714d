//===- InstructionSizes.cpp - Encoded bytes, from LLVM MC -----------------===//
#include "stinkytofu/analysis/InstructionSizes.h"
#include "stinkytofu/hw/TargetInfo.h"
#include "llvm/MC/MCAsmInfo.h"

using namespace llvm;

namespace stinkytofu {

InstructionSizes::InstructionSizes(Module &M) : Target(M.target()), Encoder(M.target()) {}

InstructionSizes::~InstructionSizes() = default;

ByteRange InstructionSizes::of(const Instruction &I) {
  switch (I.kind()) {
  case InstKind::Pseudo:
    return {};
  case InstKind::Opaque: {
    // Whatever it is, it is one instruction: between the shortest and the
    // longest encoding MC knows of.
    return {Target.asmInfo().getMinInstAlignment(),
            Target.asmInfo().getMaxInstLength(&Target.subtargetInfo())};
  }
  case InstKind::Machine:
  case InstKind::MacroCall: {
    unsigned N = bytes(I.mcInsts());
    return {N, N};
  }
  }
  return {};
}

} // namespace stinkytofu
