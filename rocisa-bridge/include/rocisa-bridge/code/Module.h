//===- Module.h - A rocisa module: a named list of items -----------*- C++ -*-===//
//
// Modules nest: a kernel body is a module of modules, labels, text and
// instructions. A module marked callable (isCallable) is an activation
// function body; the converter turns it into a callable function named
// callableName (or the module's name).
//
//===----------------------------------------------------------------------===//
#ifndef ROCISA_BRIDGE_CODE_MODULE_H
#define ROCISA_BRIDGE_CODE_MODULE_H

#include "rocisa-bridge/code/Item.h"
#include "llvm/Support/Error.h"
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace rocisa {

class Module final : public Item {
public:
  explicit Module(std::string Name = "") : Item(std::move(Name)) {}
  /// A deep copy: children are cloned; isCallable and callableName kept.
  Module(const Module &Other);
  Module &operator=(const Module &) = delete;

  std::string toString() const override;
  std::shared_ptr<Item> clone() const override { return std::make_shared<Module>(*this); }
  std::shared_ptr<Module> cloneModule() const { return std::make_shared<Module>(*this); }
  std::string className() const override { return "Module"; }

  /// Appends \p I (or inserts it before index \p Pos, 0-based; a position past
  /// the end appends) and returns it. A null item is ignored.
  ItemPtr add(ItemPtr I, int Pos = -1);
  void addItems(const std::vector<ItemPtr> &Items);
  /// Adds the items of \p M (not M itself) and returns \p M.
  std::shared_ptr<Module> appendModule(const std::shared_ptr<Module> &M);
  /// Adds the leaves of \p M, nested modules flattened, and returns \p M.
  std::shared_ptr<Module> addModuleAsFlatItems(const std::shared_ptr<Module> &M);

  /// rocisa's comment helpers: `// c`, the comment at instruction comment
  /// column, `/* c */`, a blank line and `/* c */`, a three-line banner.
  void addComment(const std::string &C);
  void addCommentAlign(const std::string &C);
  void addComment0(const std::string &C);
  void addComment1(const std::string &C);
  void addComment2(const std::string &C);
  void addSpaceLine();

  const std::vector<ItemPtr> &items() const { return itemList; }
  /// Every leaf, depth first, nested modules flattened.
  std::vector<ItemPtr> flatitems() const;
  size_t itemsSize() const { return itemList.size(); }
  /// Leaves, counted through nested modules.
  size_t count() const;

  /// The first direct child named \p Name, or null.
  ItemPtr findNamedItem(const std::string &Name) const;
  /// The index of \p I among the direct children, or -1.
  int findIndex(const ItemPtr &I) const;
  /// The child at \p Index, or an error naming the index.
  llvm::Expected<ItemPtr> getItem(size_t Index) const;
  llvm::Error setItem(size_t Index, ItemPtr I);
  void setItems(std::vector<ItemPtr> Items) { itemList = std::move(Items); }
  /// Replaces the direct child \p From by \p To; false when not a child.
  bool replaceItem(const ItemPtr &From, ItemPtr To);
  llvm::Error replaceItemByIndex(size_t Index, ItemPtr To);
  /// Removes the direct child \p I; false when not a child.
  bool removeItem(const ItemPtr &I);
  llvm::Error removeItemByIndex(size_t Index);
  /// Removes every direct child named \p Name; returns how many.
  size_t removeItemsByName(const std::string &Name);
  /// Removes and returns the first child (null when empty).
  ItemPtr popFirstItem();
  /// Removes and returns the first \p N children.
  std::vector<ItemPtr> popFirstItems(size_t N);

  /// Calls \p Visit on every item below this module, depth first, modules
  /// before their children; returning false from \p Visit on a module skips
  /// its children.
  void walk(const std::function<bool(const ItemPtr &)> &Visit) const;

  void setNoOpt(bool B) { noOpt = B; }
  bool isNoOpt() const { return noOpt; }

  std::vector<ItemPtr> itemList;
  bool isCallable = false;
  std::string callableName;

private:
  bool noOpt = false;
};

} // namespace rocisa

#endif
