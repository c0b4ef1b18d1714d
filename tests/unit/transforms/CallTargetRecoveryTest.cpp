//===- CallTargetRecoveryTest.cpp - Callees of s_swappc_b64 from text -----===//
//
// SGetPositivePCOffset feeding s_swappc_b64 (in the call's block, across
// blocks, through the ActivationType=all dispatch), LLVM's rel32 call
// sequence, calls whose chain crosses an earlier call; the callee bodies
// become callable functions; `.stir` keeps them.
//
//===----------------------------------------------------------------------===//
#include "TransformTestUtil.h"

#include "stinkytofu/analysis/Reachability.h"
#include "stinkytofu/stir/StirWriter.h"
#include "stinkytofu/transforms/CallTargetRecoveryPass.h"
#include "stinkytofu/transforms/LongBranchLoweringPass.h"

using namespace stinkytofu;
using namespace stinkytofu::transformtest;

namespace {

using Names = std::vector<std::string>;

Names functionNames(const Module &M) {
  Names N;
  for (const Function &F : M.functions())
    N.push_back(F.name().str());
  return N;
}

/// Reads \p Text, runs both passes, checks the assembly did not change.
std::unique_ptr<Module> recovered(llvm::StringRef Text, CallTargetStats *Stats = nullptr,
                                  llvm::StringRef Arch = "gfx942") {
  std::unique_ptr<Module> M = read(Text, Arch);
  if (!M)
    return nullptr;
  std::string Before = asmOf(*M);
  lowerLongBranches(*M);
  CallTargetStats S = recoverCallTargets(*M);
  if (Stats)
    *Stats = S;
  EXPECT_EQ(asmOf(*M), Before) << "the pass changed the assembly";
  return M;
}

Names calleesOf(const Instruction *I) { return I ? getCallTargets(*I) : Names{"<null>"}; }

TEST(CallTargetRecoveryTest, AddressInTheCallBlock) {
  CallTargetStats Stats;
  auto M = recovered(R"(k:
  s_getpc_b64 s[12:13]
  s_add_i32 s8, label_Activation_Gelu_VW8, 4
  s_add_u32 s12, s12, s8
  s_addc_u32 s13, s13, 0
  s_swappc_b64 s[58:59], s[12:13]
  s_endpgm
label_Activation_Gelu_VW8:
  v_mul_f32 v4, 0.5, v4
  s_setpc_b64 s[58:59]
)",
                     &Stats);
  ASSERT_TRUE(M);
  EXPECT_EQ(calleesOf(nth(*M, "s_swappc_b64")), Names{"label_Activation_Gelu_VW8"});
  EXPECT_EQ(functionNames(*M), (Names{"k", "label_Activation_Gelu_VW8"}));
  EXPECT_EQ(Stats.Unannotated, 1u);
  EXPECT_EQ(Stats.Resolved, 1u);
  EXPECT_EQ(Stats.FunctionsCreated, 1u);
  // The new function's item comes right after the kernel's.
  ASSERT_GE(M->items().size(), 2u);
  EXPECT_EQ(M->items()[0].Func, &M->functions().front());
  EXPECT_EQ(M->items()[1].Func, &M->functions().back());
  EXPECT_TRUE(M->functions().front().isEntry());
  EXPECT_FALSE(M->functions().back().isEntry());
}

const char *const DispatchAll = R"(.set label_ActivationSetPCAddrEnd, label_GW_B0_E0
k:
  s_cmpk_eq_u32 s20, 1
  s_cbranch_scc1 label_To_Activation_Abs_VW1
  s_cmpk_eq_u32 s20, 5
  s_cbranch_scc1 label_To_Activation_Relu_VW1
  s_cmpk_eq_u32 s20, 6
  s_cbranch_scc1 label_To_Activation_None_VW1_1
label_To_Activation_None_VW1:
  s_getpc_b64 s[10:11]
  s_add_i32 s9, label_Activation_None_VW1, 0x4
  s_add_u32 s10, s10, s9
  s_addc_u32 s11, s11, 0
  s_branch label_ActivationSetPCAddrEnd
label_To_Activation_Abs_VW1:
  s_getpc_b64 s[10:11]
  s_add_i32 s9, label_Activation_Abs_VW1, 0x4
  s_add_u32 s10, s10, s9
  s_addc_u32 s11, s11, 0
  s_branch label_ActivationSetPCAddrEnd
label_To_Activation_Relu_VW1:
  s_getpc_b64 s[10:11]
  s_add_i32 s9, label_Activation_Relu_VW1, 0x4
  s_add_u32 s10, s10, s9
  s_addc_u32 s11, s11, 0
  s_branch label_ActivationSetPCAddrEnd
label_To_Activation_None_VW1_1:
  s_getpc_b64 s[10:11]
  s_add_i32 s9, label_Activation_None_VW1, 0x4
  s_add_u32 s10, s10, s9
  s_addc_u32 s11, s11, 0
  s_branch label_ActivationSetPCAddrEnd
label_GW_B0_E0:
  s_swappc_b64 s[62:63], s[10:11]
  global_store_dword v2, v4, s[4:5]
  s_swappc_b64 s[62:63], s[10:11]
  s_endpgm
label_Activation_None_VW1:
  s_setpc_b64 s[62:63]
label_Activation_Abs_VW1:
  v_and_b32 v4, 0x7fffffff, v4
  s_setpc_b64 s[62:63]
label_Activation_Relu_VW1:
  v_max_f32 v4, v4, 0
  s_setpc_b64 s[62:63]
)";

TEST(CallTargetRecoveryTest, ActivationTypeAllDispatchGivesEveryCallee) {
  auto M = recovered(DispatchAll);
  ASSERT_TRUE(M);
  // Deduplicated, in the order the reaching chains were found.
  const Names All{"label_Activation_None_VW1", "label_Activation_Abs_VW1",
                  "label_Activation_Relu_VW1"};
  EXPECT_EQ(calleesOf(nth(*M, "s_swappc_b64", 0)), All);
  // The second call's chain crosses the first call: its callees are known
  // functions that do not write s[10:11].
  EXPECT_EQ(calleesOf(nth(*M, "s_swappc_b64", 1)), All);
  EXPECT_EQ(functionNames(*M), (Names{"k", "label_Activation_None_VW1",
                                      "label_Activation_Abs_VW1", "label_Activation_Relu_VW1"}));
  for (Function &F : M->functions())
    EXPECT_TRUE(unreachableBlocks(F).empty()) << F.name().str();
}

TEST(CallTargetRecoveryTest, CalleeThatWritesThePairStopsTheNextProof) {
  std::string Text = DispatchAll;
  Text.replace(Text.find("  v_max_f32 v4, v4, 0\n"), strlen("  v_max_f32 v4, v4, 0\n"),
               "  v_max_f32 v4, v4, 0\n  s_mov_b32 s11, 0\n");
  auto M = recovered(Text);
  ASSERT_TRUE(M);
  EXPECT_EQ(calleesOf(nth(*M, "s_swappc_b64", 0)).size(), 3u);
  EXPECT_TRUE(calleesOf(nth(*M, "s_swappc_b64", 1)).empty());
}

TEST(CallTargetRecoveryTest, UnknownEarlierCallClobbersEverything) {
  auto M = recovered(R"(k:
  s_getpc_b64 s[12:13]
  s_add_i32 s8, label_Act, 4
  s_add_u32 s12, s12, s8
  s_addc_u32 s13, s13, 0
  s_load_dwordx2 s[20:21], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  s_swappc_b64 s[30:31], s[20:21]
  s_swappc_b64 s[30:31], s[12:13]
  s_endpgm
label_Act:
  s_setpc_b64 s[30:31]
)");
  ASSERT_TRUE(M);
  EXPECT_TRUE(calleesOf(nth(*M, "s_swappc_b64", 0)).empty());
  EXPECT_TRUE(calleesOf(nth(*M, "s_swappc_b64", 1)).empty());
  EXPECT_EQ(functionNames(*M), Names{"k"});
}

TEST(CallTargetRecoveryTest, BrokenChainGivesNoCallee) {
  auto M = recovered(R"(k:
  s_getpc_b64 s[12:13]
  s_add_i32 s8, label_Act, 4
  s_add_u32 s12, s12, s9
  s_addc_u32 s13, s13, 0
  s_swappc_b64 s[30:31], s[12:13]
  s_endpgm
label_Act:
  s_setpc_b64 s[30:31]
)");
  ASSERT_TRUE(M);
  EXPECT_TRUE(calleesOf(nth(*M, "s_swappc_b64")).empty());
  EXPECT_EQ(functionNames(*M), Names{"k"});
}

TEST(CallTargetRecoveryTest, LLVMRel32CallSequence) {
  auto M = recovered(R"(	.text
	.p2align 2
	.type scale,@function
scale:
	v_mul_lo_u32 v0, v0, v1
	s_setpc_b64 s[30:31]
	.globl k
	.p2align 8
	.type k,@function
k:
	s_getpc_b64 s[2:3]
	s_add_u32 s2, s2, scale@rel32@lo+4
	s_addc_u32 s3, s3, scale@rel32@hi+12
	s_swappc_b64 s[30:31], s[2:3]
	v_add_u32_e32 v1, 1, v0
	s_swappc_b64 s[30:31], s[2:3]
	s_endpgm
)");
  ASSERT_TRUE(M);
  EXPECT_EQ(calleesOf(nth(*M, "s_swappc_b64", 0)), Names{"scale"});
  // scale writes v0 only: the address survives the first call.
  EXPECT_EQ(calleesOf(nth(*M, "s_swappc_b64", 1)), Names{"scale"});
  EXPECT_EQ(functionNames(*M), (Names{"scale", "k"})); // already functions
}

// --- LLVM call sequences of gfx12 and gfx1250 --------------------------------

/// The module of `scale` (which writes v0 only) and kernel `k` whose body
/// is \p Body, for \p Gfx, after both passes.
std::unique_ptr<Module> llvmCalls(llvm::StringRef Gfx, llvm::StringRef Body) {
  llvm::StringRef Return = Gfx == "gfx1250" ? "s_set_pc_i64" : "s_setpc_b64";
  std::string Text = ("\t.text\n\t.type scale,@function\nscale:\n\tv_mul_lo_u32 v0, v0, v1\n\t" +
                      Return + " s[30:31]\n\t.type k,@function\nk:\n" + Body + "\ts_endpgm\n")
                         .str();
  return recovered(Text, nullptr, Gfx);
}

TEST(CallTargetRecoveryTest, Gfx12CallSequence) {
  // clang-22 for gfx1200/gfx1201: the high half is sign-extended, waits sit
  // between the adds, and each addend is its literal's distance from the PC.
  auto M = llvmCalls("gfx1200", R"(	s_getpc_b64 s[0:1]
	s_wait_alu depctr_sa_sdst(0)
	s_sext_i32_i16 s1, s1
	s_add_co_u32 s0, s0, scale@rel32@lo+12
	s_wait_alu depctr_sa_sdst(0)
	s_add_co_ci_u32 s1, s1, scale@rel32@hi+24
	s_swappc_b64 s[30:31], s[0:1]
	s_getpc_b64 s[2:3]
	s_sext_i32_i16 s3, s3
	s_add_co_u32 s2, s2, scale@rel32@lo+8
	s_add_co_ci_u32 s3, s3, scale@rel32@hi+16
	s_swappc_b64 s[30:31], s[2:3]
)");
  ASSERT_TRUE(M);
  EXPECT_EQ(calleesOf(nth(*M, "s_swappc_b64", 0)), Names{"scale"});
  EXPECT_EQ(calleesOf(nth(*M, "s_swappc_b64", 1)), Names{"scale"});
}

TEST(CallTargetRecoveryTest, Gfx1250CallSequence) {
  auto M = llvmCalls("gfx1250", R"(	s_get_pc_i64 s[0:1]
	s_add_nc_u64 s[0:1], s[0:1], scale@rel64+4
	s_swap_pc_i64 s[30:31], s[0:1]
	s_get_pc_i64 s[2:3]
	s_wait_xcnt 0x0
	s_add_nc_u64 s[2:3], s[2:3], scale@rel64+8
	s_swap_pc_i64 s[30:31], s[2:3]
)");
  ASSERT_TRUE(M);
  EXPECT_EQ(calleesOf(nth(*M, "s_swap_pc_i64", 0)), Names{"scale"});
  EXPECT_EQ(calleesOf(nth(*M, "s_swap_pc_i64", 1)), Names{"scale"});
  EXPECT_EQ(functionNames(*M), (Names{"scale", "k"}));
}

struct BrokenCall {
  const char *Name, *Gfx, *Body;
};

class LLVMCallNoMatchTest : public testing::TestWithParam<BrokenCall> {};

TEST_P(LLVMCallNoMatchTest, LeavesTheCallUnannotated) {
  auto M = llvmCalls(GetParam().Gfx, GetParam().Body);
  ASSERT_TRUE(M);
  for (const char *Call : {"s_swappc_b64", "s_swap_pc_i64"})
    for (Instruction *I : all(*M, Call))
      EXPECT_TRUE(getCallTargets(*I).empty());
}

const BrokenCall BrokenCalls[] = {
    {"LowAddendIsNotTheLiteralDistance", "gfx1200", R"(	s_getpc_b64 s[0:1]
	s_wait_alu depctr_sa_sdst(0)
	s_add_co_u32 s0, s0, scale@rel32@lo+4
	s_add_co_ci_u32 s1, s1, scale@rel32@hi+12
	s_swappc_b64 s[30:31], s[0:1]
)"},
    {"HighAddendIsNotTheLiteralDistance", "gfx1200", R"(	s_getpc_b64 s[0:1]
	s_add_co_u32 s0, s0, scale@rel32@lo+4
	s_wait_alu depctr_sa_sdst(0)
	s_add_co_ci_u32 s1, s1, scale@rel32@hi+12
	s_swappc_b64 s[30:31], s[0:1]
)"},
    {"HalvesNameDifferentSymbols", "gfx942", R"(	s_getpc_b64 s[0:1]
	s_add_u32 s0, s0, scale@rel32@lo+4
	s_addc_u32 s1, s1, k@rel32@hi+12
	s_swappc_b64 s[30:31], s[0:1]
)"},
    {"SpecifiersSwapped", "gfx942", R"(	s_getpc_b64 s[0:1]
	s_add_u32 s0, s0, scale@rel32@hi+4
	s_addc_u32 s1, s1, scale@rel32@lo+12
	s_swappc_b64 s[30:31], s[0:1]
)"},
    {"SignExtensionOfAnotherRegister", "gfx1200", R"(	s_getpc_b64 s[0:1]
	s_sext_i32_i16 s1, s2
	s_add_co_u32 s0, s0, scale@rel32@lo+8
	s_add_co_ci_u32 s1, s1, scale@rel32@hi+16
	s_swappc_b64 s[30:31], s[0:1]
)"},
    {"Rel64AddendIsNotTheLiteralDistance", "gfx1250", R"(	s_get_pc_i64 s[0:1]
	s_wait_xcnt 0x0
	s_add_nc_u64 s[0:1], s[0:1], scale@rel64+4
	s_swap_pc_i64 s[30:31], s[0:1]
)"},
    {"Rel64AddsToAnotherPair", "gfx1250", R"(	s_get_pc_i64 s[2:3]
	s_add_nc_u64 s[0:1], s[0:1], scale@rel64+4
	s_swap_pc_i64 s[30:31], s[0:1]
)"},
    {"Rel64WithoutPCRead", "gfx1250", R"(	s_mov_b64 s[0:1], 0
	s_add_nc_u64 s[0:1], s[0:1], scale@rel64+4
	s_swap_pc_i64 s[30:31], s[0:1]
)"},
};

INSTANTIATE_TEST_SUITE_P(Chains, LLVMCallNoMatchTest, testing::ValuesIn(BrokenCalls),
                         [](const testing::TestParamInfo<BrokenCall> &I) {
                           return std::string(I.param.Name);
                         });

// --- A call address spilled to VGPR lanes (-O0) -----------------------------

/// clang-22 -O0: the address is saved in lanes 14/15 of v6 across the first
/// call and read back for the second; \p Between goes right before the
/// read-back.
std::unique_ptr<Module> spilledAddress(llvm::StringRef Between,
                                       llvm::StringRef ReadBack = R"(	v_readlane_b32 s0, v6, 14
	v_readlane_b32 s1, v6, 15
)") {
  return llvmCalls("gfx942", (R"(	s_getpc_b64 s[0:1]
	s_add_u32 s0, s0, scale@rel32@lo+4
	s_addc_u32 s1, s1, scale@rel32@hi+12
	v_writelane_b32 v6, s0, 14
	s_nop 1
	v_writelane_b32 v6, s1, 15
	s_swappc_b64 s[30:31], s[0:1]
)" + Between + ReadBack + "\ts_swappc_b64 s[30:31], s[0:1]\n")
                                 .str());
}

TEST(CallTargetRecoveryTest, AddressReadBackFromVgprLanes) {
  // Writes to other lanes of v6 keep lanes 14 and 15.
  auto M = spilledAddress("\tv_writelane_b32 v6, s5, 3\n");
  ASSERT_TRUE(M);
  EXPECT_EQ(calleesOf(nth(*M, "s_swappc_b64", 0)), Names{"scale"});
  EXPECT_EQ(calleesOf(nth(*M, "s_swappc_b64", 1)), Names{"scale"});
}

TEST(CallTargetRecoveryTest, OverwrittenLaneBreaksTheSpill) {
  auto M = spilledAddress("\tv_writelane_b32 v6, s5, 14\n");
  ASSERT_TRUE(M);
  EXPECT_EQ(calleesOf(nth(*M, "s_swappc_b64", 0)), Names{"scale"});
  EXPECT_TRUE(calleesOf(nth(*M, "s_swappc_b64", 1)).empty());
}

TEST(CallTargetRecoveryTest, SwappedLanesBreakThePair) {
  auto M = spilledAddress("", R"(	v_readlane_b32 s0, v6, 15
	v_readlane_b32 s1, v6, 14
)");
  ASSERT_TRUE(M);
  EXPECT_TRUE(calleesOf(nth(*M, "s_swappc_b64", 1)).empty());
}

TEST(CallTargetRecoveryTest, WholeVgprWriteBreaksTheSpill) {
  auto M = spilledAddress("\tv_mov_b32 v6, 0\n");
  ASSERT_TRUE(M);
  EXPECT_TRUE(calleesOf(nth(*M, "s_swappc_b64", 1)).empty());
}

TEST(CallTargetRecoveryTest, CalleeReachedByFallThroughStaysInPlace) {
  CallTargetStats Stats;
  auto M = recovered(R"(k:
  s_getpc_b64 s[12:13]
  s_add_i32 s8, label_Shared, 4
  s_add_u32 s12, s12, s8
  s_addc_u32 s13, s13, 0
  s_swappc_b64 s[30:31], s[12:13]
  s_nop 0
label_Shared:
  s_endpgm
)",
                     &Stats);
  ASSERT_TRUE(M);
  EXPECT_EQ(calleesOf(nth(*M, "s_swappc_b64")), Names{"label_Shared"});
  EXPECT_EQ(Stats.FunctionsCreated, 0u);
  EXPECT_EQ(functionNames(*M), Names{"k"});
}

TEST(CallTargetRecoveryTest, Idempotent) {
  auto M = recovered(DispatchAll);
  ASSERT_TRUE(M);
  std::string Before = asmOf(*M);
  CallTargetStats Again = recoverCallTargets(*M);
  EXPECT_EQ(Again.Unannotated, 0u);
  EXPECT_EQ(Again.FunctionsCreated, 0u);
  EXPECT_EQ(functionNames(*M).size(), 4u);
  EXPECT_EQ(asmOf(*M), Before);
}

TEST(CallTargetRecoveryTest, StirKeepsTheCallables) {
  auto M = recovered(DispatchAll);
  ASSERT_TRUE(M);
  std::string Stir;
  llvm::raw_string_ostream OS(Stir);
  writeStir(*M, OS);
  EXPECT_NE(Stir.find("st.func @label_Activation_Abs_VW1()"), std::string::npos);

  auto Back = test::readStirText(Stir, "gfx942");
  ASSERT_TRUE(Back);
  EXPECT_EQ(functionNames(*Back), functionNames(*M));
  EXPECT_FALSE(Back->findFunction("label_Activation_Abs_VW1")->isEntry());
  EXPECT_EQ(asmOf(*Back), asmOf(*M));
  std::string Again;
  llvm::raw_string_ostream OS2(Again);
  writeStir(*Back, OS2);
  EXPECT_EQ(Again, Stir);
}

} // namespace
