//===- Occupancy.cpp - Waves per SIMD from registers and LDS --------------===//
#include "stinkytofu/hw/Occupancy.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MathExtras.h"
#include <algorithm>

using namespace llvm;

namespace stinkytofu {

StringRef occupancyLimitName(OccupancyLimit L) {
  switch (L) {
  case OccupancyLimit::Waves: return "waves";
  case OccupancyLimit::VGPR: return "vgpr";
  case OccupancyLimit::SGPR: return "sgpr";
  case OccupancyLimit::LDS: return "lds";
  }
  llvm_unreachable("unknown occupancy limit");
}

unsigned OccupancyEstimate::byRegisters() const {
  return std::min({MaxWaves, ByVGPRs, BySGPRs});
}

unsigned OccupancyEstimate::waves() const { return std::min(byRegisters(), ByLDS); }

OccupancyLimit OccupancyEstimate::limitedBy() const {
  unsigned W = waves();
  if (W >= MaxWaves)
    return OccupancyLimit::Waves;
  if (ByVGPRs == W)
    return OccupancyLimit::VGPR;
  if (BySGPRs == W)
    return OccupancyLimit::SGPR;
  return OccupancyLimit::LDS;
}

namespace {

/// The allocation granule and file of the wave size the kernel runs.
std::pair<unsigned, unsigned> vgprFile(const OccupancyRules &O, bool Wave64) {
  if (Wave64 && O.VgprGranuleWave64)
    return {O.VgprGranuleWave64, O.VgprFileWave64};
  return {O.VgprGranule, O.VgprFile};
}

unsigned wavesByVGPRs(const OccupancyRules &O, unsigned VGPRs, bool Wave64) {
  auto [Granule, File] = vgprFile(O, Wave64);
  if (VGPRs < Granule) // one block: no limit below the wave slots
    return O.MaxWavesPerSimd;
  unsigned Blocks = alignTo(VGPRs, Granule);
  return std::min(std::max(File / Blocks, 1u), O.MaxWavesPerSimd);
}

unsigned wavesBySGPRs(const OccupancyRules &O, unsigned SGPRs) {
  if (O.SgprWaveSteps.empty())
    return O.MaxWavesPerSimd;
  // The steps allow 10, 9, 8, ... waves.
  unsigned Waves = 10;
  for (unsigned Step : O.SgprWaveSteps) {
    if (SGPRs <= Step)
      break;
    --Waves;
  }
  return std::min(Waves, O.MaxWavesPerSimd);
}

/// Whole workgroups that fit the CU's (WGP's) LDS, as waves per SIMD.
unsigned wavesByLDS(const HardwareModel &HW, const KernelResources &R) {
  const OccupancyRules &O = HW.occupancy();
  if (R.LdsBytes == 0)
    return O.MaxWavesPerSimd;
  if (R.LdsBytes > O.LdsBytes)
    return 0;
  unsigned Groups = O.LdsBytes / R.LdsBytes;
  unsigned WaveSize = R.Wave64 ? 64 : HW.waveSize();
  unsigned WavesPerGroup = divideCeil(R.WorkgroupSize ? R.WorkgroupSize : 256, WaveSize);
  // Four SIMDs share a CU (gfx9) or a WGP (gfx10+).
  constexpr unsigned SimdsPerCu = 4;
  return std::min(std::max<unsigned>(Groups * WavesPerGroup / SimdsPerCu, 1),
                  O.MaxWavesPerSimd);
}

} // namespace

unsigned unifiedVGPRs(const HardwareModel &HW, unsigned VGPRs, unsigned AGPRs) {
  if (HW.hasAGPRs() && HW.maxVGPRs() > 256)
    return AGPRs ? alignTo(VGPRs, 4) + AGPRs : VGPRs;
  return std::max(VGPRs, AGPRs);
}

unsigned extraSGPRs(const HardwareModel &HW, bool ReserveVcc, bool ReserveXnack,
                    bool ReserveFlatScratch) {
  const OccupancyRules &O = HW.occupancy();
  unsigned Extra = ReserveVcc ? O.ExtraSgprsVcc : 0;
  if (ReserveXnack)
    Extra = std::max(Extra, O.ExtraSgprsXnack);
  if (ReserveFlatScratch)
    Extra = std::max(Extra, O.ExtraSgprsFlatScratch);
  return Extra;
}

OccupancyEstimate estimateOccupancy(const HardwareModel &HW, const KernelResources &R) {
  const OccupancyRules &O = HW.occupancy();
  OccupancyEstimate E;
  E.MaxWaves = O.MaxWavesPerSimd;
  E.ByVGPRs = wavesByVGPRs(O, R.VGPRs, R.Wave64);
  E.BySGPRs = wavesBySGPRs(O, R.SGPRs);
  E.ByLDS = wavesByLDS(HW, R);
  return E;
}

unsigned vgprsForWaves(const HardwareModel &HW, unsigned Waves, bool Wave64) {
  const OccupancyRules &O = HW.occupancy();
  if (Waves == 0 || Waves > O.MaxWavesPerSimd)
    return 0;
  auto [Granule, File] = vgprFile(O, Wave64);
  unsigned Most = alignDown(File / Waves, Granule);
  return std::min(Most, HW.maxVGPRs());
}

unsigned sgprsForWaves(const HardwareModel &HW, unsigned Waves) {
  const OccupancyRules &O = HW.occupancy();
  if (Waves == 0 || Waves > O.MaxWavesPerSimd)
    return 0;
  if (O.SgprWaveSteps.empty())
    return ~0u;
  // Step I allows 10 - I waves.
  unsigned Step = Waves >= 10 ? 0 : 10 - Waves;
  if (Step < O.SgprWaveSteps.size())
    return O.SgprWaveSteps[Step];
  return ~0u;
}

} // namespace stinkytofu
