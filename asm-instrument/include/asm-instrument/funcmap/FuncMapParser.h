//===- FuncMapParser.h - Read .sqtt_funcmap text ----------------*- C++ -*-===//
//
// One parser, two modes:
//  - Strict (patching, hand-written maps): the first malformed row is an
//    error carrying its 1-based line; duplicate ids, a second W:/M: row, an
//    R: row before its marker, unknown M:/R: keys, trailing blanks, ids that
//    do not fit the bits an M: row leaves, and R: payloads next to an M: row
//    (packed headers carry no payloads) are errors too.
//  - Lenient (reading someone else's binary, like the decoders): a malformed
//    row is skipped with a warning and parsing goes on; trailing "\r \t\0"
//    are stripped, a NUL ends a row, the last row with a duplicate id wins,
//    R: rows apply to their id wherever they appear.
// Trailing NULs (the section terminator) are ignored in both modes, and so
// are empty lines.
//
//===----------------------------------------------------------------------===//
#ifndef ASM_INSTRUMENT_FUNCMAP_FUNCMAPPARSER_H
#define ASM_INSTRUMENT_FUNCMAP_FUNCMAPPARSER_H

#include "asm-instrument/funcmap/FuncMap.h"
#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace stinkytofu::funcmap {

enum class ParseMode { Strict, Lenient };

/// A lenient-mode warning.
struct FuncMapWarning {
  unsigned Line = 0; ///< 1-based; 0 when no single row is to blame.
  std::string Message;
};

/// A strict-mode error: the row's line and what is wrong with it. Logs as
/// "line N: message"; callers that know the file name print "FILE:N: message".
class FuncMapParseError : public llvm::ErrorInfo<FuncMapParseError> {
public:
  static char ID;
  FuncMapParseError(unsigned Line, std::string Message)
      : Line(Line), Message(std::move(Message)) {}
  unsigned line() const { return Line; }
  const std::string &reason() const { return Message; }
  void log(llvm::raw_ostream &OS) const override;
  std::error_code convertToErrorCode() const override;

private:
  unsigned Line;
  std::string Message;
};

/// Parses funcmap text (section contents with or without the trailing NUL).
/// Strict mode fails with a FuncMapParseError; lenient mode never fails and
/// appends its warnings to \p Warnings when given.
llvm::Expected<FuncMap> parseFuncMap(llvm::StringRef Text, ParseMode Mode,
                                     std::vector<FuncMapWarning> *Warnings = nullptr);

} // namespace stinkytofu::funcmap

#endif
