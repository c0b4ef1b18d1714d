//===- Function.h - The kernel or a callable function -----------*- C++ -*-===//
#ifndef STINKYTOFU_IR_FUNCTION_H
#define STINKYTOFU_IR_FUNCTION_H

#include "stinkytofu/ir/BasicBlock.h"
#include "llvm/ADT/StringRef.h"
#include <list>
#include <string>

namespace stinkytofu {

class Module;

class Function {
public:
  using BlockList = std::list<BasicBlock>;

  Function(std::string Name, bool IsEntry)
      : Name(std::move(Name)), Entry(IsEntry) {}

  llvm::StringRef name() const { return Name; }
  /// The kernel (entry) as opposed to a callable function.
  bool isEntry() const { return Entry; }
  void setEntry(bool E) { Entry = E; }

  BlockList &blocks() { return Blocks; }
  const BlockList &blocks() const { return Blocks; }
  BasicBlock &appendBlock(std::string Label);
  /// The block a label starts, or null.
  BasicBlock *findBlock(llvm::StringRef Label);
  const BasicBlock *findBlock(llvm::StringRef Label) const;
  /// Moves the instructions from \p At to the end of \p BB into a new
  /// unlabelled block right after it; returns the new block.
  BasicBlock &splitBlock(BasicBlock &BB, BasicBlock::InstList::iterator At);
  /// Gives unlabelled blocks their `bb<N>` names.
  void renumberBlocks();
  size_t instructionCount() const;

  Module *parent() const { return Parent; }
  void setParent(Module *M) { Parent = M; }

private:
  std::string Name;
  bool Entry;
  BlockList Blocks;
  Module *Parent = nullptr;
};

} // namespace stinkytofu

#endif
