//===- Occupancy.h - Waves per SIMD from registers and LDS -------*- C++ -*-===//
//
// How many waves of a kernel one SIMD holds, from what the kernel holds per
// wave (its allocated VGPRs and SGPRs, its LDS per workgroup), with the
// rules of HardwareModel.td (OccupancyRules), as LLVM 22 computes the
// `; Occupancy:` figure of the code it writes (docs/pressure.md).
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_HW_OCCUPANCY_H
#define STINKYTOFU_HW_OCCUPANCY_H

#include "stinkytofu/hw/HardwareModel.h"
#include "llvm/ADT/StringRef.h"
#include <optional>

namespace stinkytofu {

/// What one wave (and its workgroup) of a kernel holds.
struct KernelResources {
  /// Allocated VGPRs, AGPRs included as the processor counts them
  /// (unifiedVGPRs).
  unsigned VGPRs = 0;
  /// Allocated SGPRs, VCC, FLAT_SCRATCH and XNACK_MASK included.
  unsigned SGPRs = 0;
  /// LDS per workgroup, in bytes.
  unsigned LdsBytes = 0;
  /// The work-items per workgroup the kernel may be launched with (LLVM's
  /// flat workgroup size range; its default for a kernel is 1 to 1024).
  unsigned MinWorkgroupSize = 1, MaxWorkgroupSize = 1024;
  /// The kernel runs wave64 on a wave32 processor.
  bool Wave64 = false;
  /// The kernel runs in CU mode (`.amdhsa_workgroup_processor_mode 0`).
  bool CuMode = false;
};

/// What sets the occupancy: nothing but the hardware's wave slots, or one
/// resource (Workgroup: the workgroup size alone, without LDS).
enum class OccupancyLimit : uint8_t { Waves, VGPR, SGPR, Workgroup, LDS };
/// "waves", "vgpr", "sgpr", "workgroup", "lds".
llvm::StringRef occupancyLimitName(OccupancyLimit L);

struct OccupancyEstimate {
  unsigned MaxWaves = 0; ///< the hardware's wave slots per SIMD
  unsigned ByVGPRs = 0, BySGPRs = 0;
  /// From the workgroup size alone (barriers, wave slots of a CU).
  unsigned ByWorkgroup = 0;
  /// From the LDS per workgroup and the workgroup size together (LLVM's
  /// getOccupancyWithWorkGroupSizes).
  unsigned ByLDS = 0;

  /// From registers alone: the figure of LLVM's `; Occupancy:` comment for
  /// a kernel without LDS or workgroup-size limits.
  unsigned byRegisters() const;
  /// From every limit: LLVM's `; Occupancy:` figure.
  unsigned waves() const;
  /// The resource that sets waves(): VGPR before SGPR before Workgroup
  /// before LDS when they tie; Waves when none is below the wave slots.
  OccupancyLimit limitedBy() const;
};

/// The VGPRs a kernel with \p VGPRs VGPRs and \p AGPRs AGPRs is allocated:
/// on a unified file (gfx90a and later) the AGPRs follow the VGPRs rounded
/// up to 4; otherwise the larger of the two files.
unsigned unifiedVGPRs(const HardwareModel &HW, unsigned VGPRs, unsigned AGPRs);

/// The SGPRs above .amdhsa_next_free_sgpr a kernel holds for what its
/// descriptor reserves.
unsigned extraSGPRs(const HardwareModel &HW, bool ReserveVcc, bool ReserveXnack,
                    bool ReserveFlatScratch);

OccupancyEstimate estimateOccupancy(const HardwareModel &HW, const KernelResources &R);

/// The most VGPRs a wave may be allocated for \p Waves waves per SIMD; 0
/// when no count allows that many.
unsigned vgprsForWaves(const HardwareModel &HW, unsigned Waves, bool Wave64 = false);
/// The most SGPRs for \p Waves waves; ~0u when SGPRs never limit, 0 when no
/// count allows that many.
unsigned sgprsForWaves(const HardwareModel &HW, unsigned Waves);
/// The most LDS bytes per workgroup that allow \p Waves waves per SIMD with
/// the workgroup size of \p R; none when no amount does.
std::optional<unsigned> ldsForWaves(const HardwareModel &HW, const KernelResources &R,
                                    unsigned Waves);

} // namespace stinkytofu

#endif
