//===- StatementText.cpp - The parts of one assembly statement -------------===//
#include "stinkytofu/ir/StatementText.h"
#include "llvm/ADT/StringExtras.h"

using namespace llvm;

namespace stinkytofu {

size_t findComment(StringRef Line) {
  bool InString = false;
  for (size_t I = 0; I < Line.size(); ++I) {
    char C = Line[I];
    if (InString) {
      if (C == '\\')
        ++I;
      else if (C == '"')
        InString = false;
      continue;
    }
    if (C == '"')
      InString = true;
    else if (C == ';')
      return I;
    else if (C == '/' && I + 1 < Line.size() && (Line[I + 1] == '/' || Line[I + 1] == '*'))
      return I;
  }
  return StringRef::npos;
}

// Character loops: StringRef's set-based searches build a table per call,
// and every instruction's mnemonic is cut out with these.
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
  size_t MnemonicEnd = 0;
  while (MnemonicEnd < CodeTrimmed.size() && !isBlank(CodeTrimmed[MnemonicEnd]))
    ++MnemonicEnd;
  S.Mnemonic = CodeTrimmed.take_front(MnemonicEnd);
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
