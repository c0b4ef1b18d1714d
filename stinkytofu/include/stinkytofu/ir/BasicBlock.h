//===- BasicBlock.h - A labelled run of instructions ------------*- C++ -*-===//
#ifndef STINKYTOFU_IR_BASICBLOCK_H
#define STINKYTOFU_IR_BASICBLOCK_H

#include "stinkytofu/ir/Instruction.h"
#include "llvm/ADT/StringRef.h"
#include <list>
#include <string>
#include <vector>

namespace stinkytofu {

class Function;

class BasicBlock {
public:
  using InstList = std::list<Instruction>;

  explicit BasicBlock(std::string Label) : Label(std::move(Label)) {}

  /// The label that starts the block; empty for a block that begins after a
  /// branch without a label.
  llvm::StringRef label() const { return Label; }
  bool hasLabel() const { return !Label.empty(); }
  /// The name printed in `.stir`: the label, or `bb<N>`.
  llvm::StringRef name() const { return Name; }
  void setName(std::string N) { Name = std::move(N); }

  /// Verbatim text before the label line, and the label's own source text
  /// (`label_Loop:  // head\n`); empty when synthesized.
  llvm::StringRef leadingText() const { return Leading; }
  void setLeadingText(llvm::StringRef T) { Leading = T; }
  llvm::StringRef labelText() const { return LabelSource; }
  void setLabelText(llvm::StringRef T) { LabelSource = T; }
  SourceLocation location() const { return Loc; }
  void setLocation(SourceLocation L) { Loc = L; }

  InstList &instructions() { return Insts; }
  const InstList &instructions() const { return Insts; }
  bool empty() const { return Insts.empty(); }
  /// Inserts \p I before \p Pos and returns it.
  Instruction &insert(InstList::iterator Pos, Instruction I);
  Instruction &append(Instruction I) { return insert(Insts.end(), std::move(I)); }

  /// Explicit CFG edges, filled by the CFG builder.
  std::vector<BasicBlock *> &successors() { return Succs; }
  const std::vector<BasicBlock *> &successors() const { return Succs; }
  std::vector<BasicBlock *> &predecessors() { return Preds; }
  const std::vector<BasicBlock *> &predecessors() const { return Preds; }

  Function *parent() const { return Parent; }
  void setParent(Function *F) { Parent = F; }

private:
  std::string Label, Name;
  llvm::StringRef Leading, LabelSource;
  SourceLocation Loc;
  InstList Insts;
  std::vector<BasicBlock *> Succs, Preds;
  Function *Parent = nullptr;
};

} // namespace stinkytofu

#endif
