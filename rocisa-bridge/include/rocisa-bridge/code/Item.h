//===- Item.h - The base of every rocisa object --------------------*- C++ -*-===//
//
// The bridge's object model has rocisa's shape (items, labels, text blocks,
// nested modules, instructions) in plain C++: no Python type appears here,
// the bindings (rocisa-bridge/python) wrap these classes. Items own their
// children through shared_ptr and have no parent pointer: every pass that
// edits the tree walks it from the root.
//
// Printing is stateless: an item prints the same text wherever it is, so a
// tree can be printed, compared and converted without setting up a global
// "current ISA" first. Target facts (does the target have s_add_pc_i64?)
// are given explicitly to the builders that need them.
//
//===----------------------------------------------------------------------===//
#ifndef ROCISA_BRIDGE_CODE_ITEM_H
#define ROCISA_BRIDGE_CODE_ITEM_H

#include <memory>
#include <string>

namespace rocisa {

class Item {
public:
  explicit Item(std::string Name = "") : name(std::move(Name)) {}
  virtual ~Item();

  /// The item's text, newline included (empty for an empty module).
  virtual std::string toString() const = 0;
  /// A deep copy: the copy shares nothing with the original.
  virtual std::shared_ptr<Item> clone() const = 0;
  /// The rocisa class name (`Label`, `SAddI32`, ...), used in diagnostics.
  virtual std::string className() const = 0;

  std::string name;

protected:
  Item(const Item &) = default;
  Item &operator=(const Item &) = default;
};

using ItemPtr = std::shared_ptr<Item>;

} // namespace rocisa

#endif
