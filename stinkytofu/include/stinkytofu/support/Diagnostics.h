//===- Diagnostics.h - file:line:col diagnostics ----------------*- C++ -*-===//
#ifndef STINKYTOFU_SUPPORT_DIAGNOSTICS_H
#define STINKYTOFU_SUPPORT_DIAGNOSTICS_H

#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"
#include <functional>
#include <string>
#include <utility>
#include <vector>

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

/// An error at a position of the input: a SourceDiagnosticError.
llvm::Error sourceError(llvm::StringRef File, unsigned Line, unsigned Column,
                        llvm::StringRef LineText, const llvm::Twine &Message);

/// One diagnostic, typed: what a DiagnosticHandler receives, so that a
/// library caller (a test, a Python binding) can act on the severity and
/// position instead of parsing text.
struct SourceDiagnostic {
  llvm::SourceMgr::DiagKind Kind = llvm::SourceMgr::DK_Warning;
  /// Empty for a note about the diagnostic before it (printed bare).
  std::string File;
  unsigned Line = 0;   ///< 1-based; 0: the file as a whole
  unsigned Column = 0; ///< 1-based; 0 with a line: the line's start
  std::string LineText;
  std::string Message;
  /// Columns of LineText to underline, 0-based, end exclusive (as MC gives).
  std::vector<std::pair<unsigned, unsigned>> Ranges;
  /// Printed right after it (a macro's "while in macro instantiation").
  std::vector<SourceDiagnostic> Notes;

  /// `file:line:col: warning: message`, the line and a caret, then the notes.
  std::string render() const;
};

/// An llvm::Error that carries its diagnostic typed: a library caller takes
/// the severity and position with llvm::handleErrors; printing it (toString,
/// logAllUnhandledErrors) gives the rendered text.
class SourceDiagnosticError : public llvm::ErrorInfo<SourceDiagnosticError> {
public:
  static char ID;
  explicit SourceDiagnosticError(SourceDiagnostic D) : Diag(std::move(D)) {}
  const SourceDiagnostic &diagnostic() const { return Diag; }
  void log(llvm::raw_ostream &OS) const override { OS << Diag.render(); }
  std::error_code convertToErrorCode() const override {
    return llvm::inconvertibleErrorCode();
  }

private:
  SourceDiagnostic Diag;
};

/// \p D as a SourceDiagnostic (file, position, line and ranges kept).
SourceDiagnostic toSourceDiagnostic(const llvm::SMDiagnostic &D);

/// Receives the warnings and notes a library reports (errors are returned
/// as llvm::Error). StinkyTofuContext (ir/StinkyTofuContext.h) holds one.
using DiagnosticHandler = std::function<void(const SourceDiagnostic &)>;

/// The default handler: prints render() to stderr, one diagnostic at a time
/// when several threads report.
void printDiagnostic(const SourceDiagnostic &D);

} // namespace stinkytofu

#endif
