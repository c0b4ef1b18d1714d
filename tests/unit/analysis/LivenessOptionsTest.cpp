//===- LivenessOptionsTest.cpp - What is live after returns and calls -----===//
#include "analysis/AnalysisTestModules.h"
#include "stinkytofu/analysis/Liveness.h"
#include "stinkytofu/ir/Modifier.h"

#include "gtest/gtest.h"

using namespace stinkytofu;
using namespace stinkytofu::analysistest;

namespace {

// f is a callable function (the module's first function is its entry).
const char *const CallableWithMoves = R"(
.type k,@function
k:
  s_endpgm
.type f,@function
f:
  s_mov_b32 s5, 1
  v_mov_b32 v1, s6
  s_setpc_b64 s[30:31]
)";

TEST(LivenessOptionsTest, EverythingLiveAfterReturnByDefault) {
  auto M = readModule(CallableWithMoves);
  ASSERT_TRUE(M);
  Liveness L(*functionOf(*M, "f"));
  Instruction *Mov = instOf(*M, "s_mov_b32");
  EXPECT_TRUE(L.isLiveAfter(*Mov, sgpr(*M, 5)));
  EXPECT_TRUE(L.isLiveAfter(*instOf(*M, "s_setpc_b64"), "M0"));
}

TEST(LivenessOptionsTest, LiveAfterReturn) {
  auto M = readModule(CallableWithMoves);
  ASSERT_TRUE(M);
  Function &F = *functionOf(*M, "f");
  LivenessOptions Opts;
  RegisterUnits RU(M->target());
  Opts.LiveAfterReturn = RU.none();
  RU.set(*Opts.LiveAfterReturn, vgpr(*M, 1));
  Liveness L(F, Opts);
  Instruction *Mov = instOf(*M, "s_mov_b32"), *Ret = instOf(*M, "s_setpc_b64");
  EXPECT_EQ(L.units().describe(L.liveAfter(*Ret)), "v1");
  EXPECT_FALSE(L.isLiveAfter(*Mov, sgpr(*M, 5)));
  EXPECT_TRUE(L.isLiveAfter(*Mov, sgpr(*M, 6)));
  EXPECT_TRUE(L.isLiveAfter(*Mov, "SGPR30_SGPR31"));
  EXPECT_FALSE(L.isLiveAfter(*Mov, vgpr(*M, 1)));
  EXPECT_EQ(L.units().describe(L.liveIn(*blockOf(*M, "f"))), "exec_lo exec_hi s6 s30 s31");
}

// The callee f writes v0 on every path; k reads v0 after the call.
const char *const V0WritingCallKernel = R"(
.type k,@function
k:
  s_getpc_b64 s[4:5]
  s_swappc_b64 s[30:31], s[4:5]
  v_add_f32 v2, v0, v0
  s_endpgm
.type f,@function
f:
  v_mov_b32 v0, 0
  s_setpc_b64 s[30:31]
)";

TEST(LivenessOptionsTest, CallsEndLiveness) {
  ReadOptions Opts;
  Opts.BeforeCFG = [](Module &M) {
    instOf(M, "s_swappc_b64")->setModifier(std::make_unique<CallTargetData>(
        std::vector<std::string>{"f"}));
  };
  auto M = readModule(V0WritingCallKernel, Opts);
  ASSERT_TRUE(M);
  Function &K = *functionOf(*M, "k");
  Instruction *Call = instOf(*M, "s_swappc_b64");
  Liveness Ending(K);
  EXPECT_TRUE(Ending.isLiveAfter(*Call, vgpr(*M, 0)));
  EXPECT_FALSE(Ending.isLiveBefore(*Call, vgpr(*M, 0))); // f writes it first
  EXPECT_FALSE(Ending.isLiveBefore(*Call, "SGPR30_SGPR31")); // the call's own def

  LivenessOptions NoKill;
  NoKill.CallsEndLiveness = false;
  Liveness Keeping(K, NoKill);
  EXPECT_TRUE(Keeping.isLiveBefore(*Call, vgpr(*M, 0)));
  // What the call reads is the same either way.
  EXPECT_TRUE(Keeping.readsOf(*Call) == Ending.readsOf(*Call));
}

} // namespace
