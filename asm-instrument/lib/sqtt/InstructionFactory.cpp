//===- InstructionFactory.cpp - Marker code as instructions ---------------===//
#include "asm-instrument/sqtt/InstructionFactory.h"
#include "llvm/ADT/SmallString.h"

using namespace llvm;

namespace stinkytofu::sqtt {

Expected<Instruction> InstructionFactory::buildBranch(StringRef Mnemonic, StringRef Label) {
  return Builder.build(Mnemonic, {BuildOperand::label(Label)});
}

Expected<unsigned> InstructionFactory::sizeOf(StringMap<unsigned> &Cache, StringRef Key,
                                              function_ref<Expected<Instruction>()> Build) {
  auto It = Cache.find(Key);
  if (It != Cache.end())
    return It->second;
  Expected<Instruction> I = Build();
  if (!I)
    return I.takeError();
  return Cache.try_emplace(Key, Sizes.bytes(I->mcInsts())).first->second;
}

Expected<unsigned> InstructionFactory::encodedSize(const InstSpec &Spec) {
  SmallString<64> Key;
  appendSpecKey(Spec.Mnemonic, Spec.Operands, Key);
  return sizeOf(SizeOf, Key, [&] { return build(Spec); });
}

Expected<unsigned> InstructionFactory::branchSize(StringRef Mnemonic) {
  // Any label will do: the size of a branch does not depend on its target.
  return sizeOf(BranchSizeOf, Mnemonic,
                [&] { return buildBranch(Mnemonic, ".Lsqtt_size_probe"); });
}

} // namespace stinkytofu::sqtt
