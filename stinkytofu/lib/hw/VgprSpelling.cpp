//===- VgprSpelling.cpp - VGPRs written in assembly text ------------------===//
#include "stinkytofu/hw/VgprSpelling.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"

using namespace llvm;

namespace stinkytofu {

namespace {

constexpr unsigned Bank = 256;

bool isWordChar(char C) { return isAlnum(C) || C == '_' || C == '$' || C == '@'; }

/// Reads decimal digits at \p P.
std::optional<unsigned> number(StringRef S, size_t &P) {
  size_t B = P;
  while (P < S.size() && isDigit(S[P]))
    ++P;
  unsigned V;
  if (P == B || P - B > 5 || S.slice(B, P).getAsInteger(10, V))
    return std::nullopt;
  return V;
}

/// A VGPR token starting at \p P (a 'v' not inside a word), if any.
std::optional<VgprToken> tokenAt(StringRef S, size_t P) {
  VgprToken T;
  T.Begin = P;
  size_t Q = P + 1;
  if (Q < S.size() && S[Q] == '[') {
    ++Q;
    std::optional<unsigned> Lo = number(S, Q), Hi = Lo;
    if (!Lo)
      return std::nullopt;
    if (Q < S.size() && S[Q] == ':') {
      ++Q;
      Hi = number(S, Q);
    }
    if (!Hi || *Hi < *Lo || Q >= S.size() || S[Q] != ']')
      return std::nullopt;
    ++Q;
    T.First = *Lo;
    T.Count = *Hi - *Lo + 1;
    T.Bracketed = true;
  } else {
    std::optional<unsigned> N = number(S, Q);
    if (!N)
      return std::nullopt;
    T.First = *N;
  }
  // Not the start of a longer word; a true16 half (`.l`, `.h`) may follow.
  if (Q < S.size() && isWordChar(S[Q]))
    return std::nullopt;
  if (Q < S.size() && S[Q] == '.') {
    bool Half = Q + 1 < S.size() && StringRef("lhLH").contains(S[Q + 1]) &&
                (Q + 2 >= S.size() || !isWordChar(S[Q + 2]));
    if (!Half)
      return std::nullopt;
  }
  T.End = T.EndWithNote = Q;
  // LLVM's note: ` /*v300*/` right after the register (or its half).
  size_t R = Q;
  if (R + 1 < S.size() && S[R] == '.')
    R += 2;
  size_t Sp = R;
  while (Sp < S.size() && S[Sp] == ' ')
    ++Sp;
  if (S.substr(Sp).starts_with("/*")) {
    size_t Close = S.find("*/", Sp + 2);
    if (Close != StringRef::npos) {
      StringRef Note = S.slice(Sp + 2, Close);
      if (!Note.empty() && Note[0] == 'v')
        if (std::optional<VgprToken> N = tokenAt(Note, 0); N && N->End == Note.size()) {
          T.NoteFirst = N->First;
          T.EndWithNote = Close + 2;
        }
    }
  }
  return T;
}

} // namespace

void forEachVgprToken(StringRef S, function_ref<void(const VgprToken &)> Fn) {
  size_t P = 0, N = S.size();
  while (P < N) {
    char C = S[P];
    if (C == ';' || (C == '/' && P + 1 < N && S[P + 1] == '/') ||
        (C == '#' && (P == 0 || S[P - 1] == '\n'))) {
      P = S.find('\n', P);
      if (P == StringRef::npos)
        return;
      continue;
    }
    if (C == '/' && P + 1 < N && S[P + 1] == '*') {
      size_t Close = S.find("*/", P + 2);
      if (Close == StringRef::npos)
        return;
      P = Close + 2;
      continue;
    }
    if (C == '"') {
      for (++P; P < N && S[P] != '"' && S[P] != '\n'; ++P)
        if (S[P] == '\\')
          ++P;
      ++P;
      continue;
    }
    if (C == 'v' && (P == 0 || (!isWordChar(S[P - 1]) && S[P - 1] != '.'))) {
      if (std::optional<VgprToken> T = tokenAt(S, P)) {
        Fn(*T);
        P = T->EndWithNote;
        continue;
      }
    }
    ++P;
  }
}

std::string rewriteVgprTokens(StringRef Text, bool WithNote,
                              function_ref<std::optional<std::string>(const VgprToken &)> Fn) {
  std::string Out;
  size_t Done = 0;
  forEachVgprToken(Text, [&](const VgprToken &T) {
    std::optional<std::string> New = Fn(T);
    if (!New)
      return;
    Out += Text.slice(Done, T.Begin);
    Out += *New;
    Done = WithNote ? T.EndWithNote : T.End;
  });
  if (Done == 0)
    return Text.str();
  Out += Text.substr(Done);
  return Out;
}

std::optional<VgprToken> findHighVgpr(StringRef Text) {
  std::optional<VgprToken> Found;
  forEachVgprToken(Text, [&](const VgprToken &T) {
    if (!Found && T.First >= Bank)
      Found = T;
  });
  return Found;
}

std::string logicalVgprSpelling(unsigned First, unsigned Count, bool Bracketed) {
  if (Count == 1 && !Bracketed)
    return ("v" + Twine(First)).str();
  if (Count == 1)
    return ("v[" + Twine(First) + "]").str();
  return ("v[" + Twine(First) + ":" + Twine(First + Count - 1) + "]").str();
}

std::string encodedVgprSpelling(unsigned First, unsigned Count, bool Bracketed) {
  std::string Low = logicalVgprSpelling(First % Bank, Count, Bracketed);
  if (First < Bank)
    return Low;
  return Low + " /*" + logicalVgprSpelling(First, Count, Bracketed) + "*/";
}

std::optional<std::string> padHighVgprsToLow(StringRef Text) {
  if (!findHighVgpr(Text))
    return std::nullopt; // no copy of a file without them
  bool Any = false;
  std::string Out = rewriteVgprTokens(Text, /*WithNote=*/false,
                                      [&](const VgprToken &T) -> std::optional<std::string> {
    if (T.First < Bank)
      return std::nullopt;
    Any = true;
    unsigned Low = T.First % Bank;
    StringRef Written = Text.slice(T.Begin, T.End);
    std::string New;
    if (!T.Bracketed) {
      // v300 -> v044: leading zeros keep the length and the value.
      std::string Digits = Twine(Low).str();
      size_t Width = Written.size() - 1;
      New = "v" + std::string(Width - Digits.size(), '0') + Digits;
    } else {
      // v[300:303] -> v[ 44: 47] (a leading zero would read as octal).
      size_t Colon = Written.find(':');
      auto Pad = [](unsigned V, size_t Width) {
        std::string D = Twine(V).str();
        return std::string(Width - D.size(), ' ') + D;
      };
      if (Colon == StringRef::npos)
        New = "v[" + Pad(Low, Written.size() - 3) + "]";
      else
        New = "v[" + Pad(Low, Colon - 2) + ":" +
              Pad(Low + T.Count - 1, Written.size() - Colon - 2) + "]";
    }
    return New;
  });
  if (!Any)
    return std::nullopt;
  return Out;
}

} // namespace stinkytofu
