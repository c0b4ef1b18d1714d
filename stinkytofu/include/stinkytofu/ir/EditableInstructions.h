//===- EditableInstructions.h - Instructions a pass may edit ----*- C++ -*-===//
//
// Analyses read a function const and name its instructions `const
// Instruction *`; a pass that edits what an analysis found holds the
// function non-const. It gets the instructions it may edit from the
// function, found by identity in one walk, not by casting the analysis's
// constness away.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_IR_EDITABLEINSTRUCTIONS_H
#define STINKYTOFU_IR_EDITABLEINSTRUCTIONS_H

#include "stinkytofu/ir/Function.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include <vector>

namespace stinkytofu {

/// \p F's own instructions for \p Found, instructions of \p F as an
/// analysis names them (null ones are left out).
llvm::DenseMap<const Instruction *, Instruction *>
editableInstructions(Function &F, llvm::ArrayRef<const Instruction *> Found);

/// The same for the instruction \p InstructionOf names in each of an
/// analysis's \p Results.
template <typename Range, typename Projection>
llvm::DenseMap<const Instruction *, Instruction *>
editableInstructions(Function &F, const Range &Results, Projection InstructionOf) {
  std::vector<const Instruction *> Found;
  for (const auto &R : Results)
    Found.push_back(InstructionOf(R));
  return editableInstructions(F, Found);
}

} // namespace stinkytofu

#endif
