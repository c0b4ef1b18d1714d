//===- BlockItem.h - What a basic block holds, in order ---------*- C++ -*-===//
//
// A block is an intrusive list of items: instructions, and directives (the
// verbatim lines between them that are not comments: `.set`, `.p2align`,
// skipped `.if` bodies, ...). Directives are items of their own so that
// erasing or moving an instruction never takes one along; comments and blank
// lines stay attached to the item they precede as its leading text.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_IR_BLOCKITEM_H
#define STINKYTOFU_IR_BLOCKITEM_H

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/ilist_node.h"
#include "llvm/ADT/simple_ilist.h"
#include "llvm/Support/Casting.h"
#include <cstdint>
#include <iterator>

namespace stinkytofu {

class BasicBlock;

/// Sentinel tracking lets an iterator tell the end of its list without
/// carrying it, which the instruction iterator needs to skip directives.
using IRListOptions = llvm::ilist_sentinel_tracking<true>;

class BlockItem : public llvm::ilist_node<BlockItem, IRListOptions> {
public:
  enum class ItemKind : uint8_t { Instruction, Directive };

  ItemKind itemKind() const { return Kind; }

  /// Comments and blank lines written before the item. They belong to it:
  /// they move with it, and go to the next item when it is erased.
  llvm::StringRef leadingText() const { return Leading; }
  void setLeadingText(llvm::StringRef Text) { Leading = Text; }

  BasicBlock *parent() const { return Parent; }
  /// The block's list operations keep the parent; setting it by hand only
  /// makes a broken IR, as the verifier's tests need.
  void setParent(BasicBlock *BB) { Parent = BB; }

  /// Whether this item is before \p Other in their block (the same one),
  /// in constant time: items carry order numbers, kept spaced out so that
  /// an insertion seldom renumbers more than its neighbours.
  bool comesBefore(const BlockItem &Other) const;

  /// Unlinks the item and deletes it. Its leading text is put in front of
  /// the next item's, or, at the end of the block, kept in a directive of
  /// its own: erasing never drops a comment.
  void eraseFromParent();

protected:
  explicit BlockItem(ItemKind Kind) : Kind(Kind) {}
  /// A copy or move of an item is not in any list.
  BlockItem(const BlockItem &Other) : Kind(Other.Kind), Leading(Other.Leading) {}
  BlockItem &operator=(const BlockItem &Other) {
    Leading = Other.Leading;
    return *this;
  }
  ~BlockItem() = default;

private:
  friend class BasicBlock;

  ItemKind Kind;
  llvm::StringRef Leading;
  BasicBlock *Parent = nullptr;
  /// Increasing along the block while BasicBlock::OrderValid holds.
  mutable uint64_t Order = 0;
};

/// Verbatim text a pass leaves where it is: directive lines (with any
/// comments among them), skipped conditional bodies, macro definitions, the
/// rest of a block comment opened on an earlier statement's line, and
/// comments left behind at the end of a block by an erased instruction.
/// Passes treat a directive as a barrier: nothing is moved across one, and
/// erasing or moving an instruction leaves it in place.
class Directive : public BlockItem {
public:
  explicit Directive(llvm::StringRef Text) : BlockItem(ItemKind::Directive), Text(Text) {}

  /// The lines, newline included.
  llvm::StringRef text() const { return Text; }
  void setText(llvm::StringRef T) { Text = T; }

  static bool classof(const BlockItem *Item) {
    return Item->itemKind() == ItemKind::Directive;
  }

private:
  llvm::StringRef Text;
};

using ItemList = llvm::simple_ilist<BlockItem, IRListOptions>;

/// A view of a list, or of part of one, that can be walked and asked for its
/// ends but not changed through: edits go through the IR's own methods,
/// which keep parents and order numbers right.
template <typename IteratorT> class NodeRange {
public:
  using iterator = IteratorT;
  using reverse_iterator = std::reverse_iterator<IteratorT>;
  using reference = typename std::iterator_traits<IteratorT>::reference;

  NodeRange(IteratorT Begin, IteratorT End) : Begin(Begin), End(End) {}
  IteratorT begin() const { return Begin; }
  IteratorT end() const { return End; }
  reverse_iterator rbegin() const { return reverse_iterator(End); }
  reverse_iterator rend() const { return reverse_iterator(Begin); }
  bool empty() const { return Begin == End; }
  /// Linear in the length.
  size_t size() const { return std::distance(Begin, End); }
  reference front() const { return *Begin; }
  reference back() const { return *std::prev(End); }

private:
  IteratorT Begin, End;
};

} // namespace stinkytofu

#endif
