//===- SourceLocations.cpp - Where functions come from, for F:/K: rows ----===//
#include "asm-instrument/sqtt/SourceLocations.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "stinkytofu/mc/AssemblerState.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"

using namespace llvm;

namespace stinkytofu::sqtt {

/// Calls \p Fn for every line of every text of \p F in order: block leading
/// texts, then the leading texts and directives of the items.
template <typename Fn> static void forEachTextLine(const Function &F, Fn &&Visit) {
  auto Lines = [&](StringRef Text) {
    while (!Text.empty()) {
      auto [Line, Rest] = Text.split('\n');
      if (Visit(Line))
        return true;
      Text = Rest;
    }
    return false;
  };
  for (const BasicBlock &BB : F.blocks()) {
    if (Lines(BB.leadingText()))
      return;
    for (const BlockItem &Item : BB.items()) {
      if (Lines(Item.leadingText()))
        return;
      if (const auto *D = dyn_cast<Directive>(&Item); D && Lines(D->text()))
        return;
    }
  }
}

/// The quoted strings of a directive's operands.
static SmallVector<std::string, 2> quotedStrings(StringRef S) {
  SmallVector<std::string, 2> Out;
  while (true) {
    size_t Open = S.find('"');
    if (Open == StringRef::npos)
      break;
    std::string Str;
    size_t K = Open + 1;
    for (; K < S.size() && S[K] != '"'; ++K) {
      if (S[K] == '\\' && K + 1 < S.size())
        ++K;
      Str += S[K];
    }
    Out.push_back(Str);
    S = S.substr(std::min(K + 1, S.size()));
  }
  return Out;
}

static StringRef code(StringRef Line) {
  Line = Line.trim();
  for (StringRef C : {";", "//", "#"}) {
    size_t At = Line.find(C);
    if (At != StringRef::npos && Line.take_front(At).count('"') % 2 == 0)
      Line = Line.take_front(At);
  }
  return Line.trim();
}

/// \p Path as a funcmap source location can hold it (funcmap::checkSourceLoc
/// refuses the rest): bytes outside printable ASCII, '@', a blank at either
/// end and the '>' of " -> " (which separates inline frames) are written as
/// %XX, and so is '%' itself, so that the path reads back unambiguously.
static std::string funcmapPath(StringRef Path) {
  std::string Out;
  for (size_t K = 0; K < Path.size(); ++K) {
    unsigned char U = Path[K];
    bool EndBlank = U == ' ' && (K == 0 || K + 1 == Path.size());
    bool Arrow = U == '>' && K >= 2 && Path.substr(K - 2, 2) == " -";
    if (U < 0x20 || U >= 0x7f || U == '@' || U == '%' || EndBlank || Arrow) {
      Out += '%';
      Out += hexdigit(U >> 4);
      Out += hexdigit(U & 15);
    } else {
      Out += char(U);
    }
  }
  return Out;
}

SourceLocations::SourceLocations(const Module &M)
    : M(M), AsmFile(funcmapPath(sys::path::filename(M.fileName()))) {
  auto Scan = [&](StringRef Line) {
    // The code of a line is part of it: most lines are passed at once.
    if (!Line.contains(".file"))
      return false;
    StringRef C = code(Line);
    if (!C.consume_front(".file"))
      return false;
    C = C.ltrim();
    unsigned N;
    StringRef Num = C.take_while([](char Ch) { return isDigit(Ch); });
    if (Num.empty() || Num.getAsInteger(10, N))
      return false;
    SmallVector<std::string, 2> Strs = quotedStrings(C.drop_front(Num.size()));
    if (Strs.empty())
      return false;
    const std::string &Name = Strs.size() >= 2 ? Strs[1] : Strs[0];
    // An empty name locates nothing: the assembly's lines stand in.
    if (!Name.empty())
      Files[N] = funcmapPath(Name);
    return false;
  };
  for (const ModuleItem &Item : M.items()) {
    if (Item.K == ModuleItem::Kind::Text) {
      StringRef Text = Item.Contents;
      if (!Text.contains(".file"))
        continue;
      while (!Text.empty()) {
        auto [Line, Rest] = Text.split('\n');
        Scan(Line);
        Text = Rest;
      }
    } else {
      forEachTextLine(*Item.Func, Scan);
    }
  }
}

std::optional<std::string> SourceLocations::locDirective(StringRef Line) const {
  StringRef C = code(Line);
  if (!C.consume_front(".loc"))
    return std::nullopt;
  SmallVector<StringRef, 4> Parts;
  SplitString(C, Parts);
  unsigned FileNo, LineNo;
  if (Parts.size() < 2 || Parts[0].trim().getAsInteger(10, FileNo) ||
      Parts[1].trim().getAsInteger(10, LineNo) || LineNo == 0)
    return std::nullopt;
  auto It = Files.find(FileNo);
  if (It == Files.end())
    return std::nullopt;
  return It->second + ":" + std::to_string(LineNo);
}

DenseMap<const Instruction *, std::string>
SourceLocations::instructionLocations(const Function &F) const {
  DenseMap<const Instruction *, std::string> Out;
  std::string Current;
  auto Scan = [&](StringRef Text) {
    if (Files.empty() || !Text.contains(".loc"))
      return;
    for (StringRef Rest = Text; !Rest.empty();) {
      auto [Line, Next] = Rest.split('\n');
      if (std::optional<std::string> L = locDirective(Line))
        Current = *L;
      Rest = Next;
    }
  };
  for (const BasicBlock &BB : F.blocks()) {
    Scan(BB.leadingText());
    for (const BlockItem &Item : BB.items()) {
      Scan(Item.leadingText());
      if (const auto *D = dyn_cast<Directive>(&Item))
        Scan(D->text());
      else if (const auto *I = dyn_cast<Instruction>(&Item))
        Out[I] = !Current.empty()           ? Current
                 : I->location().isValid() ? AsmFile + ":" + std::to_string(I->location().Line)
                                           : std::string();
    }
  }
  return Out;
}

std::string SourceLocations::of(const Function &F) const {
  std::string Loc;
  if (!Files.empty())
    forEachTextLine(F, [&](StringRef Line) {
      std::optional<std::string> L = locDirective(Line);
      if (L)
        Loc = *L;
      return L.has_value();
    });
  if (!Loc.empty())
    return Loc;
  unsigned Line = 0;
  if (!F.blocks().empty()) {
    const BasicBlock &First = F.blocks().front();
    Line = First.location().Line;
    if (!Line && !First.empty())
      Line = First.instructions().front().location().Line;
  }
  if (!Line)
    return "";
  return AsmFile + ":" + std::to_string(Line);
}

std::vector<SourceLocations::CodelessKernel> SourceLocations::codelessKernels() const {
  std::vector<CodelessKernel> Kernels;
  // Descriptors sit in text items of any kind: a file that is all directives
  // and data is one text item.
  for (const ModuleItem &Item : M.items()) {
    if (Item.K != ModuleItem::Kind::Text || !Item.Contents.contains(".amdhsa_kernel"))
      continue;
    for (StringRef Text = Item.Contents; !Text.empty();) {
      auto [Line, Rest] = Text.split('\n');
      Text = Rest;
      StringRef Name = code(Line);
      if (!Name.consume_front(".amdhsa_kernel") || Name.empty() || !isSpace(Name[0]))
        continue;
      Name = Name.trim();
      bool HasCode = llvm::any_of(M.functions(),
                                  [&](const Function &F) { return F.name() == Name; });
      if (!HasCode)
        Kernels.push_back({Name.str(), labelLocation(Name)});
    }
  }
  return Kernels;
}

std::string SourceLocations::labelLocation(StringRef Label) const {
  const SourceMgr &SrcMgr = M.assembler().sourceMgr();
  for (const ModuleItem &Item : M.items()) {
    if (Item.K != ModuleItem::Kind::Text)
      continue;
    for (StringRef Text = Item.Contents; !Text.empty();) {
      auto [Line, Rest] = Text.split('\n');
      StringRef C = code(Line);
      if (C.consume_front(Label) && C == ":") {
        SMLoc Loc = SMLoc::getFromPointer(Line.data());
        if (!SrcMgr.FindBufferContainingLoc(Loc))
          return "";
        return AsmFile + ":" + std::to_string(SrcMgr.FindLineNumber(Loc));
      }
      Text = Rest;
    }
  }
  return "";
}

} // namespace stinkytofu::sqtt
