//===- InstructionEncoder.cpp - Encoded bytes of MC instructions ----------===//
#include "stinkytofu/hw/InstructionEncoder.h"
#include "stinkytofu/hw/TargetInfo.h"
#include "llvm/MC/MCCodeEmitter.h"
#include "llvm/MC/MCContext.h"
#include "llvm/MC/TargetRegistry.h"

using namespace llvm;

namespace stinkytofu {

InstructionEncoder::InstructionEncoder(const TargetInfo &Target)
    : Target(Target),
      Ctx(std::make_unique<MCContext>(Target.triple(), &Target.asmInfo(), &Target.regInfo(),
                                      &Target.subtargetInfo(), nullptr,
                                      &Target.targetOptions())),
      Emitter(Target.target().createMCCodeEmitter(Target.instrInfo(), *Ctx)) {}

InstructionEncoder::~InstructionEncoder() = default;

InstructionEncoder::Encoding InstructionEncoder::encode(ArrayRef<MCInst> Insts) {
  Encoding E;
  for (const MCInst &MI : Insts) {
    Buffer.clear();
    Fixups.clear();
    Emitter->encodeInstruction(MI, Buffer, Fixups, Target.subtargetInfo());
    for (const MCFixup &F : Fixups)
      E.FixupOffsets.push_back(E.Size + F.getOffset());
    E.Size += Buffer.size();
  }
  return E;
}

} // namespace stinkytofu
