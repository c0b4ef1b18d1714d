//===- Diagnostics.cpp - file:line:col diagnostics ------------------------===//
#include "stinkytofu/support/Diagnostics.h"
#include <mutex>

using namespace llvm;

namespace stinkytofu {

std::string renderDiagnostic(const SMDiagnostic &D) {
  std::string Out;
  raw_string_ostream OS(Out);
  D.print(nullptr, OS, /*ShowColors=*/false);
  return Out;
}

/// SMDiagnostic renders as llvm-mc does; its columns are 0-based and -1
/// leaves a position out.
static std::string render(StringRef File, unsigned Line, unsigned Column, StringRef LineText,
                          SourceMgr::DiagKind Kind, const Twine &Message,
                          ArrayRef<std::pair<unsigned, unsigned>> Ranges) {
  static const SourceMgr NoBuffers;
  SMDiagnostic D(NoBuffers, SMLoc(), File, Line ? int(Line) : -1,
                 !Line ? -1 : Column ? int(Column) - 1 : 0, Kind, Message.str(),
                 LineText, Ranges);
  return renderDiagnostic(D);
}

std::string renderDiagnostic(StringRef File, unsigned Line, unsigned Column,
                             StringRef LineText, SourceMgr::DiagKind Kind,
                             const Twine &Message) {
  return render(File, Line, Column, LineText.rtrim("\r\n"), Kind, Message, {});
}

std::string SourceDiagnostic::render() const {
  std::string Out =
      stinkytofu::render(File, Line, Column, LineText, Kind, Message, Ranges);
  for (const SourceDiagnostic &N : Notes)
    Out += N.render();
  return Out;
}

SourceDiagnostic toSourceDiagnostic(const SMDiagnostic &D) {
  SourceDiagnostic S;
  S.Kind = D.getKind();
  S.File = D.getFilename().str();
  S.Line = D.getLineNo() > 0 ? unsigned(D.getLineNo()) : 0;
  S.Column = D.getColumnNo() >= 0 ? unsigned(D.getColumnNo()) + 1 : 0;
  S.LineText = D.getLineContents().str();
  S.Message = D.getMessage().str();
  S.Ranges.assign(D.getRanges().begin(), D.getRanges().end());
  return S;
}

void printDiagnostic(const SourceDiagnostic &D) {
  // Contexts on several threads share stderr: one diagnostic at a time, whole.
  static std::mutex Lock;
  std::string Text = D.render();
  std::lock_guard<std::mutex> Guard(Lock);
  errs() << Text;
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

char SourceDiagnosticError::ID;

Error sourceError(StringRef File, unsigned Line, unsigned Column, StringRef LineText,
                  const Twine &Message) {
  SourceDiagnostic D;
  D.Kind = SourceMgr::DK_Error;
  D.File = File.str();
  D.Line = Line;
  D.Column = Column;
  D.LineText = LineText.rtrim("\r\n").str();
  D.Message = Message.str();
  return make_error<SourceDiagnosticError>(std::move(D));
}

} // namespace stinkytofu
