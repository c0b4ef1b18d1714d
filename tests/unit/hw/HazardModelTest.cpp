//===- HazardModelTest.cpp - Hazard classes from MC, rules per target -----===//
//
// The hazard classes of one instruction of each kind, taken from MC on the
// targets that have it (MFMA pass counts from the scheduling model, the
// DGEMM/XDL split of gfx940), and that every supported processor has its
// rules (none on gfx1030).
//
//===----------------------------------------------------------------------===//
#include "stinkytofu/hw/HazardModel.h"
#include "TestModules.h"
#include "stinkytofu/hw/TargetInfo.h"
#include "stinkytofu/ir/Module.h"

#include "gtest/gtest.h"

using namespace stinkytofu;
using llvm::StringRef;

namespace {

/// The traits of the first instruction of \p Text on \p Arch.
HazardTraits traitsOf(StringRef Arch, StringRef Text) {
  std::unique_ptr<Module> M = test::readAsmText(("k:\n  " + Text + "\n").str(), Arch);
  EXPECT_TRUE(M) << Text.str();
  if (!M)
    return {};
  const Instruction &I = *M->functions().front().blocks().begin()->instructions().begin();
  return HazardModel::of(M->target()).traits(I.mcInsts()[0], I.mnemonic());
}

TEST(HazardModelTest, MatrixKindsAndPasses) {
  HazardTraits X = traitsOf("gfx90a", "v_mfma_f32_32x32x8f16 v[0:15], v[16:17], v[18:19], 0");
  EXPECT_TRUE(X.is(HazardClass::MFMA) && X.is(HazardClass::XDL));
  EXPECT_FALSE(X.is(HazardClass::DGEMM) || X.is(HazardClass::VALUNotMFMA));
  EXPECT_EQ(X.Passes, 16u);
  HazardTraits X942 =
      traitsOf("gfx942", "v_mfma_f32_32x32x8_f16 v[0:15], v[16:17], v[18:19], 0");
  EXPECT_EQ(X942.Passes, 8u);
  EXPECT_TRUE(X942.is(HazardClass::XDL));
  // fp32 inputs do not use the XDL pipe from gfx940 on, and do before.
  EXPECT_TRUE(traitsOf("gfx942", "v_mfma_f32_4x4x1_16b_f32 v[0:3], v4, v5, v[0:3]")
                  .is(HazardClass::SMFMA));
  EXPECT_TRUE(traitsOf("gfx90a", "v_mfma_f32_4x4x1f32 v[0:3], v4, v5, v[0:3]")
                  .is(HazardClass::XDL));
  HazardTraits D = traitsOf("gfx90a", "v_mfma_f64_4x4x4f64 v[0:1], v[2:3], v[4:5], 0");
  EXPECT_TRUE(D.is(HazardClass::DGEMM) && D.is(HazardClass::DGEMM4x4));
  EXPECT_FALSE(D.is(HazardClass::XDL));
  HazardTraits D950 = traitsOf("gfx950", "v_mfma_f64_16x16x4_f64 v[0:7], v[8:9], v[10:11], 0");
  EXPECT_EQ(D950.Passes, 16u);
  EXPECT_TRUE(D950.is(HazardClass::DGEMM16x16));
  // A, B and C by slot: an inline constant C leaves its slot empty.
  EXPECT_EQ(X.Sources.size(), 3u);
  EXPECT_FALSE(X.Sources[2].isValid());
}

TEST(HazardModelTest, AccumulatorMovesAndOtherClasses) {
  EXPECT_TRUE(traitsOf("gfx908", "v_accvgpr_read_b32 v0, a1").is(HazardClass::AccVgprRead));
  EXPECT_TRUE(traitsOf("gfx908", "v_accvgpr_write_b32 a1, v0").is(HazardClass::AccVgprWrite));
  EXPECT_TRUE(traitsOf("gfx900", "v_mov_b32_dpp v2, v1 quad_perm:[1,0,3,2] row_mask:0xf "
                                 "bank_mask:0xf")
                  .is(HazardClass::DPP));
  HazardTraits Store = traitsOf("gfx900", "buffer_store_dwordx4 v[0:3], off, s[4:7], s8");
  EXPECT_TRUE(Store.is(HazardClass::WideStore) && Store.is(HazardClass::VMEM));
  EXPECT_FALSE(Store.is(HazardClass::WideStoreUnlessSgprSoffset));
  EXPECT_TRUE(traitsOf("gfx900", "buffer_store_dwordx4 v[0:3], off, s[4:7], 0")
                  .is(HazardClass::WideStoreUnlessSgprSoffset));
  EXPECT_TRUE(traitsOf("gfx900", "v_readlane_b32 s0, v1, s2").is(HazardClass::ReadLane));
  EXPECT_EQ(traitsOf("gfx900", "s_nop 5").WaitStates, 6u);
  HazardTraits Wmma =
      traitsOf("gfx1100", "v_wmma_f32_16x16x16_f16 v[0:7], v[8:15], v[16:23], v[0:7]");
  EXPECT_TRUE(Wmma.is(HazardClass::WMMA) && Wmma.is(HazardClass::DenseWMMA));
  EXPECT_TRUE(traitsOf("gfx942", "v_pk_add_f32 v[8:9], v[6:7], v[4:5] op_sel_hi:[1,0]")
                  .is(HazardClass::DstSelForwarding));
  EXPECT_FALSE(traitsOf("gfx942", "v_pk_add_f32 v[8:9], v[6:7], v[4:5] op_sel_hi:[0,1]")
                   .is(HazardClass::DstSelForwarding));
}

TEST(HazardModelTest, EveryProcessorHasItsRules) {
  for (StringRef Arch : TargetInfo::supportedProcessors()) {
    auto TI = TargetInfo::get(Arch);
    ASSERT_TRUE(bool(TI)) << llvm::toString(TI.takeError());
    const HazardModel &M = HazardModel::of(**TI);
    if (Arch == "gfx1030")
      EXPECT_TRUE(M.rules().empty());
    else
      EXPECT_FALSE(M.rules().empty()) << Arch.str();
    for (const HazardRule &R : M.rules())
      EXPECT_GT(R.maxWaitStates(), 0u) << Arch.str() << " " << R.Name.str();
  }
}

} // namespace
