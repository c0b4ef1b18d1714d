//===- FlattenCFGPass.cpp - Undo the CFG builder's splits -----------------===//
#include "stinkytofu/transforms/FlattenCFGPass.h"

#include "stinkytofu/ir/Module.h"

using namespace llvm;

namespace stinkytofu {

namespace {

/// Whether \p BB holds nothing but instructions (their comments move with
/// them) and no label or text of its own.
bool onlyInstructions(const BasicBlock &BB) {
  if (BB.hasLabel() || BB.hasUnwrittenLabel() || !BB.leadingText().empty())
    return false;
  for (const BlockItem &Item : BB.items())
    if (!isa<Instruction>(Item))
      return false;
  return true;
}

class FlattenCFGPass final : public Pass {
public:
  StringRef name() const override { return "FlattenCFGPass"; }

  Expected<PreservedAnalyses> run(Module &M, AnalysisManager &, const PassScope &) override {
    for (Function &F : M.functions()) {
      for (BasicBlock &BB : F.blocks())
        BB.clearEdges();
      BasicBlock *Previous = nullptr;
      for (auto It = F.blocks().begin(), End = F.blocks().end(); It != End;) {
        BasicBlock &BB = *It++;
        if (Previous && onlyInstructions(BB)) {
          while (!BB.instructions().empty())
            Previous->insert(Previous->items().end(),
                             BB.instructions().begin()->removeFromParent());
          BB.eraseFromParent();
          continue;
        }
        Previous = &BB;
      }
      F.invalidateCFG();
    }
    return PreservedAnalyses::none();
  }
};

} // namespace

Expected<std::unique_ptr<Pass>> createFlattenCFGPass(const PassArguments &Args) {
  return createArgumentlessPass<FlattenCFGPass>(Args);
}

} // namespace stinkytofu
