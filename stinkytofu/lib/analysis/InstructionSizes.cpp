//===- InstructionSizes.cpp - Encoded bytes, from LLVM MC -----------------===//
#include "stinkytofu/analysis/InstructionSizes.h"
#include "stinkytofu/hw/TargetInfo.h"
#include "llvm/MC/MCAsmInfo.h"

using namespace llvm;

namespace stinkytofu {

InstructionSizes::InstructionSizes(Module &M) : Target(M.target()), Encoder(M.target()) {}

InstructionSizes::~InstructionSizes() = default;

unsigned InstructionSizes::bytesOf(const MCInst &MI) {
  // The key: opcode, flags, then each operand's kind and value.
  SmallVector<uint64_t, 24> Key{MI.getOpcode(), MI.getFlags()};
  for (const MCOperand &Op : MI) {
    if (Op.isReg())
      Key.append({1, Op.getReg().id()});
    else if (Op.isImm())
      Key.append({2, uint64_t(Op.getImm())});
    else if (Op.isSFPImm())
      Key.append({3, Op.getSFPImm()});
    else if (Op.isDFPImm())
      Key.append({4, Op.getDFPImm()});
    else
      return Encoder.bytes(MI);
  }
  StringRef Bytes(reinterpret_cast<const char *>(Key.data()), Key.size() * sizeof(uint64_t));
  auto [It, New] = KnownBytes.try_emplace(Bytes, 0);
  if (New)
    It->second = Encoder.bytes(MI);
  return It->second;
}

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
    unsigned N = 0;
    for (const MCInst &MI : I.mcInsts())
      N += bytesOf(MI);
    return {N, N};
  }
  }
  return {};
}

} // namespace stinkytofu
