//===- Function.cpp - The kernel or a callable function -------------------===//
#include "stinkytofu/ir/Function.h"
#include <memory>

namespace stinkytofu {

Function::~Function() { Blocks.clearAndDispose(std::default_delete<BasicBlock>()); }

BasicBlock &Function::appendBlock(std::string Label) {
  return insertBlock(Blocks.end(), std::move(Label));
}

BasicBlock &Function::insertBlock(const_iterator Pos, std::string Label) {
  invalidateCFG();
  LabelIndexValid = false;
  auto *BB = new BasicBlock(std::move(Label));
  Blocks.insert(Pos.getNonConst(), *BB);
  BB->setParent(this);
  return *BB;
}

void Function::spliceBlocks(const_iterator Pos, Function &From, const_iterator First,
                            const_iterator Last) {
  if (First == Last)
    return;
  invalidateCFG();
  From.invalidateCFG();
  LabelIndexValid = From.LabelIndexValid = false;
  for (iterator It = First.getNonConst(); It != Last; ++It)
    It->setParent(this);
  Blocks.splice(Pos.getNonConst(), From.Blocks, First.getNonConst(), Last.getNonConst());
}

BasicBlock &Function::splitBlock(BasicBlock &BB, BasicBlock::const_item_iterator At,
                                 std::string Label) {
  BasicBlock &New = insertBlock(std::next(BB.getIterator()), std::move(Label));
  New.splice(New.items().end(), BB, At, BB.items().end());
  return New;
}

BasicBlock *Function::findBlock(llvm::StringRef Label) {
  if (!LabelIndexValid) {
    LabelIndex.clear();
    for (BasicBlock &BB : Blocks)
      if (BB.hasLabel())
        LabelIndex.try_emplace(BB.label(), &BB); // the first block wins
    LabelIndexValid = true;
  }
  return LabelIndex.lookup(Label);
}

const BasicBlock *Function::findBlock(llvm::StringRef Label) const {
  return const_cast<Function *>(this)->findBlock(Label);
}

void Function::renumberBlocks() {
  unsigned N = 0;
  std::string Number;
  for (BasicBlock &BB : Blocks) {
    // Most names are right already: the CFG is rebuilt after every edit.
    if (BB.hasLabel()) {
      if (BB.name() != BB.label())
        BB.setName(BB.label().str());
    } else if (Number = "bb" + std::to_string(N); BB.name() != Number) {
      BB.setName(Number);
    }
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
