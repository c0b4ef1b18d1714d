//===- KernelAllocation.cpp - What a kernel is allocated per wave ---------===//
#include "stinkytofu/analysis/KernelAllocation.h"
#include "stinkytofu/hw/TargetInfo.h"
#include "stinkytofu/ir/KernelDescriptor.h"
#include "stinkytofu/ir/KernelMetadata.h"
#include "stinkytofu/ir/Module.h"

using namespace llvm;

namespace stinkytofu {

StringRef allocationSourceName(AllocationSource S) {
  switch (S) {
  case AllocationSource::Metadata: return "metadata";
  case AllocationSource::Descriptor: return "descriptor";
  case AllocationSource::Code: return "code";
  }
  llvm_unreachable("unknown allocation source");
}

unsigned reservedSGPRs(const HardwareModel &HW, const KernelDescriptor &KD) {
  return extraSGPRs(HW, KD.reservesVCC(), KD.reservesXnackMask(), KD.reservesFlatScratch());
}

namespace {

using Count = KernelDescriptor::Count;

std::optional<KernelAllocation> fromMetadata(const KernelMetadata &MD) {
  std::optional<uint64_t> VGPRs = MD.integer(".vgpr_count"), SGPRs = MD.integer(".sgpr_count");
  if (!VGPRs || !SGPRs)
    return std::nullopt;
  KernelAllocation A;
  A.Source = AllocationSource::Metadata;
  A.Resources.VGPRs = *VGPRs; // AGPRs already counted as the target allocates them
  A.Resources.SGPRs = *SGPRs;
  A.Resources.LdsBytes = MD.integer(".group_segment_fixed_size").value_or(0);
  A.Resources.Wave64 = MD.integer(".wavefront_size") == 64u;
  if (std::optional<uint64_t> AGPRs = MD.integer(".agpr_count"))
    A.AGPRs = *AGPRs;
  return A;
}

std::optional<KernelAllocation> fromDescriptor(const KernelDescriptor &KD,
                                               const HardwareModel &HW) {
  std::optional<uint64_t> VGPRs = KD.count(Count::NextFreeVGPR);
  std::optional<uint64_t> SGPRs = KD.count(Count::NextFreeSGPR);
  if (!VGPRs || !SGPRs)
    return std::nullopt;
  KernelAllocation A;
  A.Source = AllocationSource::Descriptor;
  A.Resources.VGPRs = *VGPRs;
  A.Resources.SGPRs = *SGPRs + reservedSGPRs(HW, KD);
  A.Resources.LdsBytes = KD.ldsBytes();
  A.Resources.Wave64 = KD.wave64();
  return A;
}

/// The workgroup sizes the kernel may be launched with, and where they
/// come from.
void setWorkgroupSize(KernelAllocation &A, const std::optional<KernelMetadata> &MD,
                      std::optional<unsigned> Flag) {
  KernelResources &R = A.Resources;
  if (Flag) {
    R.MinWorkgroupSize = R.MaxWorkgroupSize = *Flag;
    A.WorkgroupSizeSource = "option";
  } else if (std::optional<uint64_t> Required = MD ? MD->requiredWorkgroupSize() : std::nullopt;
             Required && *Required) {
    R.MinWorkgroupSize = R.MaxWorkgroupSize = *Required;
    A.WorkgroupSizeSource = "metadata";
  } else if (std::optional<uint64_t> Max =
                 MD ? MD->integer(".max_flat_workgroup_size") : std::nullopt;
             Max && *Max) {
    R.MaxWorkgroupSize = *Max; // the least is LLVM's default, 1
    A.WorkgroupSizeSource = "metadata";
  }
}

} // namespace

KernelAllocation kernelAllocation(const RegisterPressure &P,
                                  std::optional<unsigned> WorkgroupSize) {
  const Function &F = P.liveness().function();
  const Module &M = *F.parent();
  const HardwareModel &HW = P.liveness().units().target().hardware();
  std::optional<KernelMetadata> MD = KernelMetadata::find(M, F.name());
  std::optional<KernelDescriptor> KD = KernelDescriptor::find(M, F.name());
  std::optional<KernelAllocation> A = MD ? fromMetadata(*MD) : std::nullopt;
  if (!A && KD)
    A = fromDescriptor(*KD, HW);
  if (!A) {
    const PressureCounts &Top = P.highestUsed();
    A.emplace();
    A->Resources.VGPRs = unifiedVGPRs(HW, Top[PressureFile::VGPR], Top[PressureFile::AGPR]);
    A->Resources.SGPRs = Top[PressureFile::SGPR] + extraSGPRs(HW, true, true, true);
    A->AGPRs = Top[PressureFile::AGPR];
  }
  A->Resources.CuMode = KD && KD->cuMode();
  setWorkgroupSize(*A, MD, WorkgroupSize);
  return *A;
}

} // namespace stinkytofu
