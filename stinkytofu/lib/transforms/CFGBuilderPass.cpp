//===- CFGBuilderPass.cpp - Blocks and edges from the branch vocabulary ---===//
#include "stinkytofu/transforms/CFGBuilderPass.h"
#include "stinkytofu/ir/BranchVocabulary.h"

using namespace llvm;

namespace stinkytofu {

static void splitAfterTerminators(Function &F) {
  for (BasicBlock &BB : F.blocks()) {
    auto Insts = BB.instructions();
    for (auto It = Insts.begin(); It != Insts.end(); ++It)
      if (endsBlock(*It) && std::next(It) != Insts.end()) {
        // The directives before the next instruction start the new block.
        F.splitBlock(BB, BB.directivesBefore(*std::next(It)));
        break; // the rest is looked at when the loop reaches the new block
      }
  }
}

void buildCFG(Function &F) {
  splitAfterTerminators(F);
  for (BasicBlock &BB : F.blocks())
    BB.clearEdges();
  for (auto It = F.blocks().begin(); It != F.blocks().end(); ++It) {
    BasicBlock &BB = *It;
    BasicBlock *Next = std::next(It) == F.blocks().end() ? nullptr : &*std::next(It);
    const Instruction *Last = BB.empty() ? nullptr : &BB.instructions().back();
    if (Last && isBranch(*Last)) {
      bool Long = isComputedBranch(*Last);
      for (const std::string &Target : getBranchTargets(*Last))
        if (BasicBlock *To = F.findBlock(Target))
          BB.addSuccessor(To, Long ? EdgeKind::LongBranch : EdgeKind::Branch);
      if (isConditionalBranch(*Last) && Next)
        BB.addSuccessor(Next, EdgeKind::FallThrough);
      continue;
    }
    if (Last && isProgramEnd(*Last))
      continue;
    if (Next)
      BB.addSuccessor(Next, EdgeKind::FallThrough);
  }
  F.renumberBlocks();
  F.setCFGValid();
}

namespace {
class CFGBuilderPass final : public FunctionPass {
public:
  StringRef name() const override { return "CFGBuilder"; }
  Expected<PreservedAnalyses> runOnFunction(Function &F, AnalysisManager &,
                                            const PassScope &) override {
    buildCFG(F);
    return PreservedAnalyses::none();
  }
};
} // namespace

Expected<std::unique_ptr<Pass>> createCFGBuilderPass(const PassArguments &Args) {
  return createArgumentlessPass<CFGBuilderPass>(Args);
}

} // namespace stinkytofu
