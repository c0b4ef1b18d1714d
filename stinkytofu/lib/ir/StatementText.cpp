//===- StatementText.cpp - The parts of one assembly statement -------------===//
#include "stinkytofu/ir/StatementText.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/Endian.h"
#include <algorithm>

using namespace llvm;

namespace stinkytofu {

// Every instruction's text is split (mnemonic, comment), and most of its
// bytes are none of the few that matter: the searches below test eight bytes
// at a time.
constexpr uint64_t EveryByte = 0x0101010101010101;

/// The high bit of each byte of \p Word equal to \p C. Exact up to the first
/// such byte, the lowest (borrows only carry towards higher bytes).
static constexpr uint64_t bytesEqual(uint64_t Word, char C) {
  uint64_t X = Word ^ (EveryByte * uint8_t(C));
  return (X - EveryByte) & ~X & (EveryByte << 7);
}

/// The eight bytes of \p Text from \p From on, the first in the lowest byte;
/// past its end NULs, which no search here looks for.
static uint64_t loadWord(StringRef Text, size_t From) {
  size_t Left = Text.size() - From;
  if (Left >= 8)
    return support::endian::read64le(Text.data() + From);
  // The last eight bytes, those before From shifted out.
  if (Text.size() >= 8)
    return support::endian::read64le(Text.end() - 8) >> (8 * (8 - Left));
  uint64_t Word = 0;
  for (size_t I = 0; I < Left; ++I)
    Word |= uint64_t(uint8_t(Text[From + I])) << (8 * I);
  return Word;
}

/// Offset of the first byte at or after \p From that \p Matches (a mask of
/// eight bytes, as bytesEqual gives), or npos.
template <typename MatchFn>
static size_t findByte(StringRef Text, size_t From, MatchFn Matches) {
  for (; From < Text.size(); From += 8)
    if (uint64_t Mask = Matches(loadWord(Text, From)))
      return From + countr_zero(Mask) / 8;
  return StringRef::npos;
}

/// The length of the character constant (`'c'`, `'\c'`) at \p I of \p Text,
/// or 0 where a single quote starts none (MC's lexer refuses the statement).
/// MC reads it as a number: a ';' or ',' in it is neither comment nor cut.
static size_t charConstantLength(StringRef Text, size_t I) {
  if (I + 3 < Text.size() && Text[I + 1] == '\\' && Text[I + 3] == '\'')
    return 4;
  if (I + 2 < Text.size() && Text[I + 2] == '\'')
    return 3;
  return 0;
}

size_t findComment(StringRef Line) {
  // Both quotes in one test: '"' (0x22) and '\'' (0x27) are the bytes that
  // equal 0x27 with bits 0 and 2 set, as do '#' and '&', which are skipped.
  auto QuoteOrMarker = [](uint64_t Word) {
    return bytesEqual(Word | (EveryByte * 0x05), '\'') | bytesEqual(Word, ';') |
           bytesEqual(Word, '/');
  };
  for (size_t I = findByte(Line, 0, QuoteOrMarker); I != StringRef::npos;
       I = findByte(Line, I, QuoteOrMarker)) {
    char C = Line[I];
    if (C == ';' ||
        (C == '/' && I + 1 < Line.size() && (Line[I + 1] == '/' || Line[I + 1] == '*')))
      return I;
    if (C == '\'') {
      I += std::max<size_t>(charConstantLength(Line, I), 1);
      continue;
    }
    if (C != '"') { // a '/' that starts no comment, a '#' or a '&'
      ++I;
      continue;
    }
    // A string: on past its closing quote, escaped characters skipped.
    for (++I; I < Line.size() && Line[I] != '"'; ++I)
      if (Line[I] == '\\')
        ++I;
    ++I;
  }
  return StringRef::npos;
}

// Character loops: StringRef's set-based searches build a table per call,
// and every instruction is split with these.
static bool isBlank(char C) { return C == ' ' || C == '\t'; }

static size_t firstNonBlank(StringRef Line, size_t From) {
  for (size_t I = From; I < Line.size(); ++I)
    if (!isBlank(Line[I]))
      return I;
  return StringRef::npos;
}

static StringRef trimTrailingSpace(StringRef Text) {
  size_t End = Text.size();
  while (End && (isBlank(Text[End - 1]) || Text[End - 1] == '\r'))
    --End;
  return Text.take_front(End);
}

Statement splitStatement(StringRef Line) {
  Statement S;
  size_t Start = firstNonBlank(Line, 0);
  // A block comment before the mnemonic (`/* c */ s_nop 1`) belongs to the
  // indent.
  while (Start != StringRef::npos && Line.substr(Start).starts_with("/*")) {
    size_t Close = Line.find("*/", Start + 2);
    if (Close == StringRef::npos)
      break;
    Start = firstNonBlank(Line, Close + 2);
  }
  if (Start == StringRef::npos)
    Start = Line.size();
  S.Indent = Line.take_front(Start);
  StringRef Rest = Line.drop_front(Start);
  size_t CommentAt = findComment(Rest);
  StringRef Code = Rest;
  if (CommentAt != StringRef::npos) {
    S.Comment = trimTrailingSpace(Rest.drop_front(CommentAt));
    Code = Rest.take_front(CommentAt);
  }
  StringRef CodeTrimmed = trimTrailingSpace(Code);
  S.CommentGap = Code.drop_front(CodeTrimmed.size());
  S.Mnemonic = CodeTrimmed.take_front(findByte(CodeTrimmed, 0, [](uint64_t Word) {
    return bytesEqual(Word, ' ') | bytesEqual(Word, '\t');
  }));
  StringRef AfterMnemonic = CodeTrimmed.drop_front(S.Mnemonic.size());
  S.Body = AfterMnemonic.drop_front(
      std::min(firstNonBlank(AfterMnemonic, 0), AfterMnemonic.size()));
  S.MnemonicGap = AfterMnemonic.take_front(AfterMnemonic.size() - S.Body.size());
  return S;
}

SmallVector<StringRef, 8> splitTopLevel(StringRef Text, char Sep) {
  SmallVector<StringRef, 8> Parts;
  int Depth = 0;
  bool InString = false;
  size_t Begin = 0;
  for (size_t I = 0; I < Text.size(); ++I) {
    char C = Text[I];
    if (InString) {
      if (C == '\\')
        ++I;
      else if (C == '"')
        InString = false;
      continue;
    }
    if (C == '"')
      InString = true;
    else if (C == '\'')
      I += std::max<size_t>(charConstantLength(Text, I), 1) - 1;
    else if (C == '(' || C == '[')
      ++Depth;
    else if ((C == ')' || C == ']') && Depth > 0)
      --Depth;
    else if (C == Sep && Depth == 0) {
      Parts.push_back(Text.slice(Begin, I));
      Begin = I + 1;
    }
  }
  Parts.push_back(Text.drop_front(Begin));
  return Parts;
}

} // namespace stinkytofu
