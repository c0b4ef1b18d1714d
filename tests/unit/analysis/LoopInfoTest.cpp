//===- LoopInfoTest.cpp - Natural loops from back edges -------------------===//
#include "analysis/AnalysisTestModules.h"
#include "stinkytofu/analysis/LoopInfo.h"

#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

using namespace stinkytofu;
using namespace stinkytofu::analysistest;

namespace {

TEST(LoopInfoTest, SingleBlockLoop) {
  auto M = readModule(CountedLoopKernel);
  ASSERT_TRUE(M);
  Function &F = *M->entry();
  BasicBlock *K = blockOf(*M, "k"), *Head = blockOf(*M, "L_loop"),
             *Exit = blockOf(*M, "L_exit");
  DominatorTree DT(F);
  LoopInfo LI(F, DT);
  ASSERT_EQ(LI.numLoops(), 1u);
  Loop *L = LI.topLevelLoops().front();
  EXPECT_EQ(L->header(), Head);
  EXPECT_EQ(L->blocks(), (std::vector<BasicBlock *>{Head}));
  EXPECT_EQ(L->latches(), (std::vector<BasicBlock *>{Head}));
  EXPECT_EQ(L->depth(), 1u);
  EXPECT_EQ(L->parentLoop(), nullptr);
  EXPECT_EQ(L->exitBlocks(), (std::vector<BasicBlock *>{Exit}));
  EXPECT_EQ(L->exitingBlocks(), (std::vector<BasicBlock *>{Head}));
  EXPECT_EQ(L->preheader(), K);
  EXPECT_TRUE(LI.isLoopHeader(Head));
  EXPECT_TRUE(LI.isBackEdge(Head, Head));
  EXPECT_FALSE(LI.isBackEdge(K, Head));
  EXPECT_EQ(LI.loopFor(K), nullptr);
  EXPECT_EQ(LI.loopDepth(K), 0u);
  EXPECT_EQ(LI.loopDepth(Head), 1u);
}

TEST(LoopInfoTest, NestedLoops) {
  auto M = readModule(R"(
k:
  s_mov_b32 s0, 0
L_outer:
  s_mov_b32 s1, 0
L_inner:
  s_add_u32 s1, s1, 1
  s_cmp_lt_u32 s1, 4
  s_cbranch_scc1 L_inner
L_latch:
  s_add_u32 s0, s0, 1
  s_cmp_lt_u32 s0, 8
  s_cbranch_scc1 L_outer
L_exit:
  s_endpgm
)");
  ASSERT_TRUE(M);
  Function &F = *M->entry();
  BasicBlock *Outer = blockOf(*M, "L_outer"), *Inner = blockOf(*M, "L_inner"),
             *Latch = blockOf(*M, "L_latch"), *Exit = blockOf(*M, "L_exit");
  DominatorTree DT(F);
  LoopInfo LI(F, DT);
  ASSERT_EQ(LI.numLoops(), 2u);
  ASSERT_EQ(LI.topLevelLoops().size(), 1u);
  Loop *OL = LI.topLevelLoops().front();
  EXPECT_EQ(OL->header(), Outer);
  EXPECT_EQ(OL->blocks(), (std::vector<BasicBlock *>{Outer, Inner, Latch}));
  EXPECT_EQ(OL->latches(), (std::vector<BasicBlock *>{Latch}));
  ASSERT_EQ(OL->subLoops().size(), 1u);
  Loop *IL = OL->subLoops().front();
  EXPECT_EQ(IL->header(), Inner);
  EXPECT_EQ(IL->blocks(), (std::vector<BasicBlock *>{Inner}));
  EXPECT_EQ(IL->parentLoop(), OL);
  EXPECT_EQ(IL->depth(), 2u);
  EXPECT_TRUE(OL->contains(IL));
  EXPECT_FALSE(IL->contains(OL));
  EXPECT_EQ(IL->preheader(), Outer);
  EXPECT_EQ(LI.loopFor(Inner), IL);
  EXPECT_EQ(LI.loopFor(Latch), OL);
  EXPECT_EQ(LI.loopDepth(Inner), 2u);
  EXPECT_EQ(LI.loopDepth(Latch), 1u);
  EXPECT_EQ(LI.loopDepth(Exit), 0u);
  EXPECT_EQ(LI.loopsInPreorder(), (std::vector<Loop *>{OL, IL}));
  EXPECT_EQ(OL->exitBlocks(), (std::vector<BasicBlock *>{Exit}));

  std::string Dump;
  llvm::raw_string_ostream OS(Dump);
  LI.print(OS);
  EXPECT_EQ(Dump, "loop L_outer depth 1: L_outer L_inner L_latch\n"
                  "loop L_inner depth 2: L_inner\n");
}

TEST(LoopInfoTest, TwoLatchesOneLoop) {
  // Two back edges to one header form one loop (a `continue`).
  auto M = readModule(R"(
k:
  s_mov_b32 s0, 0
L_head:
  s_add_u32 s0, s0, 1
  s_cmp_eq_u32 s0, 3
  s_cbranch_scc1 L_head
L_body:
  s_cmp_lt_u32 s0, 9
  s_cbranch_scc1 L_head
L_exit:
  s_endpgm
)");
  ASSERT_TRUE(M);
  Function &F = *M->entry();
  BasicBlock *Head = blockOf(*M, "L_head"), *Body = blockOf(*M, "L_body");
  DominatorTree DT(F);
  LoopInfo LI(F, DT);
  ASSERT_EQ(LI.numLoops(), 1u);
  Loop *L = LI.topLevelLoops().front();
  EXPECT_EQ(L->latches(), (std::vector<BasicBlock *>{Head, Body}));
  EXPECT_EQ(L->blocks(), (std::vector<BasicBlock *>{Head, Body}));
  EXPECT_EQ(L->exitingBlocks(), (std::vector<BasicBlock *>{Body}));
}

TEST(LoopInfoTest, IrreducibleCycleIsNoLoop) {
  // L_a and L_b form a cycle entered at both blocks: neither dominates the
  // other, so there is no back edge.
  auto M = readModule(R"(
k:
  s_cmp_eq_u32 s0, 0
  s_cbranch_scc1 L_b
L_a:
  s_cmp_eq_u32 s1, 0
  s_cbranch_scc1 L_exit
L_b:
  s_add_u32 s1, s1, 1
  s_branch L_a
L_exit:
  s_endpgm
)");
  ASSERT_TRUE(M);
  Function &F = *M->entry();
  DominatorTree DT(F);
  LoopInfo LI(F, DT);
  EXPECT_TRUE(LI.empty());
  EXPECT_EQ(LI.loopFor(blockOf(*M, "L_a")), nullptr);
}

TEST(LoopInfoTest, AnalysisManager) {
  auto M = readModule(CountedLoopKernel);
  ASSERT_TRUE(M);
  Function &F = *M->entry();
  AnalysisManager AM;
  llvm::cantFail(AM.getResult<DominatorTreeAnalysis>(F));
  LoopInfo &LI = llvm::cantFail(AM.getResult<LoopAnalysis>(F));
  EXPECT_EQ(LI.numLoops(), 1u);
  EXPECT_EQ(&llvm::cantFail(AM.getResult<LoopAnalysis>(F)), &LI);
  EXPECT_EQ(AM.computations(), 2u);
  // Without a cached tree, LoopAnalysis builds its own.
  AnalysisManager Fresh;
  EXPECT_EQ(llvm::cantFail(Fresh.getResult<LoopAnalysis>(F)).numLoops(), 1u);
}

} // namespace
