//===- InsertPoint.cpp - A place between two instructions -----------------===//
#include "stinkytofu/ir/InsertPoint.h"

namespace stinkytofu {

InsertPoint InsertPoint::after(Instruction &I) {
  BasicBlock *BB = I.parent();
  auto Next = std::next(I.getIterator());
  return {BB, Next == BB->instructions().end() ? nullptr : &*Next};
}

InsertPoint InsertPoint::atStart(BasicBlock &BB) {
  return {&BB, BB.empty() ? nullptr : &BB.instructions().front()};
}

} // namespace stinkytofu
