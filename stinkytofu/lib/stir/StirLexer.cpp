//===- StirLexer.cpp - Tokens of the textual IR ---------------------------===//
#include "stinkytofu/stir/StirLexer.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace llvm;

namespace stinkytofu {

StringRef StirLexer::lineText(unsigned Wanted) const {
  StringRef Rest = Buf;
  for (unsigned L = 1; L < Wanted && !Rest.empty(); ++L)
    Rest = Rest.split('\n').second;
  return Rest.split('\n').first;
}

void StirLexer::skipSpaceAndComments() {
  while (Pos < Buf.size()) {
    char C = Buf[Pos];
    if (C == '\n') {
      ++Pos;
      ++Line;
      LineBegin = Pos;
    } else if (isSpace(C)) {
      ++Pos;
    } else if (C == '#' || (C == '/' && Pos + 1 < Buf.size() && Buf[Pos + 1] == '/')) {
      while (Pos < Buf.size() && Buf[Pos] != '\n')
        ++Pos;
    } else {
      return;
    }
  }
}

static bool isWordChar(char C) {
  // Operand words keep brackets and expression characters: s[62:63],
  // v[vgprX+3], (a-b)&4294967295, hwreg(HW_REG_HW_ID, 8, 4) is handled by the
  // parser's raw-operand reader, not here.
  return isAlnum(C) || StringRef("_.$-+*/&|<>~!%:").contains(C);
}

static bool isBareNameChar(char C) { return isAlnum(C) || StringRef("_.$").contains(C); }

bool isBareStirName(StringRef Name) { return !Name.empty() && all_of(Name, isBareNameChar); }

StringRef unquotedOperand(StringRef Operand) {
  if (Operand.size() >= 2 && Operand.front() == '"' && Operand.back() == '"')
    return Operand.drop_front().drop_back();
  return Operand;
}

bool StirLexer::readBalanced(char Close, std::string &Raw) {
  int Depth = 0;
  bool InString = false;
  for (; Pos < Buf.size(); ++Pos) {
    char C = Buf[Pos];
    if (C == '\n') {
      ++Line;
      LineBegin = Pos + 1;
    }
    if (InString) {
      if (C == '\\' && Pos + 1 < Buf.size()) {
        Raw += C; // the escaped character follows, whatever it is
        C = Buf[++Pos];
      } else if (C == '"') {
        InString = false;
      }
    } else if (C == '"') {
      InString = true;
    } else if (C == '(' || C == '[') {
      ++Depth;
    } else if ((C == ')' || C == ']') && Depth > 0) {
      --Depth;
    } else if (C == Close && Depth == 0) {
      ++Pos;
      return true;
    }
    Raw += C;
  }
  return false;
}

StirToken StirLexer::next() {
  skipSpaceAndComments();
  StirToken T;
  T.Line = Line;
  T.Column = unsigned(Pos - LineBegin) + 1;
  if (Pos >= Buf.size())
    return T;
  char C = Buf[Pos];
  if (C == '"') {
    T.K = StirToken::Kind::String;
    ++Pos;
    while (Pos < Buf.size() && Buf[Pos] != '"') {
      char D = Buf[Pos++];
      if (D == '\n') {
        T.K = StirToken::Kind::Error;
        T.Text = "unterminated string";
        return T;
      }
      if (D != '\\') {
        T.Text += D;
        continue;
      }
      if (Pos >= Buf.size())
        break;
      char E = Buf[Pos++];
      switch (E) {
      case 'n': T.Text += '\n'; break;
      case 't': T.Text += '\t'; break;
      case 'r': T.Text += '\r'; break;
      case 'x':
        if (Pos + 1 < Buf.size() && isHexDigit(Buf[Pos]) && isHexDigit(Buf[Pos + 1])) {
          T.Text += char(hexFromNibbles(Buf[Pos], Buf[Pos + 1]));
          Pos += 2;
          break;
        }
        [[fallthrough]];
      default: T.Text += E;
      }
    }
    if (Pos >= Buf.size()) {
      T.K = StirToken::Kind::Error;
      T.Text = "unterminated string";
      return T;
    }
    ++Pos;
    return T;
  }
  if (C == '@' || C == '^') {
    T.K = C == '@' ? StirToken::Kind::At : StirToken::Kind::Caret;
    ++Pos;
    if (Pos < Buf.size() && Buf[Pos] == '"') {
      StirToken Name = next();
      if (Name.is(StirToken::Kind::Error))
        return Name;
      T.Text = Name.Text;
      return T;
    }
    size_t B = Pos;
    while (Pos < Buf.size() && isBareNameChar(Buf[Pos]))
      ++Pos;
    T.Text = Buf.slice(B, Pos).str();
    return T;
  }
  if (StringRef("{}()[],=").contains(C) || (C == ':' && !(Pos + 1 < Buf.size() && isWordChar(Buf[Pos + 1])))) {
    T.K = StirToken::Kind::Punct;
    T.Text = std::string(1, C);
    ++Pos;
    return T;
  }
  if (isWordChar(C)) {
    T.K = StirToken::Kind::Ident;
    size_t B = Pos;
    int Depth = 0;
    while (Pos < Buf.size()) {
      char D = Buf[Pos];
      if (D == '[')
        ++Depth;
      else if (D == ']' && Depth > 0)
        --Depth;
      else if (!isWordChar(D) && !(Depth > 0 && D != '\n'))
        break;
      ++Pos;
    }
    // A trailing ':' ends a block or flat label, not the word.
    if (Pos > B + 1 && Buf[Pos - 1] == ':' && Depth == 0)
      --Pos;
    T.Text = Buf.slice(B, Pos).str();
    return T;
  }
  T.K = StirToken::Kind::Error;
  T.Text = std::string("unexpected character '") + C + "'";
  ++Pos;
  return T;
}

} // namespace stinkytofu
