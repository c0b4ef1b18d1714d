//===- DelayAluAnalysisTest.cpp - The s_delay_alu findings of the verifier -===//
//
// findMissingDelayAlu, what the hazard verifier reports: an ALU result read
// too early without an s_delay_alu that asks for the wait, and nothing
// when one asks for it or for a longer wait; nothing on targets without
// s_delay_alu. Also the immediate layout against MC's encoding.
//
//===----------------------------------------------------------------------===//
#include "AnalysisTestModules.h"
#include "stinkytofu/analysis/DelayAluAnalysis.h"

using namespace stinkytofu;
using namespace stinkytofu::analysistest;

namespace {

std::vector<HazardFinding> delayFindingsOf(llvm::StringRef Text, llvm::StringRef Arch) {
  std::unique_ptr<Module> M = readModule(Text, forArch(Arch));
  if (!M)
    return {};
  std::vector<HazardFinding> All;
  for (Function &F : M->functions())
    for (HazardFinding &H : findMissingDelayAlu(F))
      All.push_back(std::move(H));
  // The module dies here: keep only what does not point into it.
  for (HazardFinding &H : All)
    H.Consumer = H.Producer = nullptr;
  return All;
}

constexpr const char *Dependent = R"(
k:
  v_add_f32_e32 v1, v0, v0
  v_mov_b32_e32 v5, 0
  v_mul_f32_e32 v2, v1, v1
  s_endpgm
)";

TEST(DelayAluAnalysisTest, MissingDelayIsAWarningNamingRegisterAndFields) {
  for (llvm::StringRef Arch : {"gfx1100", "gfx1201", "gfx1250"}) {
    std::vector<HazardFinding> F = delayFindingsOf(Dependent, Arch);
    ASSERT_EQ(F.size(), 1u) << Arch.str();
    EXPECT_EQ(F[0].Level, HazardFinding::Severity::Warning);
    EXPECT_EQ(F[0].Rule, "DelayAlu");
    EXPECT_NE(F[0].Detail.find("v1 "), std::string::npos) << F[0].Detail;
    EXPECT_NE(F[0].Detail.find("instid0(VALU_DEP_2)"), std::string::npos) << F[0].Detail;
  }
}

TEST(DelayAluAnalysisTest, ConsumerAndProducerArePointed) {
  std::unique_ptr<Module> M = readModule(Dependent, forArch("gfx1100"));
  ASSERT_TRUE(M);
  std::vector<HazardFinding> F = findMissingDelayAlu(*functionOf(*M, "k"));
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(F[0].Consumer, instOf(*M, "v_mul_f32_e32"));
  EXPECT_EQ(F[0].Producer, instOf(*M, "v_add_f32_e32"));
}

TEST(DelayAluAnalysisTest, ExistingDelayCoversSameOrNewerProducer) {
  auto With = [](llvm::StringRef Delay) {
    return (llvm::Twine("k:\n  v_add_f32_e32 v1, v0, v0\n  v_mov_b32_e32 v5, 0\n  ") + Delay +
            "\n  v_mul_f32_e32 v2, v1, v1\n  s_endpgm\n")
        .str();
  };
  // The exact wait, and a wait for the newer VALU (which finishes later).
  EXPECT_TRUE(delayFindingsOf(With("s_delay_alu instid0(VALU_DEP_2)"), "gfx1100").empty());
  EXPECT_TRUE(delayFindingsOf(With("s_delay_alu instid0(VALU_DEP_1)"), "gfx1100").empty());
  // A wait for an older VALU, or for another pipe, is not enough.
  EXPECT_EQ(delayFindingsOf(With("s_delay_alu instid0(VALU_DEP_3)"), "gfx1100").size(), 1u);
  EXPECT_EQ(delayFindingsOf(With("s_delay_alu instid0(SALU_CYCLE_3)"), "gfx1100").size(), 1u);
}

TEST(DelayAluAnalysisTest, InstskipNamesTheLaterInstruction) {
  auto WithSkip = [](llvm::StringRef Skip) {
    return (llvm::Twine("k:\n  v_add_f32_e32 v1, v0, v0\n"
                        "  s_delay_alu instid0(VALU_DEP_1) | instskip(") +
            Skip +
            ") | instid1(VALU_DEP_1)\n"
            "  v_add_f32_e32 v2, v1, v0\n  v_add_f32_e32 v3, v2, v0\n  s_endpgm\n")
        .str();
  };
  EXPECT_TRUE(delayFindingsOf(WithSkip("NEXT"), "gfx1100").empty());
  // SKIP_1 names the s_endpgm: the second v_add_f32 is left without.
  EXPECT_EQ(delayFindingsOf(WithSkip("SKIP_1"), "gfx1100").size(), 1u);
}

TEST(DelayAluAnalysisTest, NothingBeforeGfx11) {
  EXPECT_TRUE(delayFindingsOf(R"(
k:
  v_add_f32_e32 v1, v0, v0
  v_mul_f32_e32 v2, v1, v1
  s_endpgm
)",
                              "gfx90a")
                  .empty());
}

TEST(DelayAluAnalysisTest, ImmediateLayoutMatchesMC) {
  std::unique_ptr<Module> M = readModule(
      "k:\n  s_delay_alu instid0(TRANS32_DEP_2) | instskip(SKIP_3) | instid1(SALU_CYCLE_3)\n",
      forArch("gfx1100"));
  ASSERT_TRUE(M);
  const Instruction *I = instOf(*M, "s_delay_alu");
  ASSERT_TRUE(I);
  DelayAluImmediate F = DelayAluImmediate::decode(I->mcInsts()[0].getOperand(0).getImm());
  EXPECT_EQ(aluDelayName(F.First), "TRANS32_DEP_2");
  EXPECT_EQ(F.Skip, 4u);
  EXPECT_EQ(aluDelayName(F.Second), "SALU_CYCLE_3");
}

} // namespace
