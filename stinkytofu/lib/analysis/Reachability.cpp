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
  // An empty block emits no code: its label is one more name for the
  // address of the block after it (gfx1250's `.Lpost_addpcN:` right after
  // `s_add_pc_i64 T-.Lpost_addpcN`). It is dead code only when that block
  // is; at the end of the function there is no code to be dead. Walking
  // backward settles runs of labels.
  const BasicBlock *After = nullptr;
  for (auto It = F.blocks().rbegin(); It != F.blocks().rend(); After = &*It++)
    if (It->empty() && (!After || Seen.count(After)))
      Seen.insert(&*It);
  for (const BasicBlock &BB : F.blocks())
    if (!Seen.count(&BB))
      Result.push_back(&BB);
  return Result;
}

} // namespace stinkytofu
