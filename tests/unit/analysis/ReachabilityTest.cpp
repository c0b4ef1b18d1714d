//===- ReachabilityTest.cpp - Blocks holding code control cannot reach ----===//
//
// Dead code is reported block by block; an empty block (a label right
// before another label or the function end) holds no code and shares the
// fate of the block after it.
//
//===----------------------------------------------------------------------===//
#include "AnalysisTestModules.h"

#include "stinkytofu/analysis/Reachability.h"
#include "stinkytofu/transforms/LongBranchLoweringPass.h"

using namespace stinkytofu;
using namespace stinkytofu::analysistest;

namespace {

std::vector<std::string> unreachableNames(const Function &F) {
  std::vector<std::string> Names;
  for (const BasicBlock *BB : unreachableBlocks(F))
    Names.push_back(BB->name().str());
  return Names;
}

using Names = std::vector<std::string>;

TEST(ReachabilityTest, CodeAfterAnUnconditionalBranchIsDead) {
  auto M = readModule(R"(k:
  s_branch label_End
label_Dead:
  s_nop 0
label_End:
  s_endpgm
)");
  ASSERT_TRUE(M);
  EXPECT_EQ(unreachableNames(*M->entry()), Names{"label_Dead"});
}

TEST(ReachabilityTest, AnchorLabelAfterAddPcIsNoDeadCode) {
  // clang-22 -amdgpu-s-branch-bits=5 for gfx1250: `.Lpost_addpcN:` names
  // the address after the s_add_pc_i64 and is followed at once by the next
  // block's label. Nothing branches to it, and it holds no code.
  auto M = readModule(R"(k:
  s_cmp_eq_u32 s0, 0
  s_cbranch_scc1 .LBB0_1
  s_add_pc_i64 .LBB0_2-.Lpost_addpc0
.Lpost_addpc0:
.LBB0_1:
  s_nop 0
.LBB0_2:
  s_endpgm
)",
                      forArch("gfx1250"));
  ASSERT_TRUE(M);
  lowerLongBranches(*M);
  const BasicBlock *Anchor = blockOf(*M, ".Lpost_addpc0");
  ASSERT_TRUE(Anchor);
  EXPECT_TRUE(Anchor->empty());
  EXPECT_TRUE(Anchor->predecessors().empty());
  EXPECT_EQ(unreachableNames(*M->entry()), Names{});
}

TEST(ReachabilityTest, LabelsInFrontOfDeadCodeAreDeadToo) {
  auto M = readModule(R"(k:
  s_branch label_End
label_A:
label_B:
  s_nop 0
label_End:
  s_endpgm
)");
  ASSERT_TRUE(M);
  EXPECT_EQ(unreachableNames(*M->entry()), (Names{"label_A", "label_B"}));
}

TEST(ReachabilityTest, EmptyBlockAtTheEndHoldsNoCode) {
  auto M = readModule(R"(k:
  s_endpgm
label_Tail:
)");
  ASSERT_TRUE(M);
  EXPECT_EQ(unreachableNames(*M->entry()), Names{});
}

} // namespace
