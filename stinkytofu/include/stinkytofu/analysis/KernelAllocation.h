//===- KernelAllocation.h - What a kernel is allocated per wave --*- C++ -*-===//
//
// The registers and LDS a kernel holds, as the occupancy model needs them
// (hw/Occupancy.h): from its metadata entry (`.vgpr_count`, `.sgpr_count`,
// `.agpr_count`, `.group_segment_fixed_size`, `.max_flat_workgroup_size`,
// `.wavefront_size`) when it has one with numbers; else from its
// descriptor (`.amdhsa_next_free_vgpr`, `.amdhsa_next_free_sgpr` plus the
// SGPRs it reserves for VCC, XNACK_MASK and FLAT_SCRATCH,
// `.amdhsa_group_segment_fixed_size`, `.amdhsa_wavefront_size32`); else
// from the registers its code names (RegisterPressure::highestUsed, with
// the reservations the assembler assumes by default). The workgroup size
// is a flag's, else the metadata's (`.reqd_workgroup_size`, else 1 to
// `.max_flat_workgroup_size`), else LLVM's default for a kernel, 1 to 1024;
// CU mode is the descriptor's (`.amdhsa_workgroup_processor_mode 0`).
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_ANALYSIS_KERNELALLOCATION_H
#define STINKYTOFU_ANALYSIS_KERNELALLOCATION_H

#include "stinkytofu/analysis/RegisterPressure.h"
#include "stinkytofu/hw/Occupancy.h"
#include "stinkytofu/ir/KernelDescriptor.h"

namespace stinkytofu {

enum class AllocationSource : uint8_t { Metadata, Descriptor, Code };
/// "metadata", "descriptor", "code".
llvm::StringRef allocationSourceName(AllocationSource S);

struct KernelAllocation {
  KernelResources Resources;
  /// AGPRs, where the source says (metadata `.agpr_count`, the code).
  std::optional<unsigned> AGPRs;
  AllocationSource Source = AllocationSource::Code;
  /// Where the workgroup size comes from: "option", "metadata", "default".
  llvm::StringRef WorkgroupSizeSource = "default";
};

/// What the function \p P describes is allocated; launched with
/// \p WorkgroupSize work-items per workgroup when given (a flag).
KernelAllocation kernelAllocation(const RegisterPressure &P,
                                  std::optional<unsigned> WorkgroupSize = std::nullopt);

/// The SGPRs \p KD reserves above its `.amdhsa_next_free_sgpr`.
unsigned reservedSGPRs(const HardwareModel &HW, const KernelDescriptor &KD);

} // namespace stinkytofu

#endif
