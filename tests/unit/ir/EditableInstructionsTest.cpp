//===- EditableInstructionsTest.cpp - A function's own instructions -------===//
#include "TestModules.h"
#include "stinkytofu/ir/EditableInstructions.h"
#include "stinkytofu/ir/Module.h"
#include "gtest/gtest.h"
#include <vector>

using namespace stinkytofu;

namespace {

/// What an analysis hands out: results naming instructions const.
struct Finding {
  const Instruction *Where = nullptr;
};

TEST(EditableInstructionsTest, AnalysisResultsMapToTheFunctionsOwnInstructions) {
  std::unique_ptr<Module> M = test::readAsmText("  .text\n"
                                                "k:\n"
                                                "  s_mov_b32 s0, 1\n"
                                                "  s_cbranch_scc0 next\n"
                                                "  s_mov_b32 s1, 2\n"
                                                "next:\n"
                                                "  s_mov_b32 s2, 3\n"
                                                "  s_endpgm\n",
                                                "gfx90a");
  ASSERT_TRUE(M);
  Function &F = M->functions().front();
  std::vector<Instruction *> All;
  for (BasicBlock &BB : F.blocks())
    for (Instruction &I : BB.instructions())
      All.push_back(&I);
  ASSERT_EQ(All.size(), 5u);
  const Function &Read = F; // as an analysis reads it
  std::vector<const Instruction *> Seen;
  for (const BasicBlock &BB : Read.blocks())
    for (const Instruction &I : BB.instructions())
      Seen.push_back(&I);
  // In any order, twice, and with an empty result among them.
  std::vector<Finding> Results = {{Seen[4]}, {nullptr}, {Seen[1]}, {Seen[4]}, {Seen[3]}};
  llvm::DenseMap<const Instruction *, Instruction *> Own =
      editableInstructions(F, Results, [](const Finding &R) { return R.Where; });
  EXPECT_EQ(Own.size(), 3u); // the null one is left out
  EXPECT_EQ(Own.lookup(Seen[4]), All[4]);
  EXPECT_EQ(Own.lookup(Seen[1]), All[1]);
  EXPECT_EQ(Own.lookup(Seen[3]), All[3]);
  // The handle edits the function's instruction.
  Own.lookup(Seen[3])->setTrailingComment("; edited");
  EXPECT_EQ(Seen[3]->trailingComment(), "; edited");
}

} // namespace
