//===- KernelDescriptor.h - A kernel's .amdhsa_kernel block, typed -*- C++ -*-===//
//
// The `.amdhsa_kernel NAME` ... `.end_amdhsa_kernel` block of a kernel is
// module text (a TextKind::KernelDescriptor item). This reads it as fields
// (TextFields.h), one per `.amdhsa_*` directive: its key, its value text (a
// number, or an expression MC evaluates later) and where the value is. A
// pass that must change a field (a kernel that now uses more SGPRs) sets its
// value: only the value's characters change, every other byte of the module
// stays. The fields the register and occupancy analyses read have typed
// accessors, so their directive names live here only.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_IR_KERNELDESCRIPTOR_H
#define STINKYTOFU_IR_KERNELDESCRIPTOR_H

#include "stinkytofu/ir/TextFields.h"

namespace stinkytofu {

class KernelDescriptor : public TextFields {
public:
  /// The descriptor of kernel \p Name in \p M, or none.
  static std::optional<KernelDescriptor> find(const Module &M, llvm::StringRef Name);
  /// Every kernel descriptor of \p M, in source order.
  static std::vector<KernelDescriptor> all(const Module &M);

  llvm::StringRef kernel() const { return Kernel; }

  /// The register counts a descriptor states.
  enum class Count : uint8_t {
    NextFreeVGPR, ///< `.amdhsa_next_free_vgpr`: the VGPRs (and AGPRs) allocated
    NextFreeSGPR, ///< `.amdhsa_next_free_sgpr`, without the reserved ones
    AccumOffset,  ///< `.amdhsa_accum_offset`: the first AGPR of a unified file
  };
  /// The directive of \p C.
  static llvm::StringRef key(Count C);
  /// Whether the descriptor states \p C (a number or an expression).
  bool states(Count C) const { return field(key(C)) != nullptr; }
  /// The value of \p C when it is a number.
  std::optional<uint64_t> count(Count C) const { return integer(key(C)); }
  /// Rewrites \p C to \p Value (TextFields::set).
  llvm::Error setCount(Module &M, Count C, uint64_t Value) {
    return setInteger(M, key(C), Value);
  }

  /// The SGPRs it reserves above NextFreeSGPR: an absent
  /// `.amdhsa_reserve_vcc`, `_xnack_mask`, `_flat_scratch` is on, as the
  /// assembler assumes.
  bool reservesVCC() const;
  bool reservesXnackMask() const;
  bool reservesFlatScratch() const;
  /// `.amdhsa_group_segment_fixed_size`: LDS bytes per workgroup, 0 when
  /// absent or not a number.
  uint64_t ldsBytes() const;
  /// `.amdhsa_wavefront_size32 0`: wave64 on a wave32 processor.
  bool wave64() const;
  /// `.amdhsa_workgroup_processor_mode 0`: CU mode (gfx10 to gfx12).
  bool cuMode() const;

  /// `.amdhsa_inst_pref_size` (gfx11+): the 128-byte instruction cache
  /// lines the wave prefetches at launch.
  static llvm::StringRef instPrefSizeKey() { return ".amdhsa_inst_pref_size"; }
  /// Sets `.amdhsa_inst_pref_size` to \p Lines, adding the directive
  /// before `.end_amdhsa_kernel` when the descriptor has none.
  llvm::Error setInstPrefSize(Module &M, uint64_t Lines);

private:
  KernelDescriptor(const Module &M, size_t Item, llvm::StringRef Kernel)
      : TextFields(M, Item), Kernel(Kernel.str()) {}
  /// The descriptors in item \p Item of \p M.
  static std::vector<KernelDescriptor> parse(const Module &M, size_t Item);

  std::string Kernel;
  /// Where the `.end_amdhsa_kernel` line starts in the item's text.
  size_t End = 0;
};

} // namespace stinkytofu

#endif
