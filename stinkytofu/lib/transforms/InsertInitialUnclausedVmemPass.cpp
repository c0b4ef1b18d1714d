//===- InsertInitialUnclausedVmemPass.cpp - A VMEM op opens each kernel ---===//
#include "stinkytofu/transforms/InsertInitialUnclausedVmemPass.h"

#include "stinkytofu/mc/InstInserter.h"
#include "llvm/ADT/STLExtras.h"

using namespace llvm;

namespace stinkytofu {

namespace {

/// `global_prefetch_b8 v0, s[0:1] scope:SCOPE_SE`, then `v_nop`.
InstSpec prefetchSpec() {
  return {"global_prefetch_b8",
          {BuildOperand::vgpr(0), BuildOperand::sgpr(0, 2), BuildOperand::scope(MemoryScope::SE)}};
}

class InsertInitialUnclausedVmemPass final : public Pass {
public:
  StringRef name() const override { return "InsertInitialUnclausedVmemPass"; }

  Expected<PreservedAnalyses> run(Module &M, AnalysisManager &, const PassScope &) override {
    InstBuilder Builder(M);
    bool Changed = false;
    for (Function &F : M.functions()) {
      if (!F.isEntry())
        continue;
      Instruction *First = firstInstruction(F);
      InstSpec Prefetch = prefetchSpec();
      if (!First || First->mnemonic() == Prefetch.Mnemonic)
        continue;
      // Comments before the kernel's first instruction stay first.
      InstInserter At(Builder);
      At.setInsertPointBefore(*First);
      if (Expected<Instruction &> Load = At.build(Prefetch); !Load) {
        std::string Text = Prefetch.Mnemonic;
        for (auto [Index, O] : enumerate(Prefetch.Operands))
          Text += (Index && O.kind() != BuildOperand::Kind::Modifier ? ", " : " ") + O.spelling();
        return createStringError(inconvertibleErrorCode(),
                                 name() + ": " + M.target().processor() + " has no '" + Text +
                                     "' (the pass is for gfx1250): " + toString(Load.takeError()));
      }
      if (Expected<Instruction &> Nop = At.build(InstSpec{"v_nop", {}}); !Nop)
        return Nop.takeError();
      Changed = true;
    }
    return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
  }

private:
  static Instruction *firstInstruction(Function &F) {
    for (BasicBlock &BB : F.blocks())
      for (Instruction &I : BB.instructions())
        if (I.kind() != InstKind::Pseudo)
          return &I;
    return nullptr;
  }
};

} // namespace

Expected<std::unique_ptr<Pass>> createInsertInitialUnclausedVmemPass(const PassArguments &Args) {
  return createArgumentlessPass<InsertInitialUnclausedVmemPass>(Args);
}

} // namespace stinkytofu
