//===- InstructionFactory.cpp - New instructions, assembled once ----------===//
#include "asm-instrument/sqtt/InstructionFactory.h"
#include "stinkytofu/parse/AsmReader.h"

using namespace llvm;

namespace stinkytofu::sqtt {

Expected<Instruction> InstructionFactory::make(StringRef Text) {
  auto It = Cache.find(Text);
  if (It == Cache.end()) {
    Expected<Instruction> I = createInstruction(M, Text);
    if (!I)
      return createStringError(inconvertibleErrorCode(),
                               "cannot assemble '" + Text + "': " + toString(I.takeError()));
    Prototype P{I->kind(), I->mnemonic().str(), I->operands(),
                SmallVector<MCInst, 1>(I->mcInsts().begin(), I->mcInsts().end()),
                I->facts()};
    It = Cache.try_emplace(Text, std::move(P)).first;
  }
  const Prototype &P = It->second;
  Instruction I(P.Kind, P.Mnemonic, P.Operands);
  I.setMC(P.Insts, P.Facts);
  return I;
}

} // namespace stinkytofu::sqtt
