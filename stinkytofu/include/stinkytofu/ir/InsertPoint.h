//===- InsertPoint.h - A place between two instructions ----------*- C++ -*-===//
//
// Where a pass plans to insert code before it inserts anything: a point
// between two instructions of the original program. Planning on points
// rather than iterators keeps every plan about the code as read, whatever
// was inserted at other points meanwhile (the SQTT instrumentation plans all
// its markers first; BranchLayout measures the bytes inserted per point).
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_IR_INSERTPOINT_H
#define STINKYTOFU_IR_INSERTPOINT_H

#include "stinkytofu/ir/BasicBlock.h"

namespace stinkytofu {

/// A place between two instructions: before \c Before (in front of the
/// directives before it, where the source's text between the two
/// instructions starts: BasicBlock::directivesBefore), or at the end of
/// \c Block when \c Before is null (after its last instruction, or in an
/// empty block).
struct InsertPoint {
  BasicBlock *Block = nullptr;
  Instruction *Before = nullptr;

  static InsertPoint before(Instruction &I) { return {I.parent(), &I}; }
  /// Right after \p I: before the next instruction of its block, or at the
  /// block's end.
  static InsertPoint after(Instruction &I);
  /// The start of \p BB.
  static InsertPoint atStart(BasicBlock &BB);
  /// The block the point lies in.
  BasicBlock *block() const { return Before ? Before->parent() : Block; }
  bool operator==(const InsertPoint &O) const {
    return Block == O.Block && Before == O.Before;
  }
};

} // namespace stinkytofu

#endif
