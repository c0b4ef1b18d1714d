//===- BasicBlock.cpp - A labelled run of instructions --------------------===//
#include "stinkytofu/ir/BasicBlock.h"

namespace stinkytofu {

Instruction &BasicBlock::insert(InstList::iterator Pos, Instruction I) {
  auto It = Insts.insert(Pos, std::move(I));
  It->setParent(this);
  return *It;
}

} // namespace stinkytofu
