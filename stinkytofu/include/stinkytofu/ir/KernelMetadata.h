//===- KernelMetadata.h - A kernel's entry in .amdgpu_metadata ---*- C++ -*-===//
//
// The `.amdgpu_metadata` block is YAML; each kernel has a mapping in its
// `amdhsa.kernels` list (`.name`, `.sgpr_count`, `.vgpr_count`, ...). This
// reads one kernel's scalar fields (TextFields.h) with LLVM's YAML parser,
// each with where its value is, and sets a value by rewriting only its
// characters, as KernelDescriptor.h does for the `.amdhsa_kernel` block.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_IR_KERNELMETADATA_H
#define STINKYTOFU_IR_KERNELMETADATA_H

#include "stinkytofu/ir/TextFields.h"

namespace stinkytofu {

class KernelMetadata : public TextFields {
public:
  /// The metadata entry of kernel \p Name in \p M (its `.name`), or none:
  /// no metadata block, no such entry, or YAML that does not parse.
  static std::optional<KernelMetadata> find(const Module &M, llvm::StringRef Name);

  /// The work-items of `.reqd_workgroup_size` (`[ 64, 1, 1 ]`: 64), the
  /// one size the kernel is launched with; none when absent.
  std::optional<uint64_t> requiredWorkgroupSize() const { return ReqdWorkgroupSize; }

private:
  using TextFields::TextFields;
  std::optional<uint64_t> ReqdWorkgroupSize;
};

} // namespace stinkytofu

#endif
