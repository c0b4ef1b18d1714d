//===- WordBranchSpelling.h - Branches written as words, moved by an edit -*- C++ -*-===//
//
// A branch read from data words (Function::WordBranch) holds the distance
// to its target. When an edit changed the code between them, the `.s` and
// `.stir` writers spell it as its mnemonic and its target's label and
// write that label at the target, so that the assembler measures the new
// distance; the others, and all other words, are written as read.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_ASM_WORDBRANCHSPELLING_H
#define STINKYTOFU_ASM_WORDBRANCHSPELLING_H

#include "stinkytofu/ir/Function.h"
#include "stinkytofu/ir/Instruction.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Error.h"
#include <string>

namespace stinkytofu {

class Module;

/// The word branches of a function an edit moved off their words.
struct RespelledWordBranches {
  llvm::DenseSet<unsigned> Lines; ///< the branches' source lines
  llvm::StringSet<> Labels;       ///< their targets
};

/// Which word branches of \p F must be spelled with labels; an error
/// naming the line when one cannot be (no label for its target, other
/// instructions on its line, its target's block gone).
llvm::Expected<RespelledWordBranches> respelledWordBranches(const Module &M, const Function &F);

/// A re-spelled word branch: its mnemonic and its target's label, with the
/// line's indentation and a newline.
std::string respelledBranchText(const Instruction &I);

} // namespace stinkytofu

#endif
