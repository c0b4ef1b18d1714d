//===- BasicBlock.h - A labelled run of instructions ------------*- C++ -*-===//
#ifndef STINKYTOFU_IR_BASICBLOCK_H
#define STINKYTOFU_IR_BASICBLOCK_H

#include "stinkytofu/ir/Instruction.h"
#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <list>
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

  /// Explicit CFG edges, filled by the CFG builder (or read from `.stir`).
  const std::vector<BasicBlock *> &successors() const { return Succs; }
  const std::vector<BasicBlock *> &predecessors() const { return Preds; }
  /// The kind of each successor edge, parallel to successors().
  const std::vector<EdgeKind> &successorKinds() const { return SuccKinds; }
  /// Adds the edge this -> \p To (and the matching predecessor).
  void addSuccessor(BasicBlock *To, EdgeKind Kind);
  /// Removes every edge out of and into this block.
  void clearEdges();

  Function *parent() const { return Parent; }
  void setParent(Function *F) { Parent = F; }

private:
  std::string Label, Name;
  llvm::StringRef Leading, LabelSource;
  SourceLocation Loc;
  InstList Insts;
  std::vector<BasicBlock *> Succs, Preds;
  std::vector<EdgeKind> SuccKinds;
  Function *Parent = nullptr;
};

} // namespace stinkytofu

#endif
