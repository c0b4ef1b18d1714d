//===- ModuleStatsTest.cpp - Per-function control-flow counts --------------===//
#include "stinkytofu/analysis/ModuleStats.h"
#include "TestModules.h"
#include "stinkytofu/analysis/CfgDotWriter.h"
#include "stinkytofu/transforms/CFGBuilderPass.h"
#include "gtest/gtest.h"

using namespace stinkytofu;

namespace {

// A long branch (without LabelData as read), a dead block, a call, and a
// callable whose return is not a long branch.
const char *BranchesAndCallsKernel = "\t.amdgcn_target \"amdgcn-amd-amdhsa--gfx1250\"\n"
                                     "\t.text\n"
                                     "\t.globl k\n"
                                     "\t.type k,@function\n"
                                     "k:\n"
                                     "\ts_getpc_b64 s[80:81]\n"
                                     "\ts_add_i32 s82, label_End, 0x4\n"
                                     "\ts_add_u32 s80, s80, s82\n"
                                     "\ts_addc_u32 s81, s81, 0\n"
                                     "\ts_setpc_b64 s[80:81]\n"
                                     "label_Dead:\n"
                                     "\ts_nop 0\n"
                                     "label_End:\n"
                                     "\ts_swappc_b64 s[30:31], s[12:13]\n"
                                     "\ts_endpgm\n"
                                     ".Lfunc_end0:\n"
                                     "\t.size k, .Lfunc_end0-k\n"
                                     "\t.type f,@function\n"
                                     "f:\n"
                                     "\ts_setpc_b64 s[30:31]\n"
                                     ".Lfunc_end1:\n"
                                     "\t.size f, .Lfunc_end1-f\n";

std::unique_ptr<Module> readWithCFG() {
  auto M = test::readAsmText(BranchesAndCallsKernel);
  if (!M)
    return nullptr;
  for (Function &F : M->functions())
    buildCFG(F);
  return M;
}

Instruction &firstNamed(Module &M, llvm::StringRef Mnemonic) {
  for (Function &F : M.functions())
    for (BasicBlock &BB : F.blocks())
      for (Instruction &I : BB.instructions())
        if (I.mnemonic() == Mnemonic)
          return I;
  ADD_FAILURE() << Mnemonic.str();
  return M.functions().front().blocks().front().instructions().front();
}

TEST(ModuleStatsTest, CountsFollowTheMetadata) {
  auto M = readWithCFG();
  ASSERT_TRUE(M);
  ModuleStats S = computeModuleStats(*M);
  ASSERT_EQ(S.Functions.size(), 2u);
  const FunctionStats &K = S.Functions[0];
  EXPECT_EQ(K.Function, "k");
  EXPECT_EQ(K.Blocks, 3u);
  EXPECT_EQ(K.Edges, 1u); // label_Dead -> label_End
  EXPECT_EQ(K.LongBranches, 1u);
  EXPECT_EQ(K.LongBranchesResolved, 0u);
  EXPECT_EQ(K.Calls, 1u);
  EXPECT_EQ(K.CallsWithKnownTargets, 0u);
  EXPECT_EQ(K.UnreachableBlocks, 2u);
  const FunctionStats &F = S.Functions[1];
  EXPECT_EQ(F.Function, "f");
  EXPECT_EQ(F.LongBranches, 0u) << "a callable's return is not a long branch";

  firstNamed(*M, "s_setpc_b64").setModifier(std::make_unique<LabelData>("label_End"));
  firstNamed(*M, "s_swappc_b64")
      .setModifier(std::make_unique<CallTargetData>(std::vector<std::string>{"f"}));
  for (Function &Fn : M->functions())
    buildCFG(Fn);
  S = computeModuleStats(*M);
  EXPECT_EQ(S.Functions[0].Edges, 2u);
  EXPECT_EQ(S.Functions[0].LongBranchesResolved, 1u);
  EXPECT_EQ(S.Functions[0].CallsWithKnownTargets, 1u);
  EXPECT_EQ(S.Functions[0].UnreachableBlocks, 1u);

  FunctionStats T = S.total();
  EXPECT_EQ(T.Function, "<total>");
  EXPECT_EQ(T.Blocks, 4u);
  EXPECT_EQ(T.Edges, 2u);

  std::string Out;
  llvm::raw_string_ostream OS(Out);
  printModuleStats(S, OS);
  EXPECT_EQ(Out, "function  blocks  edges  long-branches  resolved  calls  known-callee  "
                 "unreachable\n"
                 "k              3      2              1         1      1             1       "
                 "     1\n"
                 "f              1      0              0         0      0             0       "
                 "     0\n"
                 "<total>        4      2              1         1      1             1       "
                 "     1\n");
}

TEST(CfgDotWriterTest, EdgeKindsAndQuoting) {
  EXPECT_EQ(edgeKindName(EdgeKind::Branch), "branch");
  EXPECT_EQ(edgeKindName(EdgeKind::FallThrough), "fall-through");
  EXPECT_EQ(edgeKindName(EdgeKind::LongBranch), "long-branch");

  auto M = readWithCFG();
  ASSERT_TRUE(M);
  firstNamed(*M, "s_setpc_b64").setModifier(std::make_unique<LabelData>("label_End"));
  for (Function &Fn : M->functions())
    buildCFG(Fn);
  M->setName("a\"b");
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  writeCfgDot(*M, OS);
  EXPECT_EQ(Out.rfind("digraph \"a\\\"b\" {\n", 0), 0u) << Out;
  EXPECT_NE(Out.find("    \"f0.k\" -> \"f0.label_End\" [label=\"long-branch\", style=bold, "
                     "color=blue];\n"),
            std::string::npos)
      << Out;
  EXPECT_NE(Out.find("    \"f0.label_Dead\" [label=\"label_Dead\", style=filled"),
            std::string::npos)
      << Out;
  EXPECT_NE(Out.find("  subgraph \"cluster_1\" {\n    label=\"f\";\n"), std::string::npos)
      << Out;
}

} // namespace
