//===- OperandParser.cpp - Splitting a statement into typed parts ---------===//
#include "stinkytofu/mc/OperandParser.h"
#include "stinkytofu/hw/TargetInfo.h"
#include "llvm/ADT/StringExtras.h"

using namespace llvm;

namespace stinkytofu {

namespace {

bool isIdentStart(char C) { return isAlpha(C) || C == '_' || C == '.' || C == '$'; }
bool isIdentChar(char C) { return isAlnum(C) || C == '_' || C == '.' || C == '$' || C == '@'; }

bool isIdentifier(StringRef S) {
  return !S.empty() && isIdentStart(S[0]) && llvm::all_of(S, isIdentChar);
}

} // namespace

namespace {

bool isOperatorChar(char C) { return StringRef("+-*/%&|^<>~!=").contains(C); }

/// Splits a comma-separated piece at white space, keeping binary expressions
/// written with spaces (`label - . - 12`) together.
SmallVector<StringRef, 4> splitWords(StringRef Piece) {
  SmallVector<StringRef, 4> Words;
  int Depth = 0;
  size_t I = 0, N = Piece.size();
  while (I < N) {
    while (I < N && isSpace(Piece[I]))
      ++I;
    if (I >= N)
      break;
    size_t Begin = I;
    for (; I < N; ++I) {
      char C = Piece[I];
      if (C == '(' || C == '[')
        ++Depth;
      else if ((C == ')' || C == ']') && Depth > 0)
        --Depth;
      else if (isSpace(C) && Depth == 0) {
        // Join "a - b" and "a -b"-style expressions across the space.
        size_t Next = Piece.find_first_not_of(" \t", I);
        // A closing `|` of an absolute value (`|v2| clamp`) ends a word.
        StringRef Word = Piece.slice(Begin, I).ltrim("-");
        bool IsAbs = Word.size() >= 3 && Word.front() == '|' && Word.back() == '|';
        bool EndsWithOp = isOperatorChar(Piece[I - 1]) && !IsAbs;
        bool NextIsOp = Next != StringRef::npos && isOperatorChar(Piece[Next]) &&
                        Next + 1 < N && isSpace(Piece[Next + 1]);
        if (Next != StringRef::npos && (EndsWithOp || NextIsOp)) {
          I = Next - 1;
          continue;
        }
        break;
      }
    }
    Words.push_back(Piece.slice(Begin, I));
  }
  return Words;
}

/// A register spelling without its source modifiers.
struct BareRegister {
  StringRef Core;
  unsigned Mods = SrcModNone;
  RegHalf Half = RegHalf::Full;
};

/// Strips the source modifiers around a register: -v1, |v1|, -|v1|,
/// abs(v1), neg(v1), sext(v1), and the true16 halves v1.l / v1.h.
BareRegister stripSourceModifiers(StringRef S) {
  BareRegister R;
  for (bool Changed = true; Changed;) {
    Changed = false;
    if (S.consume_front("-")) {
      R.Mods |= SrcModNeg;
      Changed = true;
      continue;
    }
    if (S.size() >= 2 && S.front() == '|' && S.back() == '|') {
      S = S.drop_front().drop_back();
      R.Mods |= SrcModAbs;
      Changed = true;
      continue;
    }
    static const std::pair<StringRef, SourceModifier> Calls[] = {
        {"abs(", SrcModAbs}, {"neg(", SrcModNeg}, {"sext(", SrcModSext}};
    for (auto [Fn, Mod] : Calls)
      if (S.starts_with_insensitive(Fn) && S.ends_with(")")) {
        S = S.drop_front(Fn.size()).drop_back();
        R.Mods |= Mod;
        Changed = true;
      }
  }
  if (S.ends_with_insensitive(".l") || S.ends_with_insensitive(".h")) {
    R.Half = S.ends_with_insensitive(".l") ? RegHalf::Low : RegHalf::High;
    S = S.drop_back(2);
  }
  R.Core = S;
  return R;
}

} // namespace

Operand classifyOperand(StringRef Spelling, const TargetInfo &TI, SymbolLookup Lookup) {
  BareRegister Bare = stripSourceModifiers(Spelling);
  StringRef Core = Bare.Core;
  // Registers: v5, s[4:7], a[0:15], acc[0:3], ttmp[4:5], v[vgprValuC+3].
  static const std::pair<StringRef, RegFile> Files[] = {
      {"ttmp", RegFile::TTMP}, {"acc", RegFile::AGPR}, {"v", RegFile::VGPR},
      {"s", RegFile::SGPR},    {"a", RegFile::AGPR}};
  for (auto &[Prefix, File] : Files) {
    if (!Core.starts_with_insensitive(Prefix))
      continue;
    StringRef Index = Core.drop_front(Prefix.size());
    Operand Op(OperandKind::Register, Spelling.str());
    Op.setSourceModifiers(Bare.Mods, Bare.Half);
    unsigned N;
    if (!Index.empty() && llvm::all_of(Index, isDigit) && !Index.getAsInteger(10, N)) {
      Op.setRegister(File, N, 1, false);
      return Op;
    }
    if (Index.size() >= 3 && Index.front() == '[' && Index.back() == ']') {
      StringRef Inner = Index.drop_front().drop_back();
      auto [LoText, HiText] = Inner.split(':');
      bool Symbolic = !llvm::all_of(Inner, [](char C) { return isDigit(C) || C == ':' || isSpace(C); });
      // The index is MC's expression: evaluated as MC does.
      std::optional<int64_t> Lo = evaluateAbsolute(LoText, TI.asmInfo(), Lookup).Value;
      std::optional<int64_t> Hi =
          HiText.empty() ? Lo : evaluateAbsolute(HiText, TI.asmInfo(), Lookup).Value;
      if (Lo && Hi && *Hi >= *Lo)
        Op.setRegister(File, unsigned(*Lo), unsigned(*Hi - *Lo + 1), Symbolic);
      else
        Op.setRegister(File, std::nullopt, 0, Symbolic);
      return Op;
    }
  }
  if (isIdentifier(Core) && TI.findRegister(Core.upper()).isValid()) {
    Operand Op(OperandKind::SpecialRegister, Spelling.str());
    Op.setSourceModifiers(Bare.Mods, Bare.Half);
    return Op;
  }
  if (Core.equals_insensitive("off") || Core.equals_insensitive("flat_scratch") ||
      Core.equals_insensitive("null"))
    return Operand(OperandKind::SpecialRegister, Spelling.str());

  int64_t Value;
  if (!Spelling.getAsInteger(0, Value) ||
      (Spelling.starts_with("-") && !Spelling.drop_front().getAsInteger(0, Value) &&
       (Value = -Value, true))) {
    Operand Op(OperandKind::Immediate, Spelling.str());
    Op.setImmediate(Value);
    return Op;
  }
  StringRef Float = Spelling;
  Float.consume_front("-");
  if (!Float.empty() && isDigit(Float[0]) &&
      llvm::all_of(Float, [](char C) { return isDigit(C) || C == '.' || C == 'e' || C == 'E' || C == '-' || C == '+'; }))
    return Operand(OperandKind::FloatImmediate, Spelling.str());
  if (isIdentifier(Spelling))
    return Operand(OperandKind::Symbol, Spelling.str());
  size_t Paren = Spelling.find('(');
  if (Paren != StringRef::npos && Paren > 0 && isIdentifier(Spelling.take_front(Paren)) &&
      Spelling.ends_with(")"))
    return Operand(OperandKind::Function, Spelling.str());
  return Operand(OperandKind::Expression, Spelling.str());
}

/// `name(args)`: a counter field of a wait (`vmcnt(0)`), `hwreg(...)`.
static bool isFieldCall(StringRef Word) {
  size_t Open = Word.find('(');
  return Open != StringRef::npos && Open > 0 && Word.ends_with(")") &&
         all_of(Word.take_front(Open), [](char C) { return isAlnum(C) || C == '_'; });
}

std::vector<Operand> parseOperands(StringRef Body, const TargetInfo &TI,
                                   SymbolLookup Lookup) {
  std::vector<Operand> Ops;
  if (Body.trim().empty())
    return Ops;
  SmallVector<StringRef, 8> Pieces = splitTopLevel(Body, ',');
  Ops.reserve(Pieces.size()); // one each, and the modifiers some write
  for (StringRef Piece : Pieces) {
    SmallVector<StringRef, 4> Words = splitWords(Piece);
    // `vmcnt(0) lgkmcnt(1)`, `vmcnt(0) & expcnt(0)`,
    // `instid0(VALU_DEP_1) | instskip(NEXT)`: one operand (MC reads one
    // immediate), not a call and modifiers.
    size_t Calls = 0;
    auto IsJoiner = [&](size_t I) { return I && (Words[I] == "&" || Words[I] == "|"); };
    while (Calls < Words.size() && (isFieldCall(Words[Calls]) || IsJoiner(Calls)))
      ++Calls;
    if (Calls > 1 && isFieldCall(Words[Calls - 1])) {
      StringRef Joined(Words[0].begin(), Words[Calls - 1].end() - Words[0].begin());
      Ops.push_back(classifyOperand(Joined, TI, Lookup));
      Words.erase(Words.begin(), Words.begin() + Calls - 1);
    } else {
      Ops.push_back(classifyOperand(Words[0], TI, Lookup));
    }
    for (size_t I = 1; I < Words.size(); ++I)
      Ops.emplace_back(OperandKind::Modifier, Words[I].str());
  }
  return Ops;
}

} // namespace stinkytofu
