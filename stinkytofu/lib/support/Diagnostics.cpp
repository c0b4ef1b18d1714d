//===- Diagnostics.cpp - file:line:col diagnostics ------------------------===//
#include "stinkytofu/support/Diagnostics.h"

using namespace llvm;

namespace stinkytofu {

std::string renderDiagnostic(const SMDiagnostic &D) {
  std::string Out;
  raw_string_ostream OS(Out);
  D.print(nullptr, OS, /*ShowColors=*/false);
  return Out;
}

std::string renderDiagnostic(StringRef File, unsigned Line, unsigned Column,
                             StringRef LineText, SourceMgr::DiagKind Kind,
                             const Twine &Message) {
  // SMDiagnostic columns are 0-based.
  static const SourceMgr NoBuffers;
  SMDiagnostic D(NoBuffers, SMLoc(), File, int(Line), Column ? int(Column) - 1 : 0,
                 Kind, Message.str(), LineText.rtrim("\r\n"), {});
  return renderDiagnostic(D);
}

Error sourceError(StringRef File, unsigned Line, unsigned Column, StringRef LineText,
                  const Twine &Message) {
  return createStringError(
      inconvertibleErrorCode(),
      renderDiagnostic(File, Line, Column, LineText, SourceMgr::DK_Error, Message));
}

raw_ostream &warningStream() { return errs(); }

} // namespace stinkytofu
