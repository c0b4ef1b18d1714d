//===- CFGValidityTest.cpp - Edits clear the CFG, analyses refuse it -------===//
#include "TestModules.h"
#include "stinkytofu/analysis/AnalysisManager.h"
#include "stinkytofu/analysis/DominatorTree.h"
#include "stinkytofu/analysis/Liveness.h"
#include "stinkytofu/analysis/LoopInfo.h"
#include "stinkytofu/mc/InstBuilder.h"
#include "stinkytofu/stir/StirWriter.h"
#include "stinkytofu/transforms/CFGBuilderPass.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

using namespace stinkytofu;
using llvm::Expected;
using Op = BuildOperand;

namespace {

const char *const CountingLoopKernel = "  .text\n"
                                       "k:\n"
                                       "  s_mov_b32 s4, 0\n"
                                       "L_loop:\n"
                                       "  s_add_u32 s4, s4, 1\n"
                                       "  s_cmp_lt_u32 s4, 8\n"
                                       "  s_cbranch_scc1 L_loop\n"
                                       "  s_endpgm\n";

Instruction &instructionNamed(Function &F, llvm::StringRef Mnemonic) {
  for (BasicBlock &BB : F.blocks())
    for (Instruction &I : BB.instructions())
      if (I.mnemonic() == Mnemonic)
        return I;
  ADD_FAILURE() << "no " << Mnemonic.str();
  return F.blocks().front().instructions().front();
}

std::string stirOf(const Module &M) {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  writeStir(M, OS);
  return Text;
}

/// The error message of an analysis that must fail, or "" when it did not.
template <typename AnalysisT> std::string refusal(Function &F) {
  AnalysisManager AM;
  Expected<typename AnalysisT::Result &> R = AM.template getResult<AnalysisT>(F);
  return R ? std::string() : llvm::toString(R.takeError());
}

TEST(CFGValidityTest, AnalysesOverEdgesRefuseAFunctionWithoutACFG) {
  auto M = test::readAsmText(CountingLoopKernel, "gfx942");
  ASSERT_TRUE(M);
  Function &F = *M->entry();
  EXPECT_FALSE(F.hasValidCFG());
  std::string Message = refusal<LivenessAnalysis>(F);
  EXPECT_NE(Message.find("function 'k': liveness needs its CFG"), std::string::npos) << Message;
  EXPECT_NE(refusal<DominatorTreeAnalysis>(F), "");
  EXPECT_NE(refusal<LoopAnalysis>(F), "");
  buildCFG(F);
  EXPECT_TRUE(F.hasValidCFG());
  EXPECT_EQ(refusal<LivenessAnalysis>(F), "");
  AnalysisManager AM;
  EXPECT_EQ(llvm::cantFail(AM.getResult<LoopAnalysis>(F)).numLoops(), 1u);
}

TEST(CFGValidityTest, InsertingPlainInstructionsKeepsTheCFG) {
  auto M = test::readAsmText(CountingLoopKernel, "gfx942");
  ASSERT_TRUE(M);
  Function &F = *M->entry();
  buildCFG(F);
  InstBuilder B(*M);
  Instruction &Add = instructionNamed(F, "s_add_u32");
  Add.parent()->insert(Add.getIterator(), llvm::cantFail(B.build("s_nop", {Op::imm(0)})));
  // Before the branch that ends the block: the edges stay what they were.
  Instruction &Branch = instructionNamed(F, "s_cbranch_scc1");
  Branch.parent()->insert(Branch.getIterator(), llvm::cantFail(B.build("s_nop", {Op::imm(1)})));
  EXPECT_TRUE(F.hasValidCFG());
  llvm::cantFail(B.rewrite(Add, {Op::sgpr(5), Op::sgpr(5), Op::imm(2)}));
  EXPECT_TRUE(F.hasValidCFG());
}

TEST(CFGValidityTest, EditsThatCanChangeAnEdgeClearTheCFG) {
  auto Fresh = [] {
    auto M = test::readAsmText(CountingLoopKernel, "gfx942");
    buildCFG(*M->entry());
    return M;
  };
  {
    // An instruction after the block's branch.
    auto M = Fresh();
    Function &F = *M->entry();
    InstBuilder B(*M);
    Instruction &Branch = instructionNamed(F, "s_cbranch_scc1");
    Branch.parent()->insert(std::next(Branch.getIterator()),
                            llvm::cantFail(B.build("s_nop", {Op::imm(0)})));
    EXPECT_FALSE(F.hasValidCFG());
    EXPECT_NE(refusal<LivenessAnalysis>(F), "");
  }
  {
    // A new branch in the middle of a block.
    auto M = Fresh();
    Function &F = *M->entry();
    InstBuilder B(*M);
    Instruction &Add = instructionNamed(F, "s_add_u32");
    Add.parent()->insert(Add.getIterator(),
                         llvm::cantFail(B.build("s_branch", {Op::label("L_loop")})));
    EXPECT_FALSE(F.hasValidCFG());
  }
  {
    // A branch given another target.
    auto M = Fresh();
    Function &F = *M->entry();
    InstBuilder B(*M);
    llvm::cantFail(B.rewrite(instructionNamed(F, "s_cbranch_scc1"), {Op::label("k")}));
    EXPECT_FALSE(F.hasValidCFG());
  }
  {
    // The program end removed.
    auto M = Fresh();
    Function &F = *M->entry();
    instructionNamed(F, "s_endpgm").eraseFromParent();
    EXPECT_FALSE(F.hasValidCFG());
  }
  {
    // A block split.
    auto M = Fresh();
    Function &F = *M->entry();
    Instruction &Add = instructionNamed(F, "s_add_u32");
    F.splitBlock(*Add.parent(), Add.getIterator());
    EXPECT_FALSE(F.hasValidCFG());
    buildCFG(F);
    EXPECT_TRUE(F.hasValidCFG());
  }
}

TEST(CFGValidityTest, EdgesReadFromStirAreACFG) {
  auto M = test::readAsmText(CountingLoopKernel, "gfx942");
  ASSERT_TRUE(M);
  // Written before the CFG is built: no edges, no CFG.
  std::string Unbuilt = stirOf(*M);
  buildCFG(*M->entry());
  std::string Built = stirOf(*M);
  auto WithEdges = test::readStirText(Built, "gfx942");
  ASSERT_TRUE(WithEdges);
  EXPECT_TRUE(WithEdges->entry()->hasValidCFG());
  EXPECT_EQ(refusal<LivenessAnalysis>(*WithEdges->entry()), "");
  auto WithoutEdges = test::readStirText(Unbuilt, "gfx942");
  ASSERT_TRUE(WithoutEdges);
  EXPECT_FALSE(WithoutEdges->entry()->hasValidCFG());
}

} // namespace
