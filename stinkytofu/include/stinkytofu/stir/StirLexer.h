//===- StirLexer.h - Tokens of the textual IR -------------------*- C++ -*-===//
#ifndef STINKYTOFU_STIR_STIRLEXER_H
#define STINKYTOFU_STIR_STIRLEXER_H

#include "llvm/ADT/StringRef.h"
#include <string>

namespace stinkytofu {

struct StirToken {
  enum class Kind {
    Eof,
    Ident,   ///< st.module, mod.label, s[62:63], label_X, 0x1, -3, SCC0 ...
    String,  ///< "..." (Text holds the unescaped value)
    At,      ///< @name (Text holds the name)
    Caret,   ///< ^name (Text holds the name)
    Punct,   ///< one of { } ( ) [ ] , = :
    Error,
  };
  Kind K = Kind::Eof;
  std::string Text;
  unsigned Line = 0, Column = 0;

  bool is(Kind Other) const { return K == Other; }
  bool isPunct(char C) const { return K == Kind::Punct && Text.size() == 1 && Text[0] == C; }
  bool isIdent(llvm::StringRef S) const { return K == Kind::Ident && Text == S; }
};

/// Whether \p Name can follow `@` or `^` bare; any other name is written
/// as a quoted string (`@"my-kernel"`).
bool isBareStirName(llvm::StringRef Name);

/// The text an operand stands for: a quoted use (`"loop"`) is a label that
/// assembly writes bare.
llvm::StringRef unquotedOperand(llvm::StringRef Operand);

class StirLexer {
public:
  explicit StirLexer(llvm::StringRef Buffer) : Buf(Buffer) {}
  StirToken next();
  /// Reads raw text up to the \p Close that balances an already consumed
  /// opener (strings, () and [] nest), consuming \p Close. False at EOF.
  bool readBalanced(char Close, std::string &Raw);
  /// The source line \p Line (1-based), for diagnostics.
  llvm::StringRef lineText(unsigned Line) const;

private:
  void skipSpaceAndComments();
  llvm::StringRef Buf;
  size_t Pos = 0;
  unsigned Line = 1;
  size_t LineBegin = 0;
};

} // namespace stinkytofu

#endif
