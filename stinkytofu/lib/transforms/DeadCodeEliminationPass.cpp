//===- DeadCodeEliminationPass.cpp - Delete instructions nobody reads -----===//
#include "stinkytofu/transforms/DeadCodeEliminationPass.h"
#include "stinkytofu/analysis/Liveness.h"
#include "stinkytofu/hw/TargetInfo.h"
#include "stinkytofu/transforms/CFGBuilderPass.h"
#include "stinkytofu/transforms/RewriteSupport.h"

using namespace llvm;

namespace stinkytofu {

bool onlyWritesRegisters(const TargetInfo &TI, const Instruction &I) {
  if (I.kind() != InstKind::Machine)
    return false;
  const InstrFacts &F = I.facts();
  constexpr uint32_t Effects = IF_Branch | IF_Call | IF_Return | IF_Terminator | IF_Barrier |
                               IF_MayLoad | IF_MayStore | IF_Opaque;
  return (F.Flags & Effects) == 0 && !F.Defs.empty() && !hasSideEffects(TI, I);
}

namespace {

bool isVectorRegister(const TargetInfo &TI, MCRegister R) {
  RegClass C = TI.classOf(R);
  return C == RegClass::VGPR || C == RegClass::AGPR;
}

class DeadCodeEliminationPass final : public FunctionPass {
public:
  StringRef name() const override { return "DeadCodeEliminationPass"; }
  Expected<PreservedAnalyses> runOnFunction(Function &F, AnalysisManager &AM,
                                            const PassScope &Scope) override {
    const Module &M = *F.parent();
    if (!F.hasValidCFG())
      buildCFG(F);
    bool Changed = false;
    for (;;) {
      Expected<Liveness &> Live = AM.getResult<LivenessAnalysis>(F);
      if (!Live)
        return Live.takeError();
      std::vector<Instruction *> Dead;
      for (BasicBlock &BB : F.blocks())
        for (Instruction &I : BB.instructions())
          if (isRewritable(M, Scope, I) && onlyWritesRegisters(M.target(), I) && isDead(M, *Live, I))
            Dead.push_back(&I);
      if (Dead.empty())
        break;
      for (Instruction *I : Dead)
        I->eraseFromParent();
      Changed = true;
      AM.invalidate(F, PreservedAnalyses::none());
    }
    return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
  }

private:
  static bool isDead(const Module &M, const Liveness &Live, const Instruction &I) {
    const TargetInfo &TI = M.target();
    for (MCRegister D : I.facts().Defs) {
      if (isVectorRegister(TI, D) ? !overwrittenBeforeRead(M, Live.units(), I, D)
                                  : Live.isLiveAfter(I, D))
        return false;
    }
    return true;
  }

};

} // namespace

Expected<std::unique_ptr<Pass>> createDeadCodeEliminationPass(const PassArguments &Args) {
  return createArgumentlessPass<DeadCodeEliminationPass>(Args);
}

} // namespace stinkytofu
