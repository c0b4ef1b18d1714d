//===- LongBranchTest.cpp - The exact sequences of the builders -------===//
//
// Each builder's text per target: gfx942 has no s_add_pc_i64, gfx1250 has
// (asked of LLVM MC); every s_setpc_b64 carries its target as hint.
//
//===----------------------------------------------------------------------===//
#include "rocisa-bridge/builders/LongBranch.h"
#include "rocisa-bridge/code/Branch.h"
#include "rocisa-bridge/convert/TargetCaps.h"
#include "BridgeTestSupport.h"
#include "gtest/gtest.h"

using namespace rocisa;

namespace {

const Label Target("Target");

/// SLongBranch and SLongBranchNegative from s10..s12 to label_Target.
const std::string TwoWayText =
    "s_getpc_b64 s[10:11]                               // addr of next instr\n"
    "s_add_i32 s12, label_Target, 4                     // target branch offset\n"
    "s_cmp_ge_i32 s12, 0                                // check positive or negative\n"
    "s_cbranch_scc1 label_Target_pos                    // jump when positive\n"
    "s_abs_i32 s12, s12                                 // abs offset\n"
    "s_sub_u32 s10, s10, s12                            // sub target branch offset\n"
    "s_subb_u32 s11, s11, 0                             // sub high and carry\n"
    "s_setpc_b64 s[10:11]                               // branch to label_Target\n"
    "label_Target_pos:\n"
    "s_add_u32 s10, s10, s12                            // add target branch offset\n"
    "s_addc_u32 s11, s11, 0                             // add high and carry\n"
    "s_setpc_b64 s[10:11]                               // branch to label_Target\n";
const std::string NegativeText =
    "s_getpc_b64 s[10:11]                               // addr of next instr\n"
    "s_add_i32 s12, label_Target, 4                     // target branch offset\n"
    "s_abs_i32 s12, s12                                 // abs offset\n"
    "s_sub_u32 s10, s10, s12                            // sub target branch offset\n"
    "s_subb_u32 s11, s11, 0                             // sub high and carry\n"
    "s_setpc_b64 s[10:11]                               // branch to label_Target\n";

/// Every s_setpc_b64 of \p M, with the hint it carries.
std::vector<std::string> hints(const Module &M) {
  std::vector<std::string> Found;
  for (const ItemPtr &I : M.flatitems())
    if (auto *S = dynamic_cast<SSetPCB64 *>(I.get()))
      Found.push_back(S->longBranchLabel);
  return Found;
}

bool addPC(const char *Arch) {
  llvm::Expected<bool> Has = hasAddPCI64(Arch);
  EXPECT_OK(Has);
  return Has && *Has;
}

TEST(RocisaLongBranchTest, TargetsWithAndWithoutAddPC) {
  EXPECT_FALSE(addPC("gfx90a"));
  EXPECT_FALSE(addPC("gfx942"));
  EXPECT_FALSE(addPC("gfx950"));
  EXPECT_TRUE(addPC("gfx1250"));
  EXPECT_EQ(archName(9, 0, 10), "gfx90a");
  EXPECT_EQ(archName(12, 5, 0), "gfx1250");
}

TEST(RocisaLongBranchTest, TwoWay) {
  auto M = SLongBranch(Target, {10, 3}, "Target_pos");
  ASSERT_OK(M);
  EXPECT_EQ((*M)->name, "SLongBranch label_Target");
  EXPECT_EQ((*M)->toString(), TwoWayText);
  EXPECT_EQ(hints(**M), (std::vector<std::string>{"label_Target", "label_Target"}));
}

TEST(RocisaLongBranchTest, TwoWayOddTemporariesKeepThePairEven) {
  // s11..s13: the pair is s[12:13], the offset s11 (rocisa would take the
  // misaligned s[11:12], which the assembler rejects).
  auto M = SLongBranch(Target, {11, 3}, "Target_pos");
  ASSERT_OK(M);
  EXPECT_EQ((*M)->toString(),
      "s_getpc_b64 s[12:13]                               // addr of next instr\n"
      "s_add_i32 s11, label_Target, 4                     // target branch offset\n"
      "s_cmp_ge_i32 s11, 0                                // check positive or negative\n"
      "s_cbranch_scc1 label_Target_pos                    // jump when positive\n"
      "s_abs_i32 s11, s11                                 // abs offset\n"
      "s_sub_u32 s12, s12, s11                            // sub target branch offset\n"
      "s_subb_u32 s13, s13, 0                             // sub high and carry\n"
      "s_setpc_b64 s[12:13]                               // branch to label_Target\n"
      "label_Target_pos:\n"
      "s_add_u32 s12, s12, s11                            // add target branch offset\n"
      "s_addc_u32 s13, s13, 0                             // add high and carry\n"
      "s_setpc_b64 s[12:13]                               // branch to label_Target\n");
}

TEST(RocisaLongBranchTest, PositiveWithoutAddPC) {
  for (const char *Arch : {"gfx90a", "gfx942", "gfx950"}) {
    auto M = SLongBranchPositive(Target, {10, 3}, addPC(Arch));
    ASSERT_OK(M);
    EXPECT_EQ((*M)->toString(),
              "s_getpc_b64 s[10:11]                               // addr of next instr\n"
              "s_add_i32 s12, label_Target, 4                     // target branch offset\n"
              "s_add_u32 s10, s10, s12                            // add target branch offset\n"
              "s_addc_u32 s11, s11, 0                             // add high and carry\n"
              "s_setpc_b64 s[10:11]                               // branch to label_Target\n")
        << Arch;
    EXPECT_EQ(hints(**M), (std::vector<std::string>{"label_Target"}));
  }
}

TEST(RocisaLongBranchTest, PositiveWithAddPC) {
  auto M = SLongBranchPositive(Target, {10, 3}, addPC("gfx1250"), "forward");
  ASSERT_OK(M);
  EXPECT_EQ((*M)->toString(), "// forward\n"
      "s_add_pc_i64 label_Target-.-12                     // branch to label_Target\n");
  // No s_setpc_b64, so no hint: the converter labels s_add_pc_i64 itself.
  EXPECT_TRUE(hints(**M).empty());
  auto *Add = dynamic_cast<BranchInstruction *>((*M)->flatitems().back().get());
  ASSERT_NE(Add, nullptr);
  EXPECT_EQ(Add->targetLabel(), "label_Target");
}

TEST(RocisaLongBranchTest, Negative) {
  for (const char *Arch : {"gfx942", "gfx1250"}) {
    (void)Arch; // the same sequence on every target
    auto M = SLongBranchNegative(Target, {10, 3});
    ASSERT_OK(M);
    EXPECT_EQ((*M)->toString(), NegativeText);
    EXPECT_EQ(hints(**M), (std::vector<std::string>{"label_Target"}));
  }
}

TEST(RocisaLongBranchTest, GetPositivePCOffset) {
  auto M = SGetPositivePCOffset(20, Target, {7, 1});
  ASSERT_OK(M);
  EXPECT_EQ((*M)->toString(),
      "s_getpc_b64 s[20:21]                               // addr of next instr\n"
      "s_add_i32 s7, label_Target, 4                      // target branch offset\n"
      "s_add_u32 s20, s20, s7                             // add target branch offset\n"
      "s_addc_u32 s21, s21, 0                             // add high and carry\n");
  EXPECT_TRUE(hints(**M).empty());
}

TEST(RocisaLongBranchTest, Conditional) {
  auto Scc0 = SCLongBranch(LongBranchCondition::Scc0, Target, {10, 3}, "Skip", "Target_pos", 1,
                           addPC("gfx1250"));
  ASSERT_OK(Scc0);
  EXPECT_EQ((*Scc0)->toString(),
      "s_cbranch_scc1 label_Skip                          // skip the long branch to label_Target\n"
      "s_add_pc_i64 label_Target-.-12                     // branch to label_Target\n"
      "label_Skip:\n");
  auto Scc1 = SCLongBranch(LongBranchCondition::Scc1, Target, {10, 3}, "Skip", "Target_pos", -1,
                           addPC("gfx942"));
  ASSERT_OK(Scc1);
  EXPECT_EQ((*Scc1)->toString(),
            "s_cbranch_scc0 label_Skip                          "
            "// skip the long branch to label_Target\n" +
                NegativeText + "label_Skip:\n");
  auto Vccnz = SCLongBranch(LongBranchCondition::Vccnz, Target, {10, 3}, "Skip", "Target_pos", 0,
                            addPC("gfx942"));
  ASSERT_OK(Vccnz);
  EXPECT_EQ((*Vccnz)->toString(),
            "s_cbranch_vccz label_Skip                          "
            "// skip the long branch to label_Target\n" +
                TwoWayText + "label_Skip:\n");
  EXPECT_EQ(hints(**Vccnz), (std::vector<std::string>{"label_Target", "label_Target"}));
}

TEST(RocisaLongBranchTest, TooFewTemporariesIsAnError) {
  EXPECT_EQ(test::errorMessage(SLongBranch(Target, {10, 2}, "P")),
            "SLongBranch needs 3 temporary SGPRs, got 2");
  EXPECT_EQ(test::errorMessage(SLongBranchNegative(Target, {10, 1})),
            "SLongBranchNegative needs 3 temporary SGPRs, got 1");
  EXPECT_EQ(test::errorMessage(SGetPositivePCOffset(21, Target, {7, 1})),
            "SGetPositivePCOffset: s21 does not start an even-aligned SGPR pair");
}

} // namespace
