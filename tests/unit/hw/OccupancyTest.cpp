//===- OccupancyTest.cpp - Waves per SIMD from registers and LDS ----------===//
//
// The figures are clang-22's `; Occupancy:` for kernels of tests/kernels
// (the lit test pressure/occupancy-oracle.test checks every kernel); the
// SGPR and LDS cases are made up.
//
//===----------------------------------------------------------------------===//
#include "stinkytofu/hw/Occupancy.h"

#include "gtest/gtest.h"

using namespace stinkytofu;

namespace {

const HardwareModel &hw(llvm::StringRef Processor) {
  const HardwareModel *HW = HardwareModel::lookup(Processor);
  EXPECT_TRUE(HW);
  return *HW;
}

OccupancyEstimate estimate(llvm::StringRef Processor, unsigned VGPRs, unsigned SGPRs,
                           unsigned Lds = 0, unsigned WorkgroupSize = 0) {
  KernelResources R;
  R.VGPRs = VGPRs;
  R.SGPRs = SGPRs;
  R.LdsBytes = Lds;
  R.WorkgroupSize = WorkgroupSize;
  return estimateOccupancy(hw(Processor), R);
}

TEST(OccupancyTest, VgprsAsClangCountsThem) {
  // carry_sum -O2: 58 VGPRs in blocks of 4 of 256.
  EXPECT_EQ(estimate("gfx900", 58, 72).byRegisters(), 4u);
  // matrix_wide -O0: unified file, 70 VGPRs in blocks of 8 of 512.
  EXPECT_EQ(estimate("gfx90a", 70, 41).byRegisters(), 7u);
  // spill_uniforms -O2: 152 VGPRs in blocks of 16 of 1024 (gfx10.3) and
  // blocks of 24 of 1536 (gfx11, gfx12).
  EXPECT_EQ(estimate("gfx1030", 152, 58).byRegisters(), 6u);
  EXPECT_EQ(estimate("gfx1100", 152, 42).byRegisters(), 9u);
  EXPECT_EQ(estimate("gfx1201", 152, 42).byRegisters(), 9u);
  // high_vgprs -O2 on gfx1250: 904 of 1024 VGPRs.
  EXPECT_EQ(estimate("gfx1250", 904, 42).byRegisters(), 1u);
  // Fewer VGPRs than one block: the wave slots.
  EXPECT_EQ(estimate("gfx942", 3, 16).byRegisters(), 8u);
  EXPECT_EQ(estimate("gfx1100", 3, 16).byRegisters(), 16u);
  EXPECT_EQ(estimate("gfx1100", 3, 16).limitedBy(), OccupancyLimit::Waves);
  EXPECT_EQ(estimate("gfx1030", 152, 58).limitedBy(), OccupancyLimit::VGPR);
}

TEST(OccupancyTest, SgprsLimitOnlyGfx9) {
  EXPECT_EQ(estimate("gfx900", 8, 80).BySGPRs, 10u);
  EXPECT_EQ(estimate("gfx900", 8, 81).BySGPRs, 9u);
  EXPECT_EQ(estimate("gfx900", 8, 96).BySGPRs, 8u);
  EXPECT_EQ(estimate("gfx900", 8, 108).byRegisters(), 7u);
  EXPECT_EQ(estimate("gfx900", 8, 108).limitedBy(), OccupancyLimit::SGPR);
  // gfx90a has 8 wave slots: 96 SGPRs (8 waves) do not limit.
  EXPECT_EQ(estimate("gfx90a", 8, 96).limitedBy(), OccupancyLimit::Waves);
  EXPECT_EQ(estimate("gfx90a", 8, 108).byRegisters(), 7u);
  EXPECT_EQ(estimate("gfx1100", 8, 106).BySGPRs, 16u);
  EXPECT_EQ(sgprsForWaves(hw("gfx906"), 9), 88u);
  EXPECT_EQ(sgprsForWaves(hw("gfx906"), 7), ~0u);
  EXPECT_EQ(sgprsForWaves(hw("gfx1200"), 16), ~0u);
}

TEST(OccupancyTest, LdsLimitsWholeWorkgroups) {
  // 64 KiB of LDS per CU: two workgroups of 24 KiB, 4 waves each (256
  // work-items of wave64), over 4 SIMDs: 2 waves per SIMD.
  OccupancyEstimate E = estimate("gfx900", 8, 16, 24 * 1024, 256);
  EXPECT_EQ(E.ByLDS, 2u);
  EXPECT_EQ(E.waves(), 2u);
  EXPECT_EQ(E.byRegisters(), 10u);
  EXPECT_EQ(E.limitedBy(), OccupancyLimit::LDS);
  // gfx950 has 160 KiB: six such workgroups.
  EXPECT_EQ(estimate("gfx950", 8, 16, 24 * 1024, 256).ByLDS, 6u);
}

TEST(OccupancyTest, RegistersForOneMoreWave) {
  EXPECT_EQ(vgprsForWaves(hw("gfx900"), 5), 48u);
  EXPECT_EQ(vgprsForWaves(hw("gfx90a"), 8), 64u);
  EXPECT_EQ(vgprsForWaves(hw("gfx1100"), 10), 144u);
  EXPECT_EQ(vgprsForWaves(hw("gfx1100"), 10, /*Wave64=*/true), 72u);
  EXPECT_EQ(vgprsForWaves(hw("gfx1250"), 2), 512u);
  EXPECT_EQ(vgprsForWaves(hw("gfx1250"), 17), 0u);
}

TEST(OccupancyTest, AllocatedVgprsAndExtraSgprs) {
  EXPECT_EQ(unifiedVGPRs(hw("gfx90a"), 70, 18), 90u);
  EXPECT_EQ(unifiedVGPRs(hw("gfx90a"), 70, 0), 70u);
  EXPECT_EQ(unifiedVGPRs(hw("gfx908"), 37, 18), 37u);
  EXPECT_EQ(extraSGPRs(hw("gfx900"), true, true, true), 6u);
  EXPECT_EQ(extraSGPRs(hw("gfx942"), true, true, false), 4u);
  EXPECT_EQ(extraSGPRs(hw("gfx1100"), true, true, true), 2u);
  EXPECT_EQ(extraSGPRs(hw("gfx1100"), false, false, false), 0u);
}

} // namespace
