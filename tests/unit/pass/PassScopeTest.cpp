//===- PassScopeTest.cpp - --from-label/--to-label scopes ------------------===//
#include "TestModules.h"
#include "stinkytofu/mc/InstructionFormatter.h"
#include "stinkytofu/mc/InstBuilder.h"
#include "stinkytofu/pass/PassManager.h"
#include "gtest/gtest.h"

using namespace stinkytofu;

namespace {

const char *const TwoLabelKernel = "  .text\nk:\n  s_mov_b32 s0, 1\nlabel_A:\n  s_mov_b32 s1, 2\n"
                                   "  s_mov_b32 s2, 3\nlabel_B:\n  s_mov_b32 s3, 4\n  s_endpgm\n";

/// What a pass does to the scope's first instruction.
enum class Edit { InsertAfter, Erase, Record };

/// Edits the scope's first instruction, or records the scope's mnemonics.
class ScopePass final : public Pass {
public:
  ScopePass(Edit What, std::vector<std::string> *Seen = nullptr) : What(What), Seen(Seen) {}
  llvm::StringRef name() const override { return "scope"; }
  llvm::Expected<PreservedAnalyses> run(Module &M, AnalysisManager &,
                                        const PassScope &Scope) override {
    std::vector<const Instruction *> Inside = scopeInstructions(M, Scope);
    if (What == Edit::Record) {
      for (const Instruction *I : Inside) {
        EXPECT_TRUE(inScope(M, Scope, *I));
        Seen->push_back(llvm::StringRef(instructionText(*I)).trim().str());
      }
      return PreservedAnalyses::all();
    }
    // Asked before the edit: the scope is then known without it.
    (void)inScope(M, Scope, *Inside.front());
    Instruction *Target = nullptr;
    for (Function &F : M.functions())
      for (BasicBlock &BB : F.blocks())
        for (Instruction &I : BB.instructions())
          if (&I == Inside.front())
            Target = &I;
    if (What == Edit::Erase) {
      Target->eraseFromParent();
      return PreservedAnalyses::none();
    }
    InstBuilder B(M);
    llvm::Expected<Instruction> Nop = B.build("s_nop", {BuildOperand::imm(0)});
    if (!Nop)
      return Nop.takeError();
    Target->parent()->insert(std::next(Target->getIterator()), std::move(*Nop));
    return PreservedAnalyses::none();
  }

private:
  Edit What;
  std::vector<std::string> *Seen;
};

std::vector<std::string> scopeAfter(Edit What) {
  auto M = test::readAsmText(TwoLabelKernel, "gfx942");
  EXPECT_TRUE(M);
  std::vector<std::string> Seen;
  StinkyTofuContext Ctx;
  PassManager PM(Ctx);
  PM.add(std::make_unique<ScopePass>(What));
  PM.add(std::make_unique<ScopePass>(Edit::Record, &Seen));
  AnalysisManager AM;
  EXPECT_FALSE(bool(PM.run(*M, AM, PassScope("label_A", "label_A"))));
  return Seen;
}

TEST(PassScopeTest, TheNextPassSeesInstructionsInsertedInTheScope) {
  EXPECT_EQ(scopeAfter(Edit::InsertAfter),
            (std::vector<std::string>{"s_mov_b32 s1, 2", "s_nop 0", "s_mov_b32 s2, 3"}));
}

TEST(PassScopeTest, AScopeWhoseFirstInstructionWasErasedKeepsTheRest) {
  EXPECT_EQ(scopeAfter(Edit::Erase), (std::vector<std::string>{"s_mov_b32 s2, 3"}));
}

} // namespace
