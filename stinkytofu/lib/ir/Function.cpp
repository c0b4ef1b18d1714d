//===- Function.cpp - The kernel or a callable function -------------------===//
#include "stinkytofu/ir/Function.h"
#include <algorithm>

namespace stinkytofu {

BasicBlock &Function::appendBlock(std::string Label) {
  BasicBlock &BB = Blocks.emplace_back(std::move(Label));
  BB.setParent(this);
  return BB;
}

BasicBlock &Function::splitBlock(BasicBlock &BB, BasicBlock::InstList::iterator At) {
  auto Pos = std::find_if(Blocks.begin(), Blocks.end(),
                          [&](const BasicBlock &B) { return &B == &BB; });
  BasicBlock &New = *Blocks.emplace(std::next(Pos), "");
  New.setParent(this);
  New.instructions().splice(New.instructions().end(), BB.instructions(), At,
                            BB.instructions().end());
  for (Instruction &I : New.instructions())
    I.setParent(&New);
  return New;
}

BasicBlock *Function::findBlock(llvm::StringRef Label) {
  for (BasicBlock &BB : Blocks)
    if (BB.hasLabel() && BB.label() == Label)
      return &BB;
  return nullptr;
}

const BasicBlock *Function::findBlock(llvm::StringRef Label) const {
  return const_cast<Function *>(this)->findBlock(Label);
}

void Function::renumberBlocks() {
  unsigned N = 0;
  for (BasicBlock &BB : Blocks) {
    if (BB.hasLabel())
      BB.setName(BB.label().str());
    else
      BB.setName("bb" + std::to_string(N));
    ++N;
  }
}

size_t Function::instructionCount() const {
  size_t N = 0;
  for (const BasicBlock &BB : Blocks)
    N += BB.instructions().size();
  return N;
}

} // namespace stinkytofu
