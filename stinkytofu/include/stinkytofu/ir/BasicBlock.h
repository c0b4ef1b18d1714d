//===- BasicBlock.h - A labelled run of instructions ------------*- C++ -*-===//
#ifndef STINKYTOFU_IR_BASICBLOCK_H
#define STINKYTOFU_IR_BASICBLOCK_H

#include "stinkytofu/ir/Instruction.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace stinkytofu {

class Function;

/// Why control goes from one block to the next.
enum class EdgeKind : uint8_t {
  Branch,      ///< the label of s_branch / s_cbranch_*
  FallThrough, ///< the next block in layout order
  LongBranch,  ///< s_setpc_b64 (or s_add_pc_i64) with a known target
};

class BasicBlock : public llvm::ilist_node<BasicBlock, IRListOptions> {
public:
  using iterator = InstructionIteratorImpl<false>;
  using const_iterator = InstructionIteratorImpl<true>;
  using item_iterator = ItemList::iterator;
  using const_item_iterator = ItemList::const_iterator;

  explicit BasicBlock(std::string Label) : Label(std::move(Label)) {}
  /// Deletes the items; edges are the function's to clear.
  ~BasicBlock();
  BasicBlock(const BasicBlock &) = delete;
  BasicBlock &operator=(const BasicBlock &) = delete;

  /// The label that starts the block; empty for a block that begins after a
  /// branch without a label.
  llvm::StringRef label() const { return Label; }
  bool hasLabel() const { return !Label.empty(); }
  /// The name printed in `.stir`: the label, or `bb<N>`.
  llvm::StringRef name() const { return Name; }
  void setName(std::string N) { Name = std::move(N); }

  /// Verbatim text before the label line (it moves with the block: an
  /// alignment directive there aligns the label), and the label's own
  /// source text (`label_Loop:  // head\n`); empty when synthesized.
  llvm::StringRef leadingText() const { return Leading; }
  void setLeadingText(llvm::StringRef T) { Leading = T; }
  llvm::StringRef labelText() const { return LabelSource; }
  void setLabelText(llvm::StringRef T) { LabelSource = T; }
  /// A label the text does not have and the writers leave out: the block
  /// starts at the target of a branch read from data words (`.long`).
  bool hasUnwrittenLabel() const { return UnwrittenLabel; }
  void setUnwrittenLabel() { UnwrittenLabel = true; }
  SourceLocation location() const { return Loc; }
  void setLocation(SourceLocation L) { Loc = L; }

  // --- Items --------------------------------------------------------------
  /// Every item, directives included, in order.
  NodeRange<item_iterator> items() { return {Items.begin(), Items.end()}; }
  NodeRange<const_item_iterator> items() const { return {Items.begin(), Items.end()}; }
  /// The instructions, directives stepped over.
  NodeRange<iterator> instructions() { return {iterator(Items.begin()), iterator(Items.end())}; }
  NodeRange<const_iterator> instructions() const {
    return {const_iterator(Items.begin()), const_iterator(Items.end())};
  }
  /// Whether the block holds no instruction (it may hold directives).
  bool empty() const { return instructions().empty(); }

  /// Inserts \p I right before the item at \p Pos (an instruction iterator
  /// converts to its item's position) and returns it. The instruction at
  /// \p Pos keeps its leading comments.
  Instruction &insert(const_item_iterator Pos, Instruction I);
  Instruction &insert(const_item_iterator Pos, std::unique_ptr<Instruction> I);
  Instruction &append(Instruction I) { return insert(Items.end(), std::move(I)); }
  /// Appends a directive holding \p Text (the readers' way of adding one).
  Directive &appendDirective(llvm::StringRef Leading, llvm::StringRef Text);
  /// Moves the items [\p First, \p Last) of \p From before \p Pos.
  void splice(const_item_iterator Pos, BasicBlock &From, const_item_iterator First,
              const_item_iterator Last);
  /// The first item of the run of directives right before \p I (I itself
  /// when an instruction or nothing precedes it): where the text that the
  /// source wrote between the previous instruction and \p I starts.
  item_iterator directivesBefore(Instruction &I);
  /// The text of the directives after the last instruction (empty in a
  /// block read from a file: text there belongs to the next block).
  std::string trailingText() const;

  // --- Place in the function ----------------------------------------------
  /// Unlinks the block from its function and deletes it with its items,
  /// after clearing its edges. Its text that is not instructions (leading
  /// text, directives, comments) goes to the start of the next block, or to
  /// the end of the previous one when it is the last: erasing never drops a
  /// directive. Its label is gone.
  void eraseFromParent();
  /// Moves the block, with everything it holds, before or after \p Pos (in
  /// any function of the module). Edges are left as they are.
  void moveBefore(BasicBlock &Pos);
  void moveAfter(BasicBlock &Pos);

  /// Explicit CFG edges, filled by the CFG builder (or read from `.stir`).
  llvm::ArrayRef<BasicBlock *> successors() const { return Succs; }
  llvm::ArrayRef<BasicBlock *> predecessors() const { return Preds; }
  /// The kind of each successor edge, parallel to successors().
  llvm::ArrayRef<EdgeKind> successorKinds() const { return SuccKinds; }
  /// Adds the edge this -> \p To (and the matching predecessor).
  void addSuccessor(BasicBlock *To, EdgeKind Kind);
  /// Removes every edge out of and into this block.
  void clearEdges();

  Function *parent() const { return Parent; }
  /// The function's list operations keep the parent; setting it by hand
  /// only makes a broken IR, as the verifier's tests need.
  void setParent(Function *F) { Parent = F; }

private:
  friend class BlockItem;
  friend class Instruction;

  /// Links \p Item before \p Pos and numbers it.
  void link(const_item_iterator Pos, BlockItem &Item);
  /// Unlinks \p Item; the order numbers of the rest stay increasing.
  void unlink(BlockItem &Item);
  /// Clears the function's CFG when linking or unlinking \p Item can
  /// change an edge (Function::hasValidCFG).
  void invalidateCFGFor(const BlockItem &Item);
  /// Gives \p Item a number between its neighbours', renumbering a
  /// neighbourhood when they leave no room.
  void numberInserted(BlockItem &Item);
  void renumberAround(BlockItem &Item);
  /// Gives every item its number (after a splice).
  void renumber() const;
  /// The module's string storage, for text joined from two items.
  llvm::StringRef joinText(llvm::StringRef Front, llvm::StringRef Back);

  std::string Label, Name;
  llvm::StringRef Leading, LabelSource;
  SourceLocation Loc;
  bool UnwrittenLabel = false;
  ItemList Items;
  /// Whether the items' order numbers increase along the list.
  mutable bool OrderValid = true;
  // Inline: most blocks have one or two edges each way, and building the
  // CFG of an instrumented kernel made three allocations per edge.
  llvm::SmallVector<BasicBlock *, 2> Succs, Preds;
  llvm::SmallVector<EdgeKind, 2> SuccKinds;
  Function *Parent = nullptr;
};

} // namespace stinkytofu

#endif
