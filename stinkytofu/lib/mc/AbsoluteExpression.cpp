//===- AbsoluteExpression.cpp - Evaluating an expression as MC does -------===//
#include "stinkytofu/mc/AbsoluteExpression.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/MC/MCParser/AsmLexer.h"
#include "llvm/Support/Error.h"

using namespace llvm;

namespace stinkytofu {
namespace {

/// The tokens of \p Text as MC's parser gets them from its lexer, up to the
/// end or the first token the lexer refuses (kept, an Error).
class Tokens {
public:
  Tokens(StringRef Text, const MCAsmInfo &MAI) : Copy(Text) {
    // The lexer looks one byte past a token: a terminated copy, so that
    // nothing after the text can change how it is read.
    AsmLexer Lexer(MAI);
    Lexer.setBuffer(StringRef(Copy.c_str(), Copy.size()));
    for (;;) {
      const AsmToken &T = Lexer.Lex();
      // The parser drops block comments as it reads (AsmParser::Lex).
      if (T.is(AsmToken::Comment))
        continue;
      List.push_back(T);
      if (T.is(AsmToken::Eof) || T.is(AsmToken::Error))
        break;
    }
  }
  ArrayRef<AsmToken> list() const { return List; }

private:
  SmallString<64> Copy;
  SmallVector<AsmToken, 16> List;
};

/// GNU as's binary operators and precedences, as MC's assembler parser has
/// them; 0 for a token that is none.
unsigned precedence(AsmToken::TokenKind K) {
  switch (K) {
  case AsmToken::PipePipe:
    return 1;
  case AsmToken::AmpAmp:
    return 2;
  case AsmToken::EqualEqual:
  case AsmToken::ExclaimEqual:
  case AsmToken::LessGreater:
  case AsmToken::Less:
  case AsmToken::LessEqual:
  case AsmToken::Greater:
  case AsmToken::GreaterEqual:
    return 3;
  case AsmToken::Plus:
  case AsmToken::Minus:
    return 4;
  case AsmToken::Pipe:
  case AsmToken::Exclaim:
  case AsmToken::Caret:
  case AsmToken::Amp:
    return 5;
  case AsmToken::Star:
  case AsmToken::Slash:
  case AsmToken::Percent:
  case AsmToken::LessLess:
  case AsmToken::GreaterGreater:
    return 6;
  default:
    return 0;
  }
}

/// Precedence climbing over the tokens from \p At. A value it cannot know
/// is nullopt, and the parse goes on, so that a division further on is
/// still seen.
class Evaluator {
public:
  Evaluator(ArrayRef<AsmToken> Toks, size_t At, SymbolLookup Lookup)
      : Toks(Toks), At(At), Lookup(Lookup) {}

  /// The expression from the start; Ok false when its syntax is not one.
  std::optional<int64_t> expression() { return binary(1); }
  bool ok() const { return Ok; }
  bool dividesOverflow() const { return DividesOverflow; }
  /// Whether everything after the expression is the end of the text (a
  /// comment or line end before it is one, as for MC's `.set`).
  bool atEnd() const {
    size_t I = At;
    while (I < Toks.size() && Toks[I].is(AsmToken::EndOfStatement))
      ++I;
    return I < Toks.size() && Toks[I].is(AsmToken::Eof);
  }

private:
  const AsmToken &peek() const { return Toks[std::min(At, Toks.size() - 1)]; }

  std::optional<int64_t> binary(unsigned MinPrecedence) {
    std::optional<int64_t> L = unary();
    while (Ok) {
      AsmToken::TokenKind Op = peek().getKind();
      unsigned P = precedence(Op);
      if (P == 0 || P < MinPrecedence)
        break;
      ++At;
      std::optional<int64_t> R = binary(P + 1);
      L = L && R ? apply(Op, *L, *R) : std::nullopt;
    }
    return L;
  }

  std::optional<int64_t> apply(AsmToken::TokenKind Op, int64_t L, int64_t R) {
    // Wrapping arithmetic on 64 bits, as MC evaluates.
    uint64_t UL = uint64_t(L), UR = uint64_t(R);
    switch (Op) {
    case AsmToken::Plus:
      return int64_t(UL + UR);
    case AsmToken::Minus:
      return int64_t(UL - UR);
    case AsmToken::Star:
      return int64_t(UL * UR);
    case AsmToken::Slash:
    case AsmToken::Percent:
      if (R == 0)
        return std::nullopt; // MC refuses a division by zero
      if (L == INT64_MIN && R == -1) {
        DividesOverflow = true;
        return std::nullopt;
      }
      return Op == AsmToken::Slash ? L / R : L % R;
    // MC shifts with the machine's instruction, which on x86-64 takes the
    // count modulo 64 (`1 << 64` is 1 to it); `>>` is the logical shift.
    case AsmToken::LessLess:
      return int64_t(UL << (UR & 63));
    case AsmToken::GreaterGreater:
      return int64_t(UL >> (UR & 63));
    case AsmToken::Amp:
      return int64_t(UL & UR);
    case AsmToken::Pipe:
      return int64_t(UL | UR);
    case AsmToken::Caret:
      return int64_t(UL ^ UR);
    case AsmToken::Exclaim: // or-not
      return int64_t(UL | ~UR);
    case AsmToken::AmpAmp:
      return int64_t(L && R);
    case AsmToken::PipePipe:
      return int64_t(L || R);
    // A true comparison is -1, as in GNU as.
    case AsmToken::EqualEqual:
      return -int64_t(L == R);
    case AsmToken::ExclaimEqual:
    case AsmToken::LessGreater:
      return -int64_t(L != R);
    case AsmToken::Less:
      return -int64_t(L < R);
    case AsmToken::LessEqual:
      return -int64_t(L <= R);
    case AsmToken::Greater:
      return -int64_t(L > R);
    case AsmToken::GreaterEqual:
      return -int64_t(L >= R);
    default:
      return std::nullopt;
    }
  }

  std::optional<int64_t> unary() {
    const AsmToken &T = peek();
    ++At;
    switch (T.getKind()) {
    case AsmToken::Minus:
    case AsmToken::Plus:
    case AsmToken::Tilde:
    case AsmToken::Exclaim: {
      std::optional<int64_t> V = unary();
      if (!V)
        return std::nullopt;
      uint64_t U = uint64_t(*V);
      return T.is(AsmToken::Minus)   ? int64_t(0 - U)
             : T.is(AsmToken::Tilde) ? int64_t(~U)
             : T.is(AsmToken::Exclaim) ? int64_t(U == 0)
                                       : *V;
    }
    case AsmToken::LParen: {
      std::optional<int64_t> V = binary(1);
      if (!peek().is(AsmToken::RParen)) {
        Ok = false;
        return std::nullopt;
      }
      ++At;
      return V;
    }
    case AsmToken::Integer:
      // Character constants and suffixed numbers (`5u`) too: the lexer
      // gives their value.
      return T.getIntVal();
    case AsmToken::Real: {
      // A floating-point literal is the bits of its double.
      APFloat F(APFloat::IEEEdouble());
      Expected<APFloat::opStatus> S =
          F.convertFromString(T.getString(), APFloat::rmNearestTiesToEven);
      if (!S) {
        consumeError(S.takeError());
        return std::nullopt;
      }
      return int64_t(F.bitcastToAPInt().getZExtValue());
    }
    case AsmToken::Identifier: {
      // `.` is the location; `name@variant` a relocation.
      StringRef Name = T.getString();
      if (Name == "." || Name.contains('@'))
        return std::nullopt;
      return Lookup(Name);
    }
    default:
      Ok = false;
      return std::nullopt;
    }
  }

  ArrayRef<AsmToken> Toks;
  size_t At;
  SymbolLookup Lookup;
  bool Ok = true;
  bool DividesOverflow = false;
};

/// A decimal of up to 18 digits without the leading 0 of an octal one:
/// what MC's lexer makes of it is the number it says.
bool isPlainDecimal(StringRef S) {
  return !S.empty() && S.size() <= 18 && (S[0] != '0' || S.size() == 1) && all_of(S, isDigit);
}

/// The value of a sum of names and plain decimals (`vgprValuC+4`,
/// `sgprA - 2`), the index of nearly every symbolic register, without the
/// lexer; none when \p Text is not one (then it is read as any other).
/// Each term ends at a space, `+`, `-` or the end: a character the lexer
/// would take into the token (`4b`, `x.y`, `a@b`) makes it no such sum.
/// Once the whole text is known to be one, the symbols are looked up in
/// order, all of them, as the evaluator does: one it does not know makes
/// the value unknown.
std::optional<ExpressionValue> evaluateSum(StringRef Text, SymbolLookup Lookup) {
  auto IsNameStart = [](char C) { return isAlpha(C) || C == '_'; };
  auto IsNameChar = [](char C) { return isAlnum(C) || C == '_'; };
  SmallVector<std::pair<StringRef, bool>, 4> Terms; // and whether subtracted
  bool Negate = false;
  size_t I = 0, N = Text.size();
  auto SkipSpace = [&] {
    while (I < N && (Text[I] == ' ' || Text[I] == '\t'))
      ++I;
  };
  for (;;) {
    SkipSpace();
    size_t Begin = I;
    if (I < N && IsNameStart(Text[I]))
      while (I < N && IsNameChar(Text[I]))
        ++I;
    else
      while (I < N && isDigit(Text[I]))
        ++I;
    StringRef Term = Text.slice(Begin, I);
    if (Term.empty() || (!IsNameStart(Term[0]) && !isPlainDecimal(Term)))
      return std::nullopt;
    Terms.emplace_back(Term, Negate);
    SkipSpace();
    if (I == N)
      break;
    if (Text[I] != '+' && Text[I] != '-')
      return std::nullopt; // `a b`, `a * b`, `4b`, `x.y`
    Negate = Text[I] == '-';
    ++I;
  }
  std::optional<int64_t> Sum = 0;
  for (auto [Term, Subtract] : Terms) {
    std::optional<int64_t> V;
    if (IsNameStart(Term[0])) {
      V = Lookup(Term);
    } else {
      V = 0;
      for (char C : Term)
        V = *V * 10 + (C - '0');
    }
    // Wrapping arithmetic on 64 bits, as the evaluator's.
    if (Sum && V)
      Sum = int64_t(Subtract ? uint64_t(*Sum) - uint64_t(*V) : uint64_t(*Sum) + uint64_t(*V));
    else
      Sum = std::nullopt;
  }
  return ExpressionValue{Sum, false};
}

} // namespace

ExpressionValue evaluateAbsolute(StringRef Text, const MCAsmInfo &MAI, SymbolLookup Lookup) {
  // A decimal number, most of what `.set` is given, and a sum such as a
  // register index need no lexer.
  if (std::optional<ExpressionValue> Sum = evaluateSum(Text, Lookup))
    return *Sum;
  Tokens Toks(Text, MAI);
  Evaluator E(Toks.list(), 0, Lookup);
  std::optional<int64_t> V = E.expression();
  ExpressionValue Result;
  Result.DividesOverflow = E.dividesOverflow();
  if (E.ok() && E.atEnd() && !Result.DividesOverflow)
    Result.Value = V;
  return Result;
}

bool dividesOverflowAnywhere(StringRef Text, const MCAsmInfo &MAI, SymbolLookup Lookup) {
  Tokens Toks(Text, MAI);
  ArrayRef<AsmToken> List = Toks.list();
  // An expression starts the statement's operands and follows each comma,
  // bracket, parenthesis and colon (`offset:`); a parenthesis' inside is
  // tried on its own too, as an unknown symbol before it stops nothing.
  for (size_t I = 0; I < List.size(); ++I) {
    bool Starts = I == 1 || (I > 0 && (List[I - 1].is(AsmToken::Comma) ||
                                       List[I - 1].is(AsmToken::LParen) ||
                                       List[I - 1].is(AsmToken::LBrac) ||
                                       List[I - 1].is(AsmToken::Colon) ||
                                       List[I - 1].is(AsmToken::Pipe)));
    if (!Starts && I != 0)
      continue;
    Evaluator E(List, I, Lookup);
    E.expression();
    if (E.dividesOverflow())
      return true;
  }
  return false;
}

} // namespace stinkytofu
