//===- ExpansionLines.cpp - Invoking lines of macro expansions ------------===//
#include "ExpansionLines.h"
#include "stinkytofu/mc/OperandParser.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include <algorithm>

using namespace llvm;

namespace stinkytofu {

namespace {

bool isBlank(char C) { return C == ' ' || C == '\t' || C == '\r' || C == '\f' || C == '\v'; }
bool isWordStart(char C) { return isAlpha(C) || C == '_' || C == '.' || C == '$'; }
bool isWordChar(char C) { return isAlnum(C) || C == '_' || C == '.' || C == '$' || C == '@'; }

/// The offset just past the statement going on at \p P: past its end of line,
/// or past a `/* */` comment that runs beyond it.
size_t skipStatement(StringRef T, size_t P) {
  while (P < T.size()) {
    size_t Eol = std::min(T.find('\n', P), T.size());
    StringRef Line = T.slice(P, Eol);
    size_t Comment = findComment(Line);
    if (Comment == StringRef::npos || !Line.substr(Comment).starts_with("/*"))
      return std::min(Eol + 1, T.size());
    size_t Close = T.find("*/", P + Comment + 2);
    if (Close == StringRef::npos)
      return T.size();
    P = Close + 2;
  }
  return T.size();
}

bool isRepeat(StringRef W) {
  return W.equals_insensitive(".rept") || W.equals_insensitive(".irp") ||
         W.equals_insensitive(".irpc");
}

bool isMacroEnd(StringRef W) {
  return W.equals_insensitive(".endm") || W.equals_insensitive(".endmacro");
}

} // namespace

ExpansionScan scanExpansions(StringRef T, function_ref<bool(StringRef)> IsMacro) {
  ExpansionScan S;
  unsigned MacroDepth = 0, RepeatDepth = 0;
  bool InMetadata = false;
  size_t P = 0, N = T.size();
  while (P < N) {
    char C = T[P];
    if (isBlank(C) || C == '\n') {
      ++P;
      continue;
    }
    if (C == '/' && P + 1 < N && T[P + 1] == '*') {
      size_t Close = T.find("*/", P + 2);
      P = Close == StringRef::npos ? N : Close + 2;
      continue;
    }
    if (!isWordStart(C)) {
      P = skipStatement(T, P);
      continue;
    }
    size_t Start = P;
    while (P < N && isWordChar(T[P]))
      ++P;
    StringRef Word = T.slice(Start, P);
    size_t After = P;
    while (After < N && isBlank(T[After]))
      ++After;
    if (After < N && T[After] == ':') {
      // A label: the statement after it starts on the same line.
      P = After + 1;
      continue;
    }
    P = skipStatement(T, P);
    if (After < N && T[After] == '=')
      continue; // an assignment
    if (InMetadata) {
      InMetadata = !Word.equals_insensitive(".end_amdgpu_metadata");
    } else if (MacroDepth) {
      if (Word.equals_insensitive(".macro"))
        ++MacroDepth;
      else if (isMacroEnd(Word))
        --MacroDepth;
    } else if (RepeatDepth) {
      if (isRepeat(Word))
        ++RepeatDepth;
      else if (Word.equals_insensitive(".endr"))
        --RepeatDepth;
    } else if (IsMacro(Word)) {
      S.Starts.push_back(Start);
    } else if (isRepeat(Word)) {
      S.Starts.push_back(Start);
      RepeatDepth = 1;
    } else if (Word.equals_insensitive(".macro")) {
      MacroDepth = 1;
      S.Redefines = true;
    } else if (Word.equals_insensitive(".purgem")) {
      S.Redefines = true;
    } else if (Word.starts_with_insensitive(".if") || Word.starts_with_insensitive(".else") ||
               Word.equals_insensitive(".endif") || Word.equals_insensitive(".exitm")) {
      S.MaySkip = true;
    } else if (Word.equals_insensitive(".include") || Word.equals_insensitive(".incbin")) {
      S.Includes = true;
    } else if (Word.equals_insensitive(".amdgpu_metadata")) {
      InMetadata = true;
    }
  }
  return S;
}

ExpansionLineTracker::ExpansionLineTracker(SourceMgr &SM, unsigned MainBuffer,
                                           MCContext &Ctx)
    : SM(SM), Main(SM.getMemoryBuffer(MainBuffer)->getBuffer()), Ctx(Ctx),
      GapBuffers(SM.getNumBuffers()) {}

bool ExpansionLineTracker::isMacro(StringRef Name) const {
  return Ctx.lookupMacro(Name) != nullptr;
}

void ExpansionLineTracker::mainEvent(std::vector<AsmEvent> &Events, size_t Begin,
                                     size_t Next) {
  size_t End = Begin != AsmEvent::NoOffset ? Begin : Next;
  if (End == AsmEvent::NoOffset)
    return;
  resolveGap(Events, End);
  GapBegin = std::max(GapBegin, Next != AsmEvent::NoOffset ? Next : End);
  GapBuffers = SM.getNumBuffers();
}

void ExpansionLineTracker::expansionEvent(size_t Index, const char *Where) {
  if (unsigned Buffer = bufferOf(Where))
    GapEvents.emplace_back(Index, Buffer);
  else
    Failed = true;
}

void ExpansionLineTracker::finish(std::vector<AsmEvent> &Events) {
  resolveGap(Events, Main.size());
}

void ExpansionLineTracker::resolveGap(std::vector<AsmEvent> &Events, size_t End) {
  if (GapEvents.empty())
    return;
  // In the main buffer every statement that is not a directive and made no
  // event of its own can only be a macro invocation.
  ExpansionScan S = scanExpansions(
      Main.slice(GapBegin, std::max(GapBegin, End)),
      [this](StringRef W) { return !W.starts_with(".") || isMacro(W); });
  unsigned Last = SM.getNumBuffers();
  bool Ok = !S.Starts.empty() && !S.Includes;
  // The first buffer of each invocation. One invocation owns the whole gap;
  // with more, each owns the buffers its expansion opened, counted from
  // their texts, and the counts must add up to what the gap opened.
  SmallVector<unsigned, 8> First;
  if (Ok && S.Starts.size() > 1) {
    Ok = !S.Redefines;
    unsigned Next = GapBuffers + 1;
    for (size_t I = 0; Ok && I < S.Starts.size(); ++I) {
      First.push_back(Next);
      unsigned Opened = Next <= Last ? buffersOpenedBy(Next) : 0;
      Ok = Opened != 0;
      Next += Opened;
    }
    Ok = Ok && Next == Last + 1;
  }
  if (!Ok) {
    Failed = true;
  } else {
    size_t Invocation = 0;
    for (auto [Index, Buffer] : GapEvents) {
      while (Invocation + 1 < First.size() && Buffer >= First[Invocation + 1])
        ++Invocation;
      Events[Index].Offset = GapBegin + S.Starts[Invocation];
    }
  }
  GapEvents.clear();
}

unsigned ExpansionLineTracker::bufferOf(const char *Where) {
  if (Where >= CachedBegin && Where <= CachedEnd)
    return CachedBuffer;
  // Events come from the newest buffer or one of the few it was opened from.
  for (unsigned Id = SM.getNumBuffers(); Id > GapBuffers; --Id) {
    StringRef B = SM.getMemoryBuffer(Id)->getBuffer();
    if (Where >= B.begin() && Where <= B.end()) {
      CachedBuffer = Id;
      CachedBegin = B.begin();
      CachedEnd = B.end();
      return Id;
    }
  }
  return 0;
}

unsigned ExpansionLineTracker::buffersOpenedBy(unsigned Id) {
  constexpr unsigned Unknown = ~0u;
  if (Id >= Opened.size())
    Opened.resize(Id + 1, 0);
  if (Opened[Id])
    return Opened[Id] == Unknown ? 0 : Opened[Id];
  ExpansionScan S = scanExpansions(SM.getMemoryBuffer(Id)->getBuffer(),
                                    [this](StringRef W) { return isMacro(W); });
  unsigned Count = 0;
  if (!S.Includes && !S.Redefines && (S.Starts.empty() || !S.MaySkip)) {
    // Nested expansions open their buffers in order, right after this one.
    Count = 1;
    for (size_t I = 0; I < S.Starts.size() && Count; ++I) {
      unsigned Child = Id + Count <= SM.getNumBuffers() ? buffersOpenedBy(Id + Count) : 0;
      Count = Child ? Count + Child : 0;
    }
  }
  Opened[Id] = Count ? Count : Unknown;
  return Count;
}

} // namespace stinkytofu
