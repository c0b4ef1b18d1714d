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
  // SMDiagnostic columns are 0-based; -1 leaves a position out.
  static const SourceMgr NoBuffers;
  SMDiagnostic D(NoBuffers, SMLoc(), File, Line ? int(Line) : -1,
                 !Line ? -1 : Column ? int(Column) - 1 : 0, Kind, Message.str(),
                 LineText.rtrim("\r\n"), {});
  return renderDiagnostic(D);
}

TextPosition positionOf(StringRef Text, size_t Offset) {
  Offset = std::min(Offset, Text.size());
  size_t LineBegin = Text.rfind('\n', Offset) + 1; // npos + 1 == 0
  TextPosition P;
  P.Line = 1 + unsigned(Text.take_front(LineBegin).count('\n'));
  P.Column = unsigned(Offset - LineBegin) + 1;
  P.LineText = Text.substr(LineBegin).take_until([](char C) { return C == '\n'; });
  return P;
}

Error sourceError(StringRef File, unsigned Line, unsigned Column, StringRef LineText,
                  const Twine &Message) {
  return createStringError(
      inconvertibleErrorCode(),
      renderDiagnostic(File, Line, Column, LineText, SourceMgr::DK_Error, Message));
}

raw_ostream &warningStream() { return errs(); }

} // namespace stinkytofu
