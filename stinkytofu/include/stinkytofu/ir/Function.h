//===- Function.h - The kernel or a callable function -----------*- C++ -*-===//
#ifndef STINKYTOFU_IR_FUNCTION_H
#define STINKYTOFU_IR_FUNCTION_H

#include "stinkytofu/ir/BasicBlock.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include <string>
#include <vector>

namespace stinkytofu {

class Module;

class Function {
public:
  using BlockList = llvm::simple_ilist<BasicBlock, IRListOptions>;
  using iterator = BlockList::iterator;
  using const_iterator = BlockList::const_iterator;

  Function(std::string Name, bool IsEntry)
      : Name(std::move(Name)), Entry(IsEntry) {}
  ~Function();
  Function(const Function &) = delete;
  Function &operator=(const Function &) = delete;

  llvm::StringRef name() const { return Name; }
  void setName(std::string N) { Name = std::move(N); }
  /// The kernel (entry) as opposed to a callable function.
  bool isEntry() const { return Entry; }
  void setEntry(bool E) { Entry = E; }

  NodeRange<iterator> blocks() { return {Blocks.begin(), Blocks.end()}; }
  NodeRange<const_iterator> blocks() const { return {Blocks.begin(), Blocks.end()}; }
  BasicBlock &appendBlock(std::string Label);
  /// A new empty block before \p Pos.
  BasicBlock &insertBlock(const_iterator Pos, std::string Label);
  /// Moves the blocks [\p First, \p Last) of \p From before \p Pos.
  void spliceBlocks(const_iterator Pos, Function &From, const_iterator First,
                    const_iterator Last);
  /// The block a label starts, or null. By an index of the labels, made on
  /// the first lookup after the blocks changed (a lookup per call or branch
  /// stays linear in the function).
  BasicBlock *findBlock(llvm::StringRef Label);
  const BasicBlock *findBlock(llvm::StringRef Label) const;
  /// Moves the items from \p At to the end of \p BB into a new block right
  /// after it, unlabelled unless \p Label is given; returns the new block.
  BasicBlock &splitBlock(BasicBlock &BB, BasicBlock::const_item_iterator At,
                         std::string Label = "");
  /// Whether the blocks' edges describe the code. Set when the CFG is
  /// built (CFGBuilder, or edges read from `.stir`); cleared by every edit
  /// that can change an edge: an instruction that transfers control
  /// inserted, removed, re-assembled or given new targets, an instruction
  /// put after one, a block added, removed, moved or split. Analyses over
  /// edges (dominators, loops, liveness) refuse a function without it.
  bool hasValidCFG() const { return CFGValid; }
  void setCFGValid() { CFGValid = true; }
  void invalidateCFG() { CFGValid = false; }

  /// Gives unlabelled blocks their `bb<N>` names.
  void renumberBlocks();
  size_t instructionCount() const;

  Module *parent() const { return Parent; }
  void setParent(Module *M) { Parent = M; }

  /// A branch read from data words (`.long` in code): its encoding holds
  /// the distance to its target. Its span is named by source lines, never by
  /// instruction pointers, which an erase would leave dangling: the writer
  /// finds the instructions again (asm/AsmWriter.cpp) and, when an edit
  /// moved them, spells the branch with its target's label.
  /// An `s_getpc_b64` read from data words is recorded too (ReadsPc): the
  /// constants added to the PC it reads are distances in the code, so its
  /// span is every instruction of its run, and an edit among them is an
  /// error (no label can stand for an unknown target).
  struct WordBranch {
    unsigned Line = 0, TargetLine = 0;
    bool ReadsPc = false;
    /// The block the reader started at the target (BasicBlock::hasUnwrittenLabel).
    std::string TargetLabel;
    /// The lines of the instructions from the branch to its target, both
    /// included, in code order.
    std::vector<unsigned> SpanLines;
  };
  std::vector<WordBranch> &wordBranches() { return WordBranches; }
  const std::vector<WordBranch> &wordBranches() const { return WordBranches; }

private:
  friend class BasicBlock;

  std::string Name;
  bool Entry;
  bool CFGValid = false;
  BlockList Blocks;
  /// Label -> block; valid while LabelIndexValid (every change to the block
  /// list clears it).
  mutable llvm::StringMap<BasicBlock *> LabelIndex;
  mutable bool LabelIndexValid = false;
  Module *Parent = nullptr;
  std::vector<WordBranch> WordBranches;
};

} // namespace stinkytofu

#endif
