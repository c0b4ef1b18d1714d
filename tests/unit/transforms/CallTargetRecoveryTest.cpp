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
#include "stinkytofu/parse/StirReader.h"
#include "stinkytofu/print/StirWriter.h"
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
std::unique_ptr<Module> recovered(llvm::StringRef Text, CallTargetStats *Stats = nullptr) {
  std::unique_ptr<Module> M = read(Text);
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

  ReaderOptions RO;
  RO.Arch = "gfx942";
  auto Back = readStir(llvm::MemoryBuffer::getMemBufferCopy(Stir, "t.stir"), RO);
  ASSERT_TRUE(bool(Back)) << llvm::toString(Back.takeError());
  EXPECT_EQ(functionNames(**Back), functionNames(*M));
  EXPECT_FALSE((*Back)->findFunction("label_Activation_Abs_VW1")->isEntry());
  EXPECT_EQ(asmOf(**Back), asmOf(*M));
  std::string Again;
  llvm::raw_string_ostream OS2(Again);
  writeStir(**Back, OS2);
  EXPECT_EQ(Again, Stir);
}

} // namespace
