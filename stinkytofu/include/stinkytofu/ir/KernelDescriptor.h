//===- KernelDescriptor.h - A kernel's .amdhsa_kernel block, typed -*- C++ -*-===//
//
// The `.amdhsa_kernel NAME` ... `.end_amdhsa_kernel` block of a kernel is
// module text (a TextKind::KernelDescriptor item). This reads it as fields
// (TextFields.h), one per `.amdhsa_*` directive: its key, its value text (a
// number, or an expression MC evaluates later) and where the value is. A
// pass that must change a field (a kernel that now uses more SGPRs) sets its
// value: only the value's characters change, every other byte of the module
// stays.
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

private:
  KernelDescriptor(const Module &M, size_t Item, llvm::StringRef Kernel)
      : TextFields(M, Item), Kernel(Kernel.str()) {}
  /// The descriptors in item \p Item of \p M.
  static std::vector<KernelDescriptor> parse(const Module &M, size_t Item);

  std::string Kernel;
};

} // namespace stinkytofu

#endif
