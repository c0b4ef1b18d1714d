//===- OccupancyTest.cpp - Waves per SIMD from registers and LDS ----------===//
//
// The figures are clang-22's `; Occupancy:` for kernels of tests/kernels
// (the lit test pressure/occupancy-oracle.test checks every kernel); the
// SGPR cases are made up; the LDS and workgroup-size cases are what llc-22
// writes for an empty kernel with that LDS and amdgpu-flat-work-group-size.
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

KernelResources resources(unsigned VGPRs, unsigned SGPRs, unsigned Lds = 0,
                          unsigned MinSize = 1, unsigned MaxSize = 1024) {
  KernelResources R;
  R.VGPRs = VGPRs;
  R.SGPRs = SGPRs;
  R.LdsBytes = Lds;
  R.MinWorkgroupSize = MinSize;
  R.MaxWorkgroupSize = MaxSize;
  return R;
}

OccupancyEstimate estimate(llvm::StringRef Processor, unsigned VGPRs, unsigned SGPRs,
                           unsigned Lds = 0, unsigned MinSize = 1, unsigned MaxSize = 1024) {
  return estimateOccupancy(hw(Processor), resources(VGPRs, SGPRs, Lds, MinSize, MaxSize));
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
  // 64 KiB of LDS per CU: four workgroups of 16 KiB, 4 waves each (256
  // work-items of wave64), over 4 SIMDs: 4 waves per SIMD.
  OccupancyEstimate E = estimate("gfx900", 8, 16, 16 * 1024, 256, 256);
  EXPECT_EQ(E.ByLDS, 4u);
  EXPECT_EQ(E.ByWorkgroup, 10u);
  EXPECT_EQ(E.waves(), 4u);
  EXPECT_EQ(E.byRegisters(), 10u);
  EXPECT_EQ(E.limitedBy(), OccupancyLimit::LDS);
  // A range of sizes: the one with the most waves counts. 1 to 1024
  // work-items with 16 KiB: two workgroups of 16 waves (the 40 slots hold
  // no third).
  EXPECT_EQ(estimate("gfx900", 8, 16, 16 * 1024).ByLDS, 8u);
  EXPECT_EQ(estimate("gfx900", 8, 16, 16 * 1024, 1, 64).ByLDS, 1u);
  // gfx950 has 160 KiB: 20 workgroups of 8 KiB, one wave each.
  EXPECT_EQ(estimate("gfx950", 8, 16, 8 * 1024, 1, 64).ByLDS, 5u);
  // gfx1100 (WGP mode, 128 KiB): wave32 fits two waves in 64 work-items.
  EXPECT_EQ(estimate("gfx1100", 8, 16, 8 * 1024, 1, 64).ByLDS, 8u);
  EXPECT_EQ(estimate("gfx1100", 8, 16, 20000, 128, 128).ByLDS, 6u);
  KernelResources Wave64 = resources(8, 16, 4096, 1, 64);
  Wave64.Wave64 = true;
  EXPECT_EQ(estimateOccupancy(hw("gfx1100"), Wave64).ByLDS, 8u);
  EXPECT_EQ(estimate("gfx1100", 8, 16, 4096, 1, 64).ByLDS, 16u);
  // gfx1250: 320 KiB.
  EXPECT_EQ(estimate("gfx1250", 8, 16, 32768, 128, 128).ByLDS, 10u);
  // More LDS than the CU has: one wave. CU mode (gfx10 to gfx12) has half.
  EXPECT_EQ(estimate("gfx900", 8, 16, 70000).ByLDS, 1u);
  KernelResources Large = resources(8, 16, 100 * 1024, 1, 256);
  EXPECT_EQ(estimateOccupancy(hw("gfx1100"), Large).ByLDS, 2u);
  Large.CuMode = true;
  EXPECT_EQ(estimateOccupancy(hw("gfx1100"), Large).ByLDS, 1u);
}

TEST(OccupancyTest, WorkgroupSizeLimitsByBarriers) {
  // gfx9: 16 workgroups of two waves (128 work-items) at once: 32 waves
  // over 4 SIMDs.
  OccupancyEstimate E = estimate("gfx900", 8, 16, 0, 128, 128);
  EXPECT_EQ(E.ByWorkgroup, 8u);
  EXPECT_EQ(E.waves(), 8u);
  EXPECT_EQ(E.limitedBy(), OccupancyLimit::Workgroup);
  // 1024 work-items: 16 waves a workgroup, two fit the 40 slots.
  EXPECT_EQ(estimate("gfx906", 8, 16, 0, 1024, 1024).waves(), 8u);
  // 256 and 512 fit exactly; a range from 1 fills the slots.
  EXPECT_EQ(estimate("gfx906", 8, 16, 0, 256, 256).waves(), 10u);
  EXPECT_EQ(estimate("gfx906", 8, 16, 0, 1, 128).waves(), 10u);
  // gfx1250 has 16 barriers: two-wave workgroups give 8 waves, three-wave
  // ones 12; gfx1100 has 32.
  EXPECT_EQ(estimate("gfx1250", 8, 16, 0, 64, 64).waves(), 8u);
  EXPECT_EQ(estimate("gfx1250", 8, 16, 0, 96, 96).waves(), 12u);
  EXPECT_EQ(estimate("gfx1100", 8, 16, 0, 64, 64).waves(), 16u);
}

TEST(OccupancyTest, LdsForOneMoreWave) {
  // gfx900, 256 work-items, 16 KiB: 4 waves; 5 need at most 13107 bytes
  // (five workgroups in 64 KiB).
  KernelResources R = resources(8, 16, 16 * 1024, 256, 256);
  EXPECT_EQ(ldsForWaves(hw("gfx900"), R, 5), 13107u);
  EXPECT_EQ(ldsForWaves(hw("gfx900"), R, 10), 6553u);
  EXPECT_EQ(ldsForWaves(hw("gfx900"), R, 11), std::nullopt);
  // The workgroup size alone allows 8 (16 barriers): no amount of LDS
  // gives 9; 8 need 15 workgroups (30 waves, 7.5 per SIMD rounded up).
  R = resources(8, 16, 8192, 128, 128);
  EXPECT_EQ(ldsForWaves(hw("gfx900"), R, 8), 4369u);
  EXPECT_EQ(ldsForWaves(hw("gfx900"), R, 9), std::nullopt);
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
