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

namespace {

std::optional<KernelAllocation> fromMetadata(const Module &M, StringRef Kernel) {
  std::optional<KernelMetadata> MD = KernelMetadata::find(M, Kernel);
  if (!MD)
    return std::nullopt;
  std::optional<uint64_t> VGPRs = MD->integer(".vgpr_count"), SGPRs = MD->integer(".sgpr_count");
  if (!VGPRs || !SGPRs)
    return std::nullopt;
  KernelAllocation A;
  A.Source = AllocationSource::Metadata;
  A.Resources.VGPRs = *VGPRs; // AGPRs already counted as the target allocates them
  A.Resources.SGPRs = *SGPRs;
  A.Resources.LdsBytes = MD->integer(".group_segment_fixed_size").value_or(0);
  A.Resources.WorkgroupSize = MD->integer(".max_flat_workgroup_size").value_or(0);
  A.Resources.Wave64 = MD->integer(".wavefront_size") == 64u;
  if (std::optional<uint64_t> AGPRs = MD->integer(".agpr_count"))
    A.AGPRs = *AGPRs;
  return A;
}

std::optional<KernelAllocation> fromDescriptor(const Module &M, StringRef Kernel,
                                               const HardwareModel &HW) {
  std::optional<KernelDescriptor> KD = KernelDescriptor::find(M, Kernel);
  if (!KD)
    return std::nullopt;
  std::optional<uint64_t> VGPRs = KD->integer(".amdhsa_next_free_vgpr");
  std::optional<uint64_t> SGPRs = KD->integer(".amdhsa_next_free_sgpr");
  if (!VGPRs || !SGPRs)
    return std::nullopt;
  // An absent reservation is on: the assembler's default.
  auto Reserved = [&](StringRef Key) { return KD->integer(Key).value_or(1) != 0; };
  KernelAllocation A;
  A.Source = AllocationSource::Descriptor;
  A.Resources.VGPRs = *VGPRs;
  A.Resources.SGPRs =
      *SGPRs + extraSGPRs(HW, Reserved(".amdhsa_reserve_vcc"),
                          Reserved(".amdhsa_reserve_xnack_mask"),
                          Reserved(".amdhsa_reserve_flat_scratch"));
  A.Resources.LdsBytes = KD->integer(".amdhsa_group_segment_fixed_size").value_or(0);
  A.Resources.Wave64 = KD->integer(".amdhsa_wavefront_size32") == 0u;
  return A;
}

} // namespace

KernelAllocation kernelAllocation(const RegisterPressure &P) {
  const Function &F = P.liveness().function();
  const Module &M = *F.parent();
  const HardwareModel &HW = P.liveness().units().target().hardware();
  if (std::optional<KernelAllocation> A = fromMetadata(M, F.name()))
    return *A;
  if (std::optional<KernelAllocation> A = fromDescriptor(M, F.name(), HW))
    return *A;
  const PressureCounts &Top = P.highestUsed();
  KernelAllocation A;
  A.Resources.VGPRs = unifiedVGPRs(HW, Top[PressureFile::VGPR], Top[PressureFile::AGPR]);
  A.Resources.SGPRs = Top[PressureFile::SGPR] + extraSGPRs(HW, true, true, true);
  A.AGPRs = Top[PressureFile::AGPR];
  return A;
}

} // namespace stinkytofu
