//===- Attribute.h - Attribute values of the textual IR ---------*- C++ -*-===//
//
// The value grammar shared by `.stir` attributes and instruction modifiers:
//   value := INT | HEX | FLOAT | "string" | true | false | ident | [ value, ... ]
// Each typed modifier prints itself into, and parses itself from, an AttrDict.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_IR_ATTRIBUTE_H
#define STINKYTOFU_IR_ATTRIBUTE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace stinkytofu {

class AttrValue {
public:
  enum class Kind : uint8_t { Integer, Float, String, Bool, Ident, List };

  static AttrValue integer(int64_t V, bool Hex = false);
  static AttrValue floating(std::string Spelling);
  static AttrValue string(std::string V);
  static AttrValue boolean(bool V);
  static AttrValue ident(std::string V);
  static AttrValue list(std::vector<AttrValue> Elements);

  Kind kind() const { return K; }
  int64_t asInteger() const { return Int; }
  bool asBool() const { return Int != 0; }
  /// String, Ident and Float spelling.
  llvm::StringRef asString() const { return Str; }
  const std::vector<AttrValue> &asList() const { return Elements; }

  void print(llvm::raw_ostream &OS) const;

private:
  Kind K = Kind::Integer;
  int64_t Int = 0;
  bool Hex = false;
  std::string Str;
  std::vector<AttrValue> Elements;
};

/// An ordered `{ key = value, ... }` dictionary; order is kept for printing.
class AttrDict {
public:
  void add(std::string Key, AttrValue V) {
    Entries.emplace_back(std::move(Key), std::move(V));
  }
  const AttrValue *find(llvm::StringRef Key) const;
  const std::vector<std::pair<std::string, AttrValue>> &entries() const {
    return Entries;
  }
  bool empty() const { return Entries.empty(); }
  void print(llvm::raw_ostream &OS) const;

  /// Typed accessors: an error names the key when it is missing or mistyped.
  llvm::Expected<std::string> getString(llvm::StringRef Key) const;
  llvm::Expected<int64_t> getInteger(llvm::StringRef Key) const;
  llvm::Expected<std::vector<std::string>> getStringList(llvm::StringRef Key) const;
  llvm::Expected<std::vector<int64_t>> getIntegerList(llvm::StringRef Key) const;
  /// `true`/`false`, or the reference's `1`/`0`.
  llvm::Expected<bool> getBool(llvm::StringRef Key) const;
  /// Every key must be one of \p Known; an unknown key is an error.
  llvm::Error checkKeys(llvm::StringRef Owner,
                        std::initializer_list<llvm::StringRef> Known) const;

private:
  std::vector<std::pair<std::string, AttrValue>> Entries;
};

/// Prints \p S as a double-quoted string with C escapes.
void printQuoted(llvm::raw_ostream &OS, llvm::StringRef S);

} // namespace stinkytofu

#endif
