//===- InsertInitialUnclausedVmemPass.cpp - A VMEM op opens each kernel ---===//
#include "stinkytofu/transforms/InsertInitialUnclausedVmemPass.h"

#include "stinkytofu/mc/InstBuilder.h"

using namespace llvm;

namespace stinkytofu {

namespace {

constexpr StringLiteral Prefetch = "global_prefetch_b8 v0, s[0:1] scope:SCOPE_SE";

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
      if (!First || First->mnemonic() == "global_prefetch_b8")
        continue;
      Expected<Instruction> Load = Builder.parse(Prefetch);
      if (!Load)
        return createStringError(inconvertibleErrorCode(),
                                 name() + ": " + M.target().processor() + " has no '" + Prefetch +
                                     "' (the pass is for gfx1250): " + toString(Load.takeError()));
      Expected<Instruction> Nop = Builder.parse("v_nop");
      if (!Nop)
        return Nop.takeError();
      BasicBlock &BB = *First->parent();
      Instruction &Placed = BB.insert(First->getIterator(), std::move(*Load));
      BB.insert(First->getIterator(), std::move(*Nop));
      // Comments before the kernel's first instruction stay first.
      Placed.setLeadingText(First->leadingText());
      First->setLeadingText("");
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
