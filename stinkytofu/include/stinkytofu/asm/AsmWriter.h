//===- AsmWriter.h - Writing the Asm IR back as assembly --------*- C++ -*-===//
#ifndef STINKYTOFU_ASM_ASMWRITER_H
#define STINKYTOFU_ASM_ASMWRITER_H

#include "stinkytofu/ir/Module.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

namespace stinkytofu {

/// Writes \p M as assembly: untouched items byte for byte, changed and new
/// instructions in the file's own style. A module that still holds a
/// pseudo-instruction (InstKind::Pseudo: the pass that lowers it did not run)
/// is an error naming each one, and nothing is written. A branch read from
/// data words (Function::WordBranch) whose span an edit changed is written
/// as its mnemonic with its target's label, and the label at the target.
llvm::Error writeAsm(const Module &M, llvm::raw_ostream &OS);

} // namespace stinkytofu

#endif
