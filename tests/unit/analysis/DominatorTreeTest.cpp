//===- DominatorTreeTest.cpp - Dominator and post-dominator trees ---------===//
#include "analysis/AnalysisTestModules.h"
#include "stinkytofu/analysis/DominatorTree.h"
#include "stinkytofu/ir/Modifier.h"

#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

using namespace stinkytofu;
using namespace stinkytofu::analysistest;

namespace {

const char *const Diamond = R"(
k:
  s_cmp_eq_u32 s0, 0
  s_cbranch_scc1 L_else
L_then:
  s_mov_b32 s1, 1
  s_branch L_join
L_else:
  s_mov_b32 s1, 2
L_join:
  s_endpgm
)";

TEST(DominatorTreeTest, Diamond) {
  auto M = readModule(Diamond);
  ASSERT_TRUE(M);
  Function &F = *M->entry();
  BasicBlock *K = blockOf(*M, "k"), *Then = blockOf(*M, "L_then"),
             *Else = blockOf(*M, "L_else"), *Join = blockOf(*M, "L_join");
  ASSERT_EQ(K->successors().size(), 2u);

  DominatorTree DT(F);
  EXPECT_EQ(DT.root(), K);
  EXPECT_EQ(DT.immediateDominator(K), nullptr);
  EXPECT_EQ(DT.immediateDominator(Then), K);
  EXPECT_EQ(DT.immediateDominator(Else), K);
  EXPECT_EQ(DT.immediateDominator(Join), K);
  EXPECT_TRUE(DT.dominates(K, Join));
  EXPECT_TRUE(DT.dominates(Join, Join));
  EXPECT_FALSE(DT.properlyDominates(Join, Join));
  EXPECT_FALSE(DT.dominates(Then, Join));
  EXPECT_FALSE(DT.dominates(Else, Join));
  EXPECT_FALSE(DT.dominates(Join, K));
  EXPECT_EQ(DT.children(K), (std::vector<BasicBlock *>{Then, Else, Join}));
  EXPECT_TRUE(DT.children(Join).empty());
  EXPECT_EQ(DT.nearestCommonDominator(Then, Else), K);
  EXPECT_EQ(DT.nearestCommonDominator(Then, Then), Then);
  EXPECT_EQ(DT.level(K), 0u);
  EXPECT_EQ(DT.level(Join), 1u);
  for (BasicBlock *B : {K, Then, Else, Join})
    EXPECT_TRUE(DT.isReachable(B));

  // Instruction granularity.
  Instruction &Cmp = K->instructions().front(), &Br = K->instructions().back();
  Instruction &End = Join->instructions().front();
  EXPECT_TRUE(DT.dominates(Cmp, Br));
  EXPECT_FALSE(DT.dominates(Br, Cmp));
  EXPECT_TRUE(DT.dominates(Cmp, End));
  EXPECT_FALSE(DT.dominates(Then->instructions().front(), End));

  PostDominatorTree PDT(F);
  EXPECT_TRUE(PDT.isPostDominator());
  EXPECT_EQ(PDT.exitBlocks(), (std::vector<BasicBlock *>{Join}));
  EXPECT_EQ(PDT.roots(), (std::vector<BasicBlock *>{Join}));
  EXPECT_EQ(PDT.immediateDominator(K), Join);
  EXPECT_EQ(PDT.immediateDominator(Then), Join);
  EXPECT_EQ(PDT.immediateDominator(Else), Join);
  EXPECT_EQ(PDT.immediateDominator(Join), nullptr);
  EXPECT_TRUE(PDT.dominates(Join, K));
  EXPECT_FALSE(PDT.dominates(Then, K));
  EXPECT_FALSE(PDT.dominates(K, Join));
  EXPECT_TRUE(PDT.dominates(End, Cmp));
  EXPECT_TRUE(PDT.dominates(Br, Cmp));
  EXPECT_FALSE(PDT.dominates(Cmp, Br));
  EXPECT_EQ(PDT.nearestCommonDominator(Then, Else), Join);
}

TEST(DominatorTreeTest, LoopBackEdge) {
  auto M = readModule(CountedLoopKernel);
  ASSERT_TRUE(M);
  BasicBlock *K = blockOf(*M, "k"), *Loop = blockOf(*M, "L_loop"),
             *Exit = blockOf(*M, "L_exit");
  DominatorTree DT(*M->entry());
  EXPECT_EQ(DT.immediateDominator(Loop), K);
  EXPECT_EQ(DT.immediateDominator(Exit), Loop);
  EXPECT_TRUE(DT.dominates(Loop, Exit));
  // The back edge's target dominates its source (itself).
  EXPECT_TRUE(llvm::is_contained(Loop->successors(), Loop));
  EXPECT_TRUE(DT.dominates(Loop, Loop));

  PostDominatorTree PDT(*M->entry());
  EXPECT_EQ(PDT.immediateDominator(K), Loop);
  EXPECT_EQ(PDT.immediateDominator(Loop), Exit);
  EXPECT_TRUE(PDT.dominates(Exit, K));
}

TEST(DominatorTreeTest, PostDominatorsWithTwoExits) {
  auto M = readModule(R"(
k:
  s_cmp_eq_u32 s0, 0
  s_cbranch_scc1 L_a
L_b:
  s_mov_b32 s1, 1
  s_cmp_eq_u32 s1, s2
  s_cbranch_scc0 L_b2
L_b1:
  s_nop 0
L_b2:
  s_endpgm
L_a:
  s_mov_b32 s1, 2
  s_setpc_b64 s[30:31]
)");
  ASSERT_TRUE(M);
  BasicBlock *K = blockOf(*M, "k"), *B = blockOf(*M, "L_b"), *B1 = blockOf(*M, "L_b1"),
             *B2 = blockOf(*M, "L_b2"), *A = blockOf(*M, "L_a");
  PostDominatorTree PDT(*M->entry());
  // s_endpgm and an s_setpc_b64 without a known target both leave.
  EXPECT_EQ(PDT.exitBlocks(), (std::vector<BasicBlock *>{B2, A}));
  // The entry reaches both exits: only the virtual exit post-dominates it.
  EXPECT_EQ(PDT.immediateDominator(K), nullptr);
  EXPECT_TRUE(PDT.isReachable(K));
  EXPECT_EQ(PDT.roots(), (std::vector<BasicBlock *>{K, B2, A}));
  EXPECT_EQ(PDT.immediateDominator(B), B2);
  EXPECT_EQ(PDT.immediateDominator(B1), B2);
  EXPECT_EQ(PDT.immediateDominator(A), nullptr);
  EXPECT_FALSE(PDT.dominates(A, K));
  EXPECT_FALSE(PDT.dominates(B2, K));
  EXPECT_TRUE(PDT.dominates(B2, B));
  EXPECT_EQ(PDT.nearestCommonDominator(B1, A), nullptr);
  EXPECT_EQ(PDT.nearestCommonDominator(B1, B), B2);

  std::string Dump;
  llvm::raw_string_ostream OS(Dump);
  PDT.print(OS);
  EXPECT_NE(Dump.find("k: ipdom <exit>"), std::string::npos) << Dump;
  EXPECT_NE(Dump.find("L_b1: ipdom L_b2"), std::string::npos) << Dump;
}

TEST(DominatorTreeTest, UnreachableBlocks) {
  auto M = readModule(R"(
k:
  s_branch L_end
L_dead:
  s_mov_b32 s0, 1
L_end:
  s_endpgm
)");
  ASSERT_TRUE(M);
  BasicBlock *K = blockOf(*M, "k"), *Dead = blockOf(*M, "L_dead"),
             *End = blockOf(*M, "L_end");
  DominatorTree DT(*M->entry());
  EXPECT_FALSE(DT.isReachable(Dead));
  EXPECT_EQ(DT.immediateDominator(Dead), nullptr);
  EXPECT_FALSE(DT.dominates(K, Dead));
  EXPECT_FALSE(DT.dominates(Dead, End));
  EXPECT_TRUE(DT.dominates(Dead, Dead));
  EXPECT_EQ(DT.immediateDominator(End), K);
  EXPECT_EQ(DT.nearestCommonDominator(Dead, End), nullptr);
  EXPECT_EQ(DT.level(Dead), ~0u);

  // It still reaches the exit: it is in the post-dominator tree.
  PostDominatorTree PDT(*M->entry());
  EXPECT_TRUE(PDT.isReachable(Dead));
  EXPECT_EQ(PDT.immediateDominator(Dead), End);
}

TEST(DominatorTreeTest, LongBranchEdge) {
  // s_setpc_b64 with LabelData is an edge to its label; the block after it
  // is reached only through the conditional branch.
  ReadOptions Opts;
  Opts.BeforeCFG = [](Module &M) {
    instOf(M, "s_setpc_b64")->setModifier(std::make_unique<LabelData>("L_far"));
  };
  auto M = readModule(R"(
k:
  s_cmp_eq_u32 s0, 0
  s_cbranch_scc1 L_near
L_jump:
  s_getpc_b64 s[60:61]
  s_add_u32 s60, s60, 0x100
  s_addc_u32 s61, s61, 0
  s_setpc_b64 s[60:61]
L_near:
  s_nop 0
L_far:
  s_endpgm
)",
                      Opts);
  ASSERT_TRUE(M);
  BasicBlock *K = blockOf(*M, "k"), *Jump = blockOf(*M, "L_jump"),
             *Near = blockOf(*M, "L_near"), *Far = blockOf(*M, "L_far");
  ASSERT_EQ(Jump->successors().vec(), (std::vector<BasicBlock *>{Far}));
  DominatorTree DT(*M->entry());
  EXPECT_EQ(DT.immediateDominator(Near), K);
  EXPECT_EQ(DT.immediateDominator(Far), K);
  PostDominatorTree PDT(*M->entry());
  EXPECT_EQ(PDT.immediateDominator(Jump), Far);
  EXPECT_EQ(PDT.immediateDominator(K), Far);
}

TEST(DominatorTreeTest, AnalysisManagerCaches) {
  auto M = readModule(Diamond);
  ASSERT_TRUE(M);
  Function &F = *M->entry();
  AnalysisManager AM;
  DominatorTree &DT = llvm::cantFail(AM.getResult<DominatorTreeAnalysis>(F));
  EXPECT_EQ(&llvm::cantFail(AM.getResult<DominatorTreeAnalysis>(F)), &DT);
  EXPECT_EQ(AM.computations(), 1u);
  PostDominatorTree &PDT = llvm::cantFail(AM.getResult<PostDominatorTreeAnalysis>(F));
  EXPECT_EQ(AM.computations(), 2u);
  EXPECT_EQ(PDT.roots().size(), 1u);
  AM.invalidate(F, PreservedAnalyses::none().preserve<DominatorTreeAnalysis>());
  EXPECT_NE(AM.getCachedResult<DominatorTreeAnalysis>(F), nullptr);
  EXPECT_EQ(AM.getCachedResult<PostDominatorTreeAnalysis>(F), nullptr);
}

TEST(DominatorTreeTest, EmptyFunction) {
  Function F("empty", /*IsEntry=*/true);
  DominatorTree DT(F);
  EXPECT_EQ(DT.root(), nullptr);
  EXPECT_TRUE(DT.roots().empty());
  PostDominatorTree PDT(F);
  EXPECT_TRUE(PDT.exitBlocks().empty());
}

} // namespace
