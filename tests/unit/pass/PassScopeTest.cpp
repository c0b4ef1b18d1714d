//===- PassScopeTest.cpp - --from-label/--to-label scopes ------------------===//
#include "TestModules.h"
#include "stinkytofu/mc/InstBuilder.h"
#include "stinkytofu/pass/PassManager.h"
#include "gtest/gtest.h"

using namespace stinkytofu;

namespace {

const char *const Kernel = "  .text\nk:\n  s_mov_b32 s0, 1\n  s_mov_b32 s1, 2\n"
                           "  s_mov_b32 s2, 3\n  s_mov_b32 s3, 4\n  s_endpgm\n";

std::vector<Instruction *> instructions(Module &M) {
  std::vector<Instruction *> All;
  for (Function &F : M.functions())
    for (BasicBlock &BB : F.blocks())
      for (Instruction &I : BB.instructions())
        All.push_back(&I);
  return All;
}

/// Inserts `s_nop 0` after the scope's first instruction, or records whether
/// the instruction after it is in scope.
class NopPass final : public Pass {
public:
  explicit NopPass(bool Insert, bool *Seen = nullptr) : Insert(Insert), Seen(Seen) {}
  llvm::StringRef name() const override { return Insert ? "insert" : "check"; }
  llvm::Expected<PreservedAnalyses> run(Module &M, AnalysisManager &,
                                        const PassScope &Scope) override {
    Instruction &First = const_cast<Instruction &>(*Scope.First);
    BasicBlock &BB = *First.parent();
    auto Next = std::next(First.getIterator());
    if (Insert) {
      InstBuilder B(M);
      llvm::Expected<Instruction> Nop = B.build("s_nop", {BuildOperand::imm(0)});
      if (!Nop)
        return Nop.takeError();
      // Asked before the insertion: the scope is then known without it.
      (void)inScope(M, Scope, First);
      BB.insert(Next, std::move(*Nop));
      return PreservedAnalyses::none();
    }
    *Seen = inScope(M, Scope, *Next);
    return PreservedAnalyses::all();
  }

private:
  bool Insert;
  bool *Seen;
};

TEST(PassScopeTest, TheNextPassSeesInstructionsInsertedInTheScope) {
  auto M = test::readAsmText(Kernel, "gfx942");
  ASSERT_TRUE(M);
  std::vector<Instruction *> All = instructions(*M);
  PassScope Scope{All[1], All[3]};
  bool Seen = false;
  StinkyTofuContext Ctx;
  PassManager PM(Ctx);
  PM.add(std::make_unique<NopPass>(true));
  PM.add(std::make_unique<NopPass>(false, &Seen));
  AnalysisManager AM;
  ASSERT_FALSE(bool(PM.run(*M, AM, Scope)));
  EXPECT_EQ(instructions(*M)[2]->mnemonic(), "s_nop");
  EXPECT_TRUE(Seen);
}

} // namespace
