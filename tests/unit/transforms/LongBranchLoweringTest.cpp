//===- LongBranchLoweringTest.cpp - Long-branch idioms get their target ---===//
//
// Every variant of shared asm-ir-reference section 5 (V1-V7, LLVM's own
// relaxation, `.set` aliases) is annotated; every broken or ambiguous chain
// is not. The pass never changes the assembly.
//
//===----------------------------------------------------------------------===//
#include "TransformTestUtil.h"

#include "stinkytofu/analysis/Reachability.h"
#include "stinkytofu/passes/PassRegistry.h"
#include "stinkytofu/transforms/LongBranchLoweringPass.h"

using namespace stinkytofu;
using namespace stinkytofu::transformtest;

namespace {

/// Reads \p Text, runs the pass, checks the assembly did not change.
std::unique_ptr<Module> lowered(llvm::StringRef Text, llvm::StringRef Arch = "gfx942") {
  std::unique_ptr<Module> M = read(Text, Arch);
  if (!M)
    return nullptr;
  std::string Before = asmOf(*M);
  lowerLongBranches(*M);
  EXPECT_EQ(asmOf(*M), Before) << "the pass changed the assembly";
  return M;
}

unsigned unreachable(Module &M) {
  unsigned N = 0;
  for (Function &F : M.functions())
    N += unreachableBlocks(F).size();
  return N;
}

// --- V1: SLongBranchPositive ----------------------------------------------

TEST(LongBranchLoweringTest, PositiveForward) {
  auto M = lowered(R"(k:
  s_getpc_b64 s[80:81]
  s_add_i32 s82, label_PrefetchGlobalLastIterEnd, 0x4
  s_add_u32 s80, s80, s82
  s_addc_u32 s81, s81, 0
  s_setpc_b64 s[80:81]
label_Skipped:
  s_nop 0
label_PrefetchGlobalLastIterEnd:
  s_endpgm
)");
  ASSERT_TRUE(M);
  Instruction *SetPC = nth(*M, "s_setpc_b64");
  EXPECT_EQ(labelOf(SetPC), "label_PrefetchGlobalLastIterEnd");
  // The CFG was rebuilt: one long-branch edge, no fall-through.
  const BasicBlock *From = SetPC->parent();
  ASSERT_EQ(succNames(From), std::vector<std::string>{"label_PrefetchGlobalLastIterEnd"});
  EXPECT_EQ(From->successorKinds().front(), EdgeKind::LongBranch);
  EXPECT_EQ(unreachable(*M), 1u); // label_Skipped really is dead
}

TEST(LongBranchLoweringTest, PositiveArmCannotReachBackward) {
  // The add zero-extends the offset: to a label before the anchor it would
  // not land on the label, so nothing is proven.
  auto M = lowered(R"(k:
  s_nop 0
label_Back:
  s_nop 0
  s_getpc_b64 s[80:81]
  s_add_i32 s82, label_Back, 4
  s_add_u32 s80, s80, s82
  s_addc_u32 s81, s81, 0
  s_setpc_b64 s[80:81]
)");
  ASSERT_TRUE(M);
  EXPECT_EQ(labelOf(nth(*M, "s_setpc_b64")), "");
}

TEST(LongBranchLoweringTest, PositiveWithGfx12Mnemonics) {
  // gfx1250 spells the same idiom s_get_pc_i64 / s_add_co_i32 /
  // s_add_co_u32 / s_add_co_ci_u32 / s_set_pc_i64: the MC opcodes match.
  auto M = lowered(R"(k:
  s_get_pc_i64 s[80:81]
  s_add_co_i32 s82, label_End, 4
  s_add_co_u32 s80, s80, s82
  s_add_co_ci_u32 s81, s81, 0
  s_set_pc_i64 s[80:81]
label_Dead:
  s_nop 0
label_End:
  s_endpgm
)",
                   "gfx1250");
  ASSERT_TRUE(M);
  EXPECT_EQ(labelOf(nth(*M, "s_set_pc_i64")), "label_End");
}

// --- V2: SLongBranchNegative ----------------------------------------------

TEST(LongBranchLoweringTest, NegativeBackward) {
  auto M = lowered(R"(k:
  s_mov_b32 s2, 0
label_PersistentLoopStart:
  s_add_u32 s2, s2, 1
  s_getpc_b64 s[4:5]
  s_add_i32 s6, label_PersistentLoopStart, 4
  s_abs_i32 s6, s6
  s_sub_u32 s4, s4, s6
  s_subb_u32 s5, s5, 0
  s_setpc_b64 s[4:5]
)");
  ASSERT_TRUE(M);
  EXPECT_EQ(labelOf(nth(*M, "s_setpc_b64")), "label_PersistentLoopStart");
  EXPECT_EQ(unreachable(*M), 0u);
}

TEST(LongBranchLoweringTest, NegativeArmCannotReachForward) {
  auto M = lowered(R"(k:
  s_getpc_b64 s[4:5]
  s_add_i32 s6, label_Ahead, 4
  s_abs_i32 s6, s6
  s_sub_u32 s4, s4, s6
  s_subb_u32 s5, s5, 0
  s_setpc_b64 s[4:5]
label_Ahead:
  s_endpgm
)");
  ASSERT_TRUE(M);
  EXPECT_EQ(labelOf(nth(*M, "s_setpc_b64")), "");
}

// --- V3: SLongBranch, the two-way form --------------------------------------

const char *const TwoWay = R"(k:
  s_cmp_eq_u32 s5, 0
  s_cbranch_scc0 label_NoBranch_10
  s_getpc_B64 s[68:69]
  s_add_i32 s70, PrefetchGlobalLastIterEnd_4, 0x4
  s_cmp_ge_i32 s70, 0x0
  s_cbranch_scc1 label_Positive_11
  s_abs_i32 s70, s70
  s_sub_u32 s68, s68, s70
  s_subb_u32 s69, s69, 0
  s_setpc_b64 s[68:69]
label_Positive_11:
  s_add_u32 s68, s68, s70
  s_addc_u32 s69, s69, 0
  s_setpc_b64 s[68:69]
label_NoBranch_10:
  s_nop 0
PrefetchGlobalLastIterEnd_4:
  s_endpgm
)";

TEST(LongBranchLoweringTest, TwoWayBothArms) {
  auto M = lowered(TwoWay, "gfx90a");
  ASSERT_TRUE(M);
  // The offset is computed before the compare-and-branch: both arms are
  // followed across blocks. The negative arm is proven by the guard.
  EXPECT_EQ(labelOf(nth(*M, "s_setpc_b64", 0)), "PrefetchGlobalLastIterEnd_4");
  EXPECT_EQ(labelOf(nth(*M, "s_setpc_b64", 1)), "PrefetchGlobalLastIterEnd_4");
  EXPECT_EQ(unreachable(*M), 0u);
}

TEST(LongBranchLoweringTest, TwoWayBackward) {
  auto M = lowered(R"(k:
  s_nop 0
label_Top:
  s_nop 0
  s_getpc_b64 s[68:69]
  s_add_i32 s70, label_Top, 4
  s_cmp_ge_i32 s70, 0
  s_cbranch_scc1 label_Positive_1
  s_abs_i32 s70, s70
  s_sub_u32 s68, s68, s70
  s_subb_u32 s69, s69, 0
  s_setpc_b64 s[68:69]
label_Positive_1:
  s_add_u32 s68, s68, s70
  s_addc_u32 s69, s69, 0
  s_setpc_b64 s[68:69]
)");
  ASSERT_TRUE(M);
  EXPECT_EQ(labelOf(nth(*M, "s_setpc_b64", 0)), "label_Top");
  EXPECT_EQ(labelOf(nth(*M, "s_setpc_b64", 1)), "label_Top");
}

TEST(LongBranchLoweringTest, TwoWayGuardOnOtherRegisterProvesOnlyTheLayoutArm) {
  // The compare tests s71, not the offset: the negative arm's sign is
  // unknown; the positive arm still holds by layout (forward target).
  std::string Text = TwoWay;
  Text.replace(Text.find("s_cmp_ge_i32 s70"), strlen("s_cmp_ge_i32 s70"), "s_cmp_ge_i32 s71");
  auto M = lowered(Text, "gfx90a");
  ASSERT_TRUE(M);
  EXPECT_EQ(labelOf(nth(*M, "s_setpc_b64", 0)), "");
  EXPECT_EQ(labelOf(nth(*M, "s_setpc_b64", 1)), "PrefetchGlobalLastIterEnd_4");
}

// --- V4: conditional wrappers ----------------------------------------------

TEST(LongBranchLoweringTest, ConditionalWrappers) {
  auto M = lowered(R"(k:
  s_cmp_eq_u32 s0, 0
  s_cbranch_scc1 label_NoBranch_8LPIIFXSXDF65T1T_0
  s_getpc_b64 s[80:81]
  s_add_i32 s82, label_Far, 0x4
  s_add_u32 s80, s80, s82
  s_addc_u32 s81, s81, 0
  s_setpc_b64 s[80:81]
label_NoBranch_8LPIIFXSXDF65T1T_0:
  v_cmp_eq_u32 vcc, v0, v1
  s_cbranch_vccz label_NoBranch_2
  s_getpc_b64 s[80:81]
  s_add_i32 s82, k, 0x4
  s_abs_i32 s82, s82
  s_sub_u32 s80, s80, s82
  s_subb_u32 s81, s81, 0
  s_setpc_b64 s[80:81]
label_NoBranch_2:
  s_nop 0
label_Far:
  s_endpgm
)");
  ASSERT_TRUE(M);
  EXPECT_EQ(labelOf(nth(*M, "s_setpc_b64", 0)), "label_Far");
  EXPECT_EQ(labelOf(nth(*M, "s_setpc_b64", 1)), "k");
  // The short branch skips the long one and falls into it.
  EXPECT_EQ(succNames(blockOf(*M, "k")).size(), 2u);
  EXPECT_EQ(unreachable(*M), 0u);
}

// --- V7: older Tensile -----------------------------------------------------

TEST(LongBranchLoweringTest, OldTensileForm) {
  auto M = lowered(R"(k:
  s_cmp_eq_u32 s[5], 0
  s_cbranch_scc0 label_NoBranch_10                   // Only branch on scc1
  s_getpc_B64 s[66:67]                               // addr of next instr
  s_add_u32 s68, PrefetchGlobalLastIterEnd_4, 0x4    // target branch offset
  s_add_u32 s66, s66, s68                            // add target branch offset
  s_addc_u32 s67, 0, s67                             // add high and carry
  s_setpc_b64 s[66:67]                               // branch to PrefetchGlobalLastIterEnd_4
label_NoBranch_10:
  s_nop 0
PrefetchGlobalLastIterEnd_4:
  s_endpgm
)",
                   "gfx900");
  ASSERT_TRUE(M);
  EXPECT_EQ(labelOf(nth(*M, "s_setpc_b64")), "PrefetchGlobalLastIterEnd_4");
  EXPECT_EQ(unreachable(*M), 0u);
}

// --- V6: gfx1250 s_add_pc_i64 ------------------------------------------------

TEST(LongBranchLoweringTest, AddPcRocisaForm) {
  auto M = lowered(R"(k:
  s_add_pc_i64 label_X-.-12
label_Dead:
  s_nop 0
label_X:
  s_endpgm
)",
                   "gfx1250");
  ASSERT_TRUE(M);
  // The label alone, not the expression.
  EXPECT_EQ(labelOf(nth(*M, "s_add_pc_i64")), "label_X");
}

TEST(LongBranchLoweringTest, AddPcLLVMForm) {
  auto M = lowered(R"(k:
  s_add_pc_i64 .LBB0_2-.Lpost_addpc0
.Lpost_addpc0:
.LBB0_1:
  s_nop 0
.LBB0_2:
  s_endpgm
)",
                   "gfx1250");
  ASSERT_TRUE(M);
  EXPECT_EQ(labelOf(nth(*M, "s_add_pc_i64")), ".LBB0_2");
}

TEST(LongBranchLoweringTest, AddPcWrongAnchorIsNotProven) {
  auto M = lowered(R"(k:
  s_add_pc_i64 label_X-.-8
  s_add_pc_i64 label_X-.Lelsewhere
  s_nop 0
.Lelsewhere:
label_X:
  s_endpgm
)",
                   "gfx1250");
  ASSERT_TRUE(M);
  EXPECT_EQ(labelOf(nth(*M, "s_add_pc_i64", 0)), "");
  EXPECT_EQ(labelOf(nth(*M, "s_add_pc_i64", 1)), "");
}

// --- LLVM's own branch relaxation --------------------------------------------

TEST(LongBranchLoweringTest, LLVMRelaxationAcrossPostGetpcLabel) {
  auto M = lowered(R"(k:
  s_cmp_eq_u32 s0, 0
  s_cbranch_scc1 .LBB0_1
; %bb.3:
  s_getpc_b64 s[6:7]
.Lpost_getpc0:
  s_add_u32 s6, s6, (.LBB0_2-.Lpost_getpc0)&4294967295
  s_addc_u32 s7, s7, (.LBB0_2-.Lpost_getpc0)>>32
  s_setpc_b64 s[6:7]
.LBB0_1:
  s_nop 0
.LBB0_2:
  s_endpgm
)");
  ASSERT_TRUE(M);
  EXPECT_EQ(labelOf(nth(*M, "s_setpc_b64")), ".LBB0_2");
  EXPECT_EQ(unreachable(*M), 0u);
}

TEST(LongBranchLoweringTest, LLVMRelaxationNeedsTheLabelRightAfterGetpc) {
  auto M = lowered(R"(k:
  s_getpc_b64 s[6:7]
  s_nop 0
.Lpost_getpc0:
  s_add_u32 s6, s6, (.LBB0_2-.Lpost_getpc0)&4294967295
  s_addc_u32 s7, s7, (.LBB0_2-.Lpost_getpc0)>>32
  s_setpc_b64 s[6:7]
.LBB0_2:
  s_endpgm
)");
  ASSERT_TRUE(M);
  EXPECT_EQ(labelOf(nth(*M, "s_setpc_b64")), "");
}

// --- .set aliases ---------------------------------------------------------

TEST(LongBranchLoweringTest, SetAliasOfLabel) {
  auto M = lowered(R"(.set label_Alias, label_Target
k:
  s_getpc_b64 s[80:81]
  s_add_i32 s82, label_Alias, 4
  s_add_u32 s80, s80, s82
  s_addc_u32 s81, s81, 0
  s_setpc_b64 s[80:81]
label_Target:
  s_endpgm
)");
  ASSERT_TRUE(M);
  EXPECT_EQ(labelOf(nth(*M, "s_setpc_b64")), "label_Target");
}

// --- Chains that do not prove anything ----------------------------------------

struct BrokenChain {
  const char *Name;
  const char *Text;
};

class LongBranchNoMatchTest : public testing::TestWithParam<BrokenChain> {};

TEST_P(LongBranchNoMatchTest, LeavesTheBranchUnannotated) {
  auto M = lowered(GetParam().Text);
  ASSERT_TRUE(M);
  for (Instruction *I : all(*M, "s_setpc_b64"))
    EXPECT_EQ(labelOf(I), "");
}

const BrokenChain Broken[] = {
    {"OffsetInOtherRegister", R"(k:
  s_getpc_b64 s[80:81]
  s_add_i32 s82, label_T, 4
  s_add_u32 s80, s80, s84
  s_addc_u32 s81, s81, 0
  s_setpc_b64 s[80:81]
label_T:
  s_endpgm
)"},
    {"PairNotFromGetpc", R"(k:
  s_getpc_b64 s[90:91]
  s_add_i32 s82, label_T, 4
  s_add_u32 s80, s80, s82
  s_addc_u32 s81, s81, 0
  s_setpc_b64 s[80:81]
label_T:
  s_endpgm
)"},
    {"HighHalfRewritten", R"(k:
  s_getpc_b64 s[80:81]
  s_add_i32 s82, label_T, 4
  s_add_u32 s80, s80, s82
  s_addc_u32 s81, s81, 0
  s_mov_b32 s81, 0
  s_setpc_b64 s[80:81]
label_T:
  s_endpgm
)"},
    {"OffsetRewritten", R"(k:
  s_getpc_b64 s[80:81]
  s_add_i32 s82, label_T, 4
  s_mov_b32 s82, 64
  s_add_u32 s80, s80, s82
  s_addc_u32 s81, s81, 0
  s_setpc_b64 s[80:81]
label_T:
  s_endpgm
)"},
    {"SccClobberedBetweenHalves", R"(k:
  s_getpc_b64 s[80:81]
  s_add_i32 s82, label_T, 4
  s_add_u32 s80, s80, s82
  s_cmp_eq_u32 s0, 0
  s_addc_u32 s81, s81, 0
  s_setpc_b64 s[80:81]
label_T:
  s_endpgm
)"},
    {"GetpcNotAdjacent", R"(k:
  s_getpc_b64 s[80:81]
  s_nop 0
  s_add_i32 s82, label_T, 4
  s_add_u32 s80, s80, s82
  s_addc_u32 s81, s81, 0
  s_setpc_b64 s[80:81]
label_T:
  s_endpgm
)"},
    {"DirectiveBetweenGetpcAndAdd", R"(k:
  s_getpc_b64 s[80:81]
  .p2align 3
  s_add_i32 s82, label_T, 4
  s_add_u32 s80, s80, s82
  s_addc_u32 s81, s81, 0
  s_setpc_b64 s[80:81]
label_T:
  s_endpgm
)"},
    {"BiasNotFour", R"(k:
  s_getpc_b64 s[80:81]
  s_add_i32 s82, label_T, 8
  s_add_u32 s80, s80, s82
  s_addc_u32 s81, s81, 0
  s_setpc_b64 s[80:81]
label_T:
  s_endpgm
)"},
    {"AmbiguousReachingChains", R"(k:
  s_cmp_eq_u32 s0, 0
  s_cbranch_scc1 label_B
  s_getpc_b64 s[80:81]
  s_add_i32 s82, label_T1, 4
  s_add_u32 s80, s80, s82
  s_addc_u32 s81, s81, 0
  s_branch label_Join
label_B:
  s_getpc_b64 s[80:81]
  s_add_i32 s82, label_T2, 4
  s_add_u32 s80, s80, s82
  s_addc_u32 s81, s81, 0
label_Join:
  s_setpc_b64 s[80:81]
label_T1:
  s_nop 0
label_T2:
  s_endpgm
)"},
    {"OneChainIncomplete", R"(k:
  s_cmp_eq_u32 s0, 0
  s_cbranch_scc1 label_Join
  s_getpc_b64 s[80:81]
  s_add_i32 s82, label_T, 4
  s_add_u32 s80, s80, s82
  s_addc_u32 s81, s81, 0
label_Join:
  s_setpc_b64 s[80:81]
label_T:
  s_endpgm
)"},
    {"ReturnThroughLiveIn", R"(k:
  s_nop 0
  s_setpc_b64 s[30:31]
)"},
};

INSTANTIATE_TEST_SUITE_P(Chains, LongBranchNoMatchTest, testing::ValuesIn(Broken),
                         [](const testing::TestParamInfo<BrokenChain> &Info) {
                           return std::string(Info.param.Name);
                         });

TEST(LongBranchLoweringTest, AgreeingReachingChainsProveTheirCommonTarget) {
  auto M = lowered(R"(k:
  s_cmp_eq_u32 s0, 0
  s_cbranch_scc1 label_B
  s_getpc_b64 s[80:81]
  s_add_i32 s82, label_T, 4
  s_add_u32 s80, s80, s82
  s_addc_u32 s81, s81, 0
  s_branch label_Join
label_B:
  s_getpc_b64 s[80:81]
  s_add_i32 s82, label_T, 4
  s_add_u32 s80, s80, s82
  s_addc_u32 s81, s81, 0
label_Join:
  s_setpc_b64 s[80:81]
label_T:
  s_endpgm
)");
  ASSERT_TRUE(M);
  EXPECT_EQ(labelOf(nth(*M, "s_setpc_b64")), "label_T");
}

// --- Pass properties --------------------------------------------------------

TEST(LongBranchLoweringTest, IdempotentAndByteIdentical) {
  auto M = read(TwoWay, "gfx90a");
  ASSERT_TRUE(M);
  std::string Before = asmOf(*M);
  LongBranchStats First = lowerLongBranches(*M);
  EXPECT_EQ(First.Unannotated, 2u);
  EXPECT_EQ(First.Resolved, 2u);
  LongBranchStats Second = lowerLongBranches(*M);
  EXPECT_EQ(Second.Unannotated, 0u);
  EXPECT_EQ(Second.Resolved, 0u);
  EXPECT_EQ(labelOf(nth(*M, "s_setpc_b64", 0)), "PrefetchGlobalLastIterEnd_4");
  EXPECT_EQ(labelOf(nth(*M, "s_setpc_b64", 1)), "PrefetchGlobalLastIterEnd_4");
  EXPECT_EQ(asmOf(*M), Before);
}

TEST(LongBranchLoweringTest, ExistingLabelDataIsKept) {
  auto M = read(TwoWay, "gfx90a");
  ASSERT_TRUE(M);
  nth(*M, "s_setpc_b64", 0)->setModifier(std::make_unique<LabelData>("label_NoBranch_10", 4));
  lowerLongBranches(*M);
  const LabelData *L = nth(*M, "s_setpc_b64", 0)->getModifier<LabelData>();
  ASSERT_TRUE(L);
  EXPECT_EQ(L->Label, "label_NoBranch_10");
  EXPECT_EQ(L->Alignment, 4u);
  EXPECT_EQ(labelOf(nth(*M, "s_setpc_b64", 1)), "PrefetchGlobalLastIterEnd_4");
}

TEST(LongBranchLoweringTest, RegisteredByName) {
  auto M = read(TwoWay, "gfx90a");
  ASSERT_TRUE(M);
  StinkyTofuContext Ctx;
  llvm::Expected<std::unique_ptr<Pass>> P = passRegistry(Ctx).create("LongBranchLoweringPass");
  ASSERT_TRUE(bool(P)) << llvm::toString(P.takeError());
  AnalysisManager AM;
  llvm::Expected<PreservedAnalyses> PA = (*P)->run(*M, AM, PassScope{});
  ASSERT_TRUE(bool(PA)) << llvm::toString(PA.takeError());
  EXPECT_EQ(labelOf(nth(*M, "s_setpc_b64", 1)), "PrefetchGlobalLastIterEnd_4");
}

} // namespace
