//===- TextFields.h - Typed key/value fields over module text ----*- C++ -*-===//
//
// What KernelDescriptor.h and KernelMetadata.h share: the fields of one
// block of module text (a key, its value as written, where the value is),
// read by each in its own syntax, and set by rewriting only the value's
// characters, so every other byte of the module stays.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_IR_TEXTFIELDS_H
#define STINKYTOFU_IR_TEXTFIELDS_H

#include "stinkytofu/ir/Module.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <optional>
#include <string>
#include <vector>

namespace stinkytofu {

class TextFields {
public:
  struct Field {
    std::string Key;   ///< `.amdhsa_next_free_sgpr`, `.sgpr_count`
    std::string Value; ///< as written: `24`, `0x18`, `max(s, 8)`
    /// Where the value is: byte offset in the module item's text, and its
    /// line in that item (0-based).
    size_t Offset = 0;
    unsigned Line = 0;
  };

  /// The module item holding the fields.
  size_t item() const { return Item; }
  const std::vector<Field> &fields() const { return Fields; }
  /// The field \p Key, or null.
  const Field *field(llvm::StringRef Key) const;
  /// The value of \p Key when it is a plain number (decimal, 0x hex).
  std::optional<uint64_t> integer(llvm::StringRef Key) const;

  /// Rewrites the value of \p Key in \p M (the module the fields were read
  /// from) to \p Value; nothing else of the module changes. Fields read
  /// before from the same item by another object are stale after it.
  llvm::Error set(Module &M, llvm::StringRef Key, llvm::StringRef Value);
  llvm::Error setInteger(Module &M, llvm::StringRef Key, uint64_t Value) {
    return set(M, Key, std::to_string(Value));
  }

protected:
  TextFields(const Module &M, size_t Item) : Mod(&M), Item(Item) {}
  /// Records \p Key with \p Value, found at \p Offset of the item's text.
  void add(llvm::StringRef Key, llvm::StringRef Value, size_t Offset);

private:
  const Module *Mod;
  size_t Item;
  std::vector<Field> Fields;
};

} // namespace stinkytofu

#endif
