//===- DepCtrHazardsTest.cpp - Findings of the depctr hazard analysis ----===//
//
// What HazardVerifier receives from findMissingDepCtrWaits: one error per
// instruction that lacks its wait, naming both instructions, the rule and
// the wait; nothing where the wait is present, and nothing on a processor
// without the rule.
//
//===----------------------------------------------------------------------===//
#include "TestModules.h"
#include "stinkytofu/analysis/DepCtrHazards.h"
#include "stinkytofu/ir/Module.h"
#include "stinkytofu/transforms/CFGBuilderPass.h"
#include "gtest/gtest.h"

using namespace stinkytofu;

namespace {

std::vector<HazardFinding> depCtrFindingsOf(std::unique_ptr<Module> &M) {
  Function &F = M->functions().front();
  buildCFG(F);
  return findMissingDepCtrWaits(F, M->target());
}

constexpr const char *Missing = "k:\n"
                                "  v_cndmask_b32_e64 v0, v1, v2, s0\n"
                                "  s_mov_b32 s0, 1\n"
                                "  s_cmp_eq_u32 s0, 1\n"
                                "  v_readfirstlane_b32 s1, v0\n"
                                "  v_add_nc_u32_e32 v2, s1, v2\n"
                                "  s_endpgm\n";

TEST(DepCtrHazardsTest, EachMissingWaitIsOneError) {
  std::unique_ptr<Module> M = test::readAsmText(Missing, "gfx1200");
  ASSERT_TRUE(M);
  std::vector<HazardFinding> Found = depCtrFindingsOf(M);
  ASSERT_EQ(Found.size(), 2u);
  EXPECT_EQ(Found[0].Consumer->mnemonic(), "s_cmp_eq_u32");
  ASSERT_TRUE(Found[0].Producer);
  EXPECT_EQ(Found[0].Producer->mnemonic(), "s_mov_b32");
  EXPECT_EQ(Found[0].Rule, "VALUReadSGPR");
  EXPECT_EQ(Found[0].Level, HazardFinding::Severity::Error);
  EXPECT_EQ(Found[0].Missing, 0u);
  EXPECT_NE(Found[0].Detail.find("s0"), std::string::npos) << Found[0].Detail;
  EXPECT_NE(Found[0].Detail.find("depctr_sa_sdst(0)"), std::string::npos) << Found[0].Detail;
  EXPECT_EQ(Found[1].Consumer->mnemonic(), "v_add_nc_u32_e32");
  ASSERT_TRUE(Found[1].Producer);
  EXPECT_EQ(Found[1].Producer->mnemonic(), "v_readfirstlane_b32");
  EXPECT_NE(Found[1].Detail.find("depctr_va_sdst(0)"), std::string::npos) << Found[1].Detail;
}

TEST(DepCtrHazardsTest, PresentWaitsLeaveNothing) {
  std::unique_ptr<Module> M = test::readAsmText("k:\n"
                                                "  v_cndmask_b32_e64 v0, v1, v2, s0\n"
                                                "  s_mov_b32 s0, 1\n"
                                                "  s_wait_alu depctr_sa_sdst(0)\n"
                                                "  s_cmp_eq_u32 s0, 1\n"
                                                "  v_readfirstlane_b32 s1, v0\n"
                                                "  s_wait_alu 0xf1ff\n"
                                                "  v_add_nc_u32_e32 v2, s1, v2\n"
                                                "  s_endpgm\n",
                                                "gfx1200");
  ASSERT_TRUE(M);
  EXPECT_TRUE(depCtrFindingsOf(M).empty());
}

TEST(DepCtrHazardsTest, NoRuleNoFindings) {
  for (const char *Arch : {"gfx1250", "gfx1100"}) {
    std::unique_ptr<Module> M = test::readAsmText(Missing, Arch);
    ASSERT_TRUE(M) << Arch;
    EXPECT_TRUE(depCtrFindingsOf(M).empty()) << Arch;
  }
}

} // namespace
