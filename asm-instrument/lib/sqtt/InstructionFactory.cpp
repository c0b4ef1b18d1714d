//===- InstructionFactory.cpp - Marker code as instructions ---------------===//
#include "asm-instrument/sqtt/InstructionFactory.h"

using namespace llvm;

namespace stinkytofu::sqtt {

Expected<Instruction> InstructionFactory::make(StringRef Text) { return Builder.parse(Text); }

Expected<Instruction> InstructionFactory::makeBranch(StringRef Mnemonic, StringRef Label) {
  return Builder.build(Mnemonic, {BuildOperand::label(Label)});
}

Expected<unsigned> InstructionFactory::encodedSize(StringRef Text, bool Branch) {
  StringMap<unsigned> &Cache = Branch ? BranchSizeOf : SizeOf;
  auto It = Cache.find(Text);
  if (It != Cache.end())
    return It->second;
  // Any label will do: the size of a branch does not depend on its target.
  Expected<Instruction> I = Branch ? makeBranch(Text, ".Lsqtt_size_probe") : make(Text);
  if (!I)
    return I.takeError();
  return Cache.try_emplace(Text, Sizes.bytes(I->mcInsts())).first->second;
}

} // namespace stinkytofu::sqtt
