//===- CallInvalidationTest.cpp - A callee edit invalidates its callers ----===//
#include "analysis/AnalysisTestModules.h"
#include "stinkytofu/analysis/CallGraph.h"
#include "stinkytofu/analysis/Liveness.h"
#include "stinkytofu/ir/Modifier.h"

#include "gtest/gtest.h"

using namespace stinkytofu;
using namespace stinkytofu::analysistest;

namespace {

// k calls f, f calls g; h calls nothing.
const char *const Chain = R"(
.type k,@function
k:
  s_getpc_b64 s[4:5]
  s_swappc_b64 s[30:31], s[4:5]
  s_endpgm
.type f,@function
f:
  s_getpc_b64 s[6:7]
  s_swappc_b64 s[32:33], s[6:7]
  s_setpc_b64 s[30:31]
.type g,@function
g:
  v_mov_b32 v1, v2
  s_setpc_b64 s[32:33]
.type h,@function
h:
  v_mov_b32 v3, v4
  s_setpc_b64 s[30:31]
)";

ReadOptions chainCalls() {
  ReadOptions Opts;
  Opts.BeforeCFG = [](Module &M) {
    instOf(M, "s_swappc_b64", 0)->setModifier(std::make_unique<CallTargetData>(
        std::vector<std::string>{"f"}));
    instOf(M, "s_swappc_b64", 1)->setModifier(std::make_unique<CallTargetData>(
        std::vector<std::string>{"g"}));
  };
  return Opts;
}

TEST(CallInvalidationTest, CalleesAreFollowedTransitively) {
  auto M = readModule(Chain, chainCalls());
  ASSERT_TRUE(M);
  CallGraph CG(*M);
  auto Callees = CG.transitiveCallees(*functionOf(*M, "k"));
  ASSERT_EQ(Callees.size(), 2u);
  EXPECT_EQ(Callees[0]->name(), "f");
  EXPECT_EQ(Callees[1]->name(), "g");
  EXPECT_TRUE(CG.transitiveCallees(*functionOf(*M, "h")).empty());
}

TEST(CallInvalidationTest, TheCallGraphIsAModuleResultAnyFunctionEditDrops) {
  auto M = readModule(Chain, chainCalls());
  ASSERT_TRUE(M);
  AnalysisManager AM;
  CallGraph &CG = AM.getModuleResult<CallGraphAnalysis>(*M);
  EXPECT_EQ(&AM.getModuleResult<CallGraphAnalysis>(*M), &CG);
  EXPECT_EQ(AM.computations(), 1u);
  ASSERT_EQ(CG.callees(*functionOf(*M, "f")).size(), 1u);
  // Preserved: kept. Not preserved by an edit of any function: recomputed.
  AM.invalidate(*functionOf(*M, "h"), PreservedAnalyses().preserve<CallGraphAnalysis>());
  AM.getModuleResult<CallGraphAnalysis>(*M);
  EXPECT_EQ(AM.computations(), 1u);
  AM.invalidate(*functionOf(*M, "h"), PreservedAnalyses::none());
  AM.getModuleResult<CallGraphAnalysis>(*M);
  EXPECT_EQ(AM.computations(), 2u);
}

TEST(CallInvalidationTest, EditingACalleeDropsItsCallersLiveness) {
  auto M = readModule(Chain, chainCalls());
  ASSERT_TRUE(M);
  Function &K = *functionOf(*M, "k"), &F = *functionOf(*M, "f"), &G = *functionOf(*M, "g"),
           &H = *functionOf(*M, "h");
  AnalysisManager AM;
  for (Function *Fn : {&K, &F, &G, &H})
    llvm::cantFail(AM.getResult<LivenessAnalysis>(*Fn));
  // An unrelated function changes: the callers keep their results.
  AM.invalidate(H, PreservedAnalyses::none());
  EXPECT_EQ(AM.getCachedResult<LivenessAnalysis>(H), nullptr);
  EXPECT_NE(AM.getCachedResult<LivenessAnalysis>(K), nullptr);
  // g changes: f (its caller) and k (through f) read g's body.
  AM.invalidate(G, PreservedAnalyses::none());
  EXPECT_EQ(AM.getCachedResult<LivenessAnalysis>(G), nullptr);
  EXPECT_EQ(AM.getCachedResult<LivenessAnalysis>(F), nullptr);
  EXPECT_EQ(AM.getCachedResult<LivenessAnalysis>(K), nullptr);
}

TEST(CallInvalidationTest, APassThatPreservesLivenessKeepsTheCallers) {
  auto M = readModule(Chain, chainCalls());
  ASSERT_TRUE(M);
  Function &K = *functionOf(*M, "k"), &G = *functionOf(*M, "g");
  AnalysisManager AM;
  llvm::cantFail(AM.getResult<LivenessAnalysis>(K));
  AM.invalidate(G, PreservedAnalyses().preserve<LivenessAnalysis>());
  EXPECT_NE(AM.getCachedResult<LivenessAnalysis>(K), nullptr);
}

} // namespace
