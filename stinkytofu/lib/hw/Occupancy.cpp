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
  case OccupancyLimit::Workgroup: return "workgroup";
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
  if (ByWorkgroup == W)
    return OccupancyLimit::Workgroup;
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

/// Waves per SIMD from the workgroups a CU (WGP) holds at once, with
/// \p LdsBytes of LDS each. A workgroup size holds as many as the CU's wave
/// slots, its barriers (a workgroup of one wave needs none) and its LDS
/// allow; the figure is the most waves of any size in the kernel's range,
/// spread over the SIMDs.
unsigned wavesByWorkgroups(const HardwareModel &HW, const KernelResources &R,
                           unsigned LdsBytes) {
  const OccupancyRules &O = HW.occupancy();
  bool CuMode = R.CuMode && O.HasCuMode;
  // Four SIMDs share a CU (gfx9) or a WGP (gfx10+); two in CU mode.
  unsigned Simds = CuMode ? 2 : 4;
  unsigned Lds = CuMode ? O.LdsBytes / 2 : O.LdsBytes;
  unsigned Barriers = CuMode ? 16 : O.WorkgroupBarriers;
  unsigned GroupsByLds = Lds / std::max(LdsBytes, 1u);
  if (GroupsByLds == 0) // more LDS than the CU has: one wave, as LLVM says
    return 1;
  unsigned WaveSize = R.Wave64 ? 64 : HW.waveSize();
  unsigned Slots = O.MaxWavesPerSimd * Simds;
  struct Fit {
    unsigned WavesPerGroup, Groups;
    unsigned waves() const { return WavesPerGroup * Groups; }
  };
  auto FitOf = [&](unsigned Size) {
    unsigned PerGroup = divideCeil(std::max(Size, 1u), WaveSize);
    unsigned Groups = PerGroup == 1 ? Slots : std::min(Slots / PerGroup, Barriers);
    return Fit{PerGroup, std::min(Groups, GroupsByLds)};
  };
  unsigned MaxSize = std::max(R.MaxWorkgroupSize, R.MinWorkgroupSize);
  Fit Small = FitOf(R.MinWorkgroupSize), Large = FitOf(MaxSize);
  unsigned Waves = Large.waves();
  if (Small.waves() > Large.waves()) {
    // As many workgroups as the smallest size, each as large as the
    // slots left over and the range allow.
    unsigned SparePerGroup = (Slots - Small.waves()) / Small.Groups;
    Waves = Small.waves() +
            Small.Groups * std::min(SparePerGroup, Large.WavesPerGroup - Small.WavesPerGroup);
  }
  return std::clamp(divideCeil(Waves, Simds), 1u, O.MaxWavesPerSimd);
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
  E.ByWorkgroup = wavesByWorkgroups(HW, R, 0);
  E.ByLDS = wavesByWorkgroups(HW, R, R.LdsBytes);
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

std::optional<unsigned> ldsForWaves(const HardwareModel &HW, const KernelResources &R,
                                    unsigned Waves) {
  if (Waves > HW.occupancy().MaxWavesPerSimd || wavesByWorkgroups(HW, R, 0) < Waves)
    return std::nullopt;
  // Fewer waves with more LDS: the largest amount that still allows Waves.
  unsigned Low = 0, High = HW.occupancy().LdsBytes;
  while (Low < High) {
    unsigned Mid = Low + (High - Low + 1) / 2;
    if (wavesByWorkgroups(HW, R, Mid) >= Waves)
      Low = Mid;
    else
      High = Mid - 1;
  }
  return Low;
}

} // namespace stinkytofu
