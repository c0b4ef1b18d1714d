//===- TestModules.h - Modules read from text, for unit tests ----*- C++ -*-===//
//
// The one way unit tests read a module from a string, `.s` or `.stir`: a
// read error is a test failure (with the reader's message) and a null
// module, so a test stops at its first ASSERT on the result; and print one
// back as assembly.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_TESTS_UNIT_TESTMODULES_H
#define STINKYTOFU_TESTS_UNIT_TESTMODULES_H

#include "stinkytofu/ir/Module.h"
#include "stinkytofu/ir/StinkyTofuContext.h"
#include "llvm/ADT/StringRef.h"
#include <memory>
#include <vector>

namespace stinkytofu::test {

/// The module of the assembly \p Text; null (and a test failure) when it
/// does not read. \p Arch is --arch: empty for the text's `.amdgcn_target`,
/// else the reader's default (gfx942); a text's `.amdgcn_target` must agree
/// with it. \p FileName is the name diagnostics show. \p Context: the
/// reader's (ReaderOptions::Context), none by default.
std::unique_ptr<Module> readAsmText(llvm::StringRef Text, llvm::StringRef Arch = "",
                                    bool AllowUnknown = false,
                                    llvm::StringRef FileName = "t.s",
                                    StinkyTofuContext *Context = nullptr);

/// \p M printed as assembly (a write error is a test failure).
std::string printAsmText(const Module &M);

/// The module of the textual IR \p Text, read like readAsmText().
std::unique_ptr<Module> readStirText(llvm::StringRef Text, llvm::StringRef Arch = "",
                                     llvm::StringRef FileName = "t.stir");

/// Every instruction of \p M, function by function, in text order.
std::vector<const Instruction *> allInstructions(const Module &M);

} // namespace stinkytofu::test

#endif
