//===- Diagnostics.h - file:line:col diagnostics ----------------*- C++ -*-===//
#ifndef STINKYTOFU_SUPPORT_DIAGNOSTICS_H
#define STINKYTOFU_SUPPORT_DIAGNOSTICS_H

#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

namespace stinkytofu {

/// Renders `file:line:col: error: message`, the offending line and a caret,
/// the way clang and llvm-mc do.
std::string renderDiagnostic(llvm::StringRef File, unsigned Line, unsigned Column,
                             llvm::StringRef LineText, llvm::SourceMgr::DiagKind Kind,
                             const llvm::Twine &Message);
std::string renderDiagnostic(const llvm::SMDiagnostic &D);

/// An error whose message is an already rendered diagnostic.
llvm::Error sourceError(llvm::StringRef File, unsigned Line, unsigned Column,
                        llvm::StringRef LineText, const llvm::Twine &Message);

/// Where warnings go (stderr unless a caller redirects them).
llvm::raw_ostream &warningStream();

} // namespace stinkytofu

#endif
