//===- KernelDescriptor.h - A kernel's .amdhsa_kernel block, typed -*- C++ -*-===//
//
// The `.amdhsa_kernel NAME` ... `.end_amdhsa_kernel` block of a kernel is
// module text (a TextKind::KernelDescriptor item). This reads it as fields,
// one per `.amdhsa_*` directive: its key, its value text (a number, or an
// expression MC evaluates later) and where the value is. A pass that must
// change a field (a kernel that now uses more SGPRs) sets its value: only
// the value's characters change, every other byte of the module stays.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_IR_KERNELDESCRIPTOR_H
#define STINKYTOFU_IR_KERNELDESCRIPTOR_H

#include "stinkytofu/ir/Module.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <optional>
#include <string>
#include <vector>

namespace stinkytofu {

class KernelDescriptor {
public:
  struct Field {
    std::string Key;   ///< `.amdhsa_next_free_sgpr`
    std::string Value; ///< as written: `24`, `0x18`, `max(s, 8)`
    /// Where the value is: byte offset in the module item's text, and its
    /// line in that item (0-based).
    size_t Offset = 0;
    unsigned Line = 0;
  };

  /// The descriptor of kernel \p Name in \p M, or none.
  static std::optional<KernelDescriptor> find(const Module &M, llvm::StringRef Name);
  /// Every kernel descriptor of \p M, in source order.
  static std::vector<KernelDescriptor> all(const Module &M);

  llvm::StringRef kernel() const { return Kernel; }
  /// The module item holding the block.
  size_t item() const { return Item; }
  const std::vector<Field> &fields() const { return Fields; }
  /// The field \p Key (`.amdhsa_next_free_sgpr`), or null.
  const Field *field(llvm::StringRef Key) const;
  /// The value of \p Key when it is a plain number (decimal, 0x hex).
  std::optional<uint64_t> integer(llvm::StringRef Key) const;

  /// Rewrites the value of \p Key in \p M (the module it was read from) to
  /// \p Value; nothing else of the module changes. An error when the field
  /// is missing.
  llvm::Error set(Module &M, llvm::StringRef Key, llvm::StringRef Value);
  llvm::Error setInteger(Module &M, llvm::StringRef Key, uint64_t Value) {
    return set(M, Key, std::to_string(Value));
  }

private:
  /// The descriptors in item \p Item of \p M.
  static std::vector<KernelDescriptor> parse(const Module &M, size_t Item);

  const Module *Mod = nullptr;
  size_t Item = 0;
  std::string Kernel;
  std::vector<Field> Fields;
};

} // namespace stinkytofu

#endif
