//===- Diagnostics.h - file:line:col diagnostics ----------------*- C++ -*-===//
#ifndef STINKYTOFU_SUPPORT_DIAGNOSTICS_H
#define STINKYTOFU_SUPPORT_DIAGNOSTICS_H

#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

namespace stinkytofu {

/// Renders `file:line:col: error: message`, the offending line and a caret,
/// the way clang and llvm-mc do; line 0 gives `file: error: message`.
std::string renderDiagnostic(llvm::StringRef File, unsigned Line, unsigned Column,
                             llvm::StringRef LineText, llvm::SourceMgr::DiagKind Kind,
                             const llvm::Twine &Message);
std::string renderDiagnostic(const llvm::SMDiagnostic &D);

/// Where byte \p Offset of \p Text is: 1-based line and column, and the
/// line it is on.
struct TextPosition {
  unsigned Line = 1;
  unsigned Column = 1;
  llvm::StringRef LineText;
};
TextPosition positionOf(llvm::StringRef Text, size_t Offset);

/// An error whose message is an already rendered diagnostic.
llvm::Error sourceError(llvm::StringRef File, unsigned Line, unsigned Column,
                        llvm::StringRef LineText, const llvm::Twine &Message);

/// Where warnings go (stderr unless a caller redirects them).
llvm::raw_ostream &warningStream();

} // namespace stinkytofu

#endif
