//===- Reachability.cpp - Blocks control can reach ------------------------===//
#include "stinkytofu/analysis/Reachability.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace stinkytofu {

std::vector<const BasicBlock *> unreachableBlocks(const Function &F) {
  std::vector<const BasicBlock *> Result;
  if (F.blocks().empty())
    return Result;
  llvm::SmallPtrSet<const BasicBlock *, 32> Seen;
  std::vector<const BasicBlock *> Work{&F.blocks().front()};
  Seen.insert(Work.back());
  while (!Work.empty()) {
    const BasicBlock *BB = Work.back();
    Work.pop_back();
    for (const BasicBlock *S : BB->successors())
      if (Seen.insert(S).second)
        Work.push_back(S);
  }
  for (const BasicBlock &BB : F.blocks())
    if (!Seen.count(&BB))
      Result.push_back(&BB);
  return Result;
}

} // namespace stinkytofu
