//===- RewritePassesTest.cpp - The simple rewrite and cleanup passes ------===//
//
// What the lit tests (tests/lit/passes) cannot show well: the hardware
// model's roles and counter waits, the shared helpers (flag arguments, the
// side effects of MC's real opcodes, mnemonics per target), and that every
// pass leaves assembly MC accepts on every supported target.
//
//===----------------------------------------------------------------------===//
#include "TransformTestUtil.h"

#include "stinkytofu/hw/HardwareModel.h"
#include "stinkytofu/hw/TargetInfo.h"
#include "stinkytofu/ir/StinkyTofuContext.h"
#include "stinkytofu/passes/PassRegistry.h"
#include "stinkytofu/transforms/RewriteSupport.h"

using namespace stinkytofu;
using namespace stinkytofu::transformtest;

namespace {

TEST(RewritePassesTest, RolesAndCounterWaitsComeFromTheHardwareModel) {
  EXPECT_EQ(HardwareModel::roleOf("s_nop"), InstRole::ScalarNop);
  EXPECT_EQ(HardwareModel::roleOf("v_nop"), InstRole::VectorNop);
  EXPECT_EQ(HardwareModel::roleOf("s_delay_alu"), InstRole::DelayAlu);
  EXPECT_EQ(HardwareModel::roleOf("s_wait_alu"), InstRole::DepCtrWait);
  EXPECT_EQ(HardwareModel::roleOf("s_waitcnt_depctr"), InstRole::DepCtrWait);
  EXPECT_EQ(HardwareModel::roleOf("s_setreg_imm32_b32"), InstRole::HwRegWrite);
  EXPECT_EQ(HardwareModel::roleOf("v_mov_b32"), InstRole::Move32);
  EXPECT_EQ(HardwareModel::roleOf("v_readlane_b32"), InstRole::CrossLane);
  EXPECT_EQ(HardwareModel::roleOf("v_add_u32"), InstRole::None);
  EXPECT_EQ(HardwareModel::roleOf(""), InstRole::None);

  using V = llvm::SmallVector<llvm::StringRef, 3>;
  EXPECT_EQ(HardwareModel::waitCounters("s_wait_loadcnt_dscnt"), (V{"loadcnt", "dscnt"}));
  EXPECT_EQ(HardwareModel::waitCounters("s_waitcnt"), (V{"vmcnt", "expcnt", "lgkmcnt"}));
  EXPECT_EQ(HardwareModel::waitCounters("s_wait_xcnt"), (V{"xcnt"}));
  EXPECT_TRUE(HardwareModel::waitCounters("s_wait_alu").empty());
  EXPECT_TRUE(HardwareModel::waitCounters("s_nop").empty());
}

TEST(RewritePassesTest, FlagArguments) {
  bool A = false, B = true;
  EXPECT_FALSE(llvm::errorToBool(parseFlagArguments({{"a", ""}, {"b", "false"}}, {{"a", &A}, {"b", &B}})));
  EXPECT_TRUE(A);
  EXPECT_FALSE(B);
  EXPECT_FALSE(llvm::errorToBool(parseFlagArguments({{"a", "0"}, {"b", "1"}}, {{"a", &A}, {"b", &B}})));
  EXPECT_FALSE(A);
  EXPECT_TRUE(B);
  EXPECT_EQ(llvm::toString(parseFlagArguments({{"c", ""}}, {{"a", &A}, {"b", &B}})),
            "unknown argument 'c' (known: a, b)");
  EXPECT_EQ(llvm::toString(parseFlagArguments({{"a", "yes"}}, {{"a", &A}})),
            "argument 'a': expected true or false, got 'yes'");
  EXPECT_EQ(llvm::toString(parseFlagArguments({{"a", ""}}, {})), "unknown argument 'a' (takes none)");
}

TEST(RewritePassesTest, SideEffectsComeFromThePseudoBehindTheRealOpcode) {
  for (llvm::StringRef Arch : {"gfx900", "gfx942", "gfx1030", "gfx1100", "gfx1201", "gfx1250"}) {
    SCOPED_TRACE(Arch.str());
    bool Gfx9 = Arch.starts_with("gfx9");
    std::string Text = std::string("k:\n  v_mov_b32 v0, v1\n  s_mov_b32 s0, s1\n  s_nop 0\n") +
                       (Gfx9 ? "  s_memtime s[2:3]\n" : "  s_getreg_b32 s2, hwreg(HW_REG_MODE)\n") +
                       "  s_endpgm\n";
    std::unique_ptr<Module> M = read(Text, Arch);
    ASSERT_TRUE(M);
    const TargetInfo &TI = M->target();
    EXPECT_FALSE(hasSideEffects(TI, *nth(*M, "v_mov_b32")));
    EXPECT_FALSE(hasSideEffects(TI, *nth(*M, "s_mov_b32")));
    EXPECT_TRUE(hasSideEffects(TI, *nth(*M, "s_nop")));
    EXPECT_TRUE(hasSideEffects(TI, *nth(*M, Gfx9 ? "s_memtime" : "s_getreg_b32")));
  }
}

TEST(RewritePassesTest, MnemonicsPerTarget) {
  std::unique_ptr<Module> Gfx9 = read("k:\n  s_endpgm\n", "gfx942");
  std::unique_ptr<Module> Gfx12 = read("k:\n  s_endpgm\n", "gfx1250");
  ASSERT_TRUE(Gfx9 && Gfx12);
  EXPECT_TRUE(targetHasMnemonic(*Gfx9, "s_nop"));     // needs operands
  EXPECT_TRUE(targetHasMnemonic(*Gfx9, "s_waitcnt"));
  EXPECT_TRUE(targetHasMnemonic(*Gfx9, "v_nop"));     // takes none
  EXPECT_FALSE(targetHasMnemonic(*Gfx9, "s_wait_alu"));
  EXPECT_FALSE(targetHasMnemonic(*Gfx9, "v_no_such_thing"));
  EXPECT_FALSE(targetHasMnemonic(*Gfx9, "s_nop 0"));  // a statement, not a mnemonic
  EXPECT_TRUE(targetHasMnemonic(*Gfx12, "s_wait_alu"));
  EXPECT_FALSE(targetHasMnemonic(*Gfx12, "s_waitcnt"));
  EXPECT_EQ(baseMnemonic("v_add_u32_e64"), "v_add_u32");
  EXPECT_EQ(baseMnemonic("v_mov_b32_dpp"), "v_mov_b32");
  EXPECT_EQ(baseMnemonic("v_mov_b32"), "v_mov_b32");
}

/// Runs \p Spec on \p M through the registry; the error text or "".
std::string runPassErrorText(StinkyTofuContext &Ctx, Module &M, llvm::StringRef Spec) {
  llvm::Expected<std::unique_ptr<Pass>> P = passRegistry(Ctx).create(Spec);
  if (!P)
    return llvm::toString(P.takeError());
  (*P)->setContext(Ctx);
  AnalysisManager AM;
  llvm::Expected<PreservedAnalyses> PA = (*P)->run(M, AM, PassScope());
  return PA ? "" : llvm::toString(PA.takeError());
}

// Every pass on every target: where it applies, the output reads back (MC
// assembles every statement of it); where it does not, an error.
TEST(RewritePassesTest, EveryPassOnEveryTargetAssembles) {
  const char *Passes[] = {"RemoveInstructionPass=s_nop", "StinkyRemoveNopPass",
                          "StinkyRemoveNopPass=vNopOnly", "RemoveDelayAluPass",
                          "RemoveWaitAluPass", "InsertWaitAluPass", "StinkyRemoveWaitCntPass=removeKmcnt,removeXcnt", "StinkyWaitCntInsertionPass", "WaitCntVerifier",
                          "RemoveDscntPass", "DeadCodeEliminationPass",
                          "RedundantMovEliminationPass", "AsmMovePropagationPass",
                          "PeepholeOptimizationPass", "SetMatrixReusePass"};
  for (llvm::StringRef Arch : TargetInfo::supportedProcessors()) {
    std::unique_ptr<Module> Probe = read("k:\n  s_endpgm\n", Arch);
    ASSERT_TRUE(Probe);
    llvm::StringRef Gen = Probe->target().hardware().generation();
    bool Gfx12 = Gen == "gfx12";
    std::string Text = "k:\n"
                       "  s_mov_b32 s1, s2\n"
                       "  s_add_i32 s3, s1, 4\n"
                       "  v_mov_b32 v1, v2\n"
                       "  v_mov_b32 v1, v2\n"
                       "  v_or_b32 v3, 0, v1\n"
                       "  s_nop 1\n"
                       "  v_nop\n";
    if (Gen == "gfx9")
      Text += "  global_store_dword v[4:5], v3, off\n  s_waitcnt vmcnt(0)\n";
    else if (!Gfx12)
      Text += "  global_store_dword v[4:5], v3, off\n  s_waitcnt_vscnt null, 0x0\n";
    else
      Text += "  global_store_b32 v[4:5], v3, off\n  s_wait_storecnt 0x0\n"
              "  ds_load_b32 v6, v7\n  s_wait_dscnt 0x0\n  s_wait_dscnt 0x0\n"
              "  s_wait_kmcnt 0x0\n"
              "  s_wait_alu depctr_va_vdst(0) depctr_hold_cnt(0)\n";
    if (Gen == "gfx11" || Gfx12)
      Text += "  s_delay_alu instid0(VALU_DEP_1)\n";
    Text += "  s_endpgm\n";
    for (const char *Spec : Passes) {
      SCOPED_TRACE((Arch + " " + Spec).str());
      StinkyTofuContext Ctx;
      std::unique_ptr<Module> M = read(Text, Arch);
      ASSERT_TRUE(M);
      std::string Error = runPassErrorText(Ctx, *M, Spec);
      bool Applies = true;
      // gfx9 has no depctr wait.
      if (llvm::StringRef(Spec) == "RemoveWaitAluPass")
        Applies = Gen != "gfx9";
      if (llvm::StringRef(Spec) == "SetMatrixReusePass")
        Applies = Arch == "gfx1250";
      if (!Applies) {
        EXPECT_NE(Error, "");
        continue;
      }
      ASSERT_EQ(Error, "");
      std::string Out = asmOf(*M);
      EXPECT_TRUE(read(Out, Arch)) << Out;
    }
  }
}

} // namespace
