//===- EditableInstructions.cpp - Instructions a pass may edit ------------===//
#include "stinkytofu/ir/EditableInstructions.h"
#include <cassert>

using namespace llvm;

namespace stinkytofu {

DenseMap<const Instruction *, Instruction *>
editableInstructions(Function &F, ArrayRef<const Instruction *> Found) {
  DenseMap<const Instruction *, Instruction *> Own;
  for (const Instruction *I : Found)
    if (I)
      Own.try_emplace(I, nullptr);
  size_t Left = Own.size();
  for (BasicBlock &BB : F.blocks())
    for (Instruction &I : BB.instructions()) {
      if (!Left)
        return Own;
      if (auto It = Own.find(&I); It != Own.end() && !It->second) {
        It->second = &I;
        --Left;
      }
    }
  assert(!Left && "an instruction of another function");
  return Own;
}

} // namespace stinkytofu
