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
/// is an error naming each one, and nothing is written.
llvm::Error writeAsm(const Module &M, llvm::raw_ostream &OS);
/// An error when an edit changed the code a branch read from data words
/// (`.long` in code, Function::WordBranch) jumps across: its encoded
/// distance would be wrong. writeAsm checks it; so must other writers.
llvm::Error checkWordBranches(const Module &M);

/// The text of one instruction as it is written: its source text when
/// untouched, else formatted in the style around it (newline included).
std::string instructionText(const Instruction &I);

} // namespace stinkytofu

#endif
