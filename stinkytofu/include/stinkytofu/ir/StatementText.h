//===- StatementText.h - The parts of one assembly statement -----*- C++ -*-===//
//
// How a statement's text is cut into indent, mnemonic, operand text and
// trailing comment, outside strings and brackets, and which lines between
// statements hold code. The IR keeps each
// instruction's source text and splits it on demand with these, so they sit
// in the IR layer; typing the operands is the reader's (mc/OperandParser.h).
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_IR_STATEMENTTEXT_H
#define STINKYTOFU_IR_STATEMENTTEXT_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Compiler.h"
#include <utility>

namespace stinkytofu {

struct Statement {
  llvm::StringRef Indent;   ///< leading white space
  llvm::StringRef Mnemonic; ///< as written
  llvm::StringRef Body;     ///< everything between mnemonic and comment, trimmed
  llvm::StringRef Comment;  ///< trailing comment with its marker, or empty
  /// White space between the mnemonic and the first operand.
  llvm::StringRef MnemonicGap;
  /// White space between the last operand and the comment.
  llvm::StringRef CommentGap;
};

/// Offset of the first comment marker (`//`, `;`, `/*`) outside strings, or
/// npos.
size_t findComment(llvm::StringRef Line);

/// Splits at top-level occurrences of \p Sep (outside (), [] and strings).
llvm::SmallVector<llvm::StringRef, 8> splitTopLevel(llvm::StringRef Text, char Sep);

/// Splits one statement (no newline) into its parts.
Statement splitStatement(llvm::StringRef Line);

/// The end of the line of \p Text that starts at \p At, past the end of any
/// block comment opened on it, and whether the line holds anything but white
/// space and comments. A block comment left open counts as code: the line
/// that closes it is not known here.
/// Inlined where it is called: the reader calls it for every line between
/// statements.
LLVM_ATTRIBUTE_ALWAYS_INLINE std::pair<size_t, bool> scanLine(llvm::StringRef Text, size_t At) {
  bool Code = false;
  size_t I = At, N = Text.size();
  while (I < N) {
    char C = Text[I];
    llvm::StringRef Rest = Text.substr(I);
    if (C == '\n')
      return {I + 1, Code};
    if (Rest.starts_with("/*")) {
      size_t Close = Text.find("*/", I + 2);
      if (Close == llvm::StringRef::npos)
        return {N, true};
      I = Close + 2;
    } else if (C == ';' || Rest.starts_with("//")) {
      size_t End = Text.find('\n', I);
      return {End == llvm::StringRef::npos ? N : End + 1, Code};
    } else if (C == '"') {
      // A string's ';' or '/*' opens no comment.
      Code = true;
      for (++I; I < N && Text[I] != '"' && Text[I] != '\n'; ++I)
        if (Text[I] == '\\' && I + 1 < N && Text[I + 1] != '\n')
          ++I;
      if (I < N && Text[I] == '"')
        ++I;
    } else {
      Code |= !llvm::isSpace(C);
      ++I;
    }
  }
  return {N, Code};
}

} // namespace stinkytofu

#endif
