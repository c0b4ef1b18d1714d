//===- AsmReader.cpp - Reading `.s` files into the Asm IR -----------------===//
//
// MC assembles the whole file (AssemblerState); this file cuts the original
// bytes into items so that every byte belongs to exactly one of: a module
// text item, a block's leading text or label, an instruction's leading text
// or statement. Printing the items in order gives the input back.
//
//===----------------------------------------------------------------------===//
#include "stinkytofu/asm/AsmReader.h"
#include "CodeWordLines.h"
#include "HighVgprInput.h"
#include "stinkytofu/ir/Modifier.h"
#include "stinkytofu/ir/PseudoInstructions.h"
#include "stinkytofu/ir/StinkyTofuContext.h"
#include "stinkytofu/mc/AssemblerState.h"
#include "stinkytofu/mc/InputLimits.h"
#include "stinkytofu/mc/MetadataYaml.h"
#include "stinkytofu/mc/OperandParser.h"
#include "stinkytofu/support/Diagnostics.h"
#include "stinkytofu/support/StableSort.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/MC/MCExpr.h"
#include "llvm/MC/MCParser/AsmLexer.h"
#include "llvm/MC/MCSymbol.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"
#include <cstring>

using namespace llvm;

namespace stinkytofu {

std::optional<std::string> findTargetDirective(StringRef Text) {
  size_t At = 0;
  while ((At = Text.find(".amdgcn_target", At)) != StringRef::npos) {
    size_t LineStart = Text.rfind('\n', At);
    LineStart = LineStart == StringRef::npos ? 0 : LineStart + 1;
    StringRef Before = Text.slice(LineStart, At);
    At += strlen(".amdgcn_target");
    if (findComment(Before) != StringRef::npos)
      continue;
    StringRef Rest = Text.substr(At);
    Rest = Rest.take_until([](char C) { return C == '\n'; }).trim();
    if (Rest.size() >= 2 && Rest.front() == '"') {
      size_t Close = Rest.find('"', 1);
      if (Close != StringRef::npos)
        return Rest.slice(1, Close).str();
    }
  }
  return std::nullopt;
}

namespace {

struct LineRecord {
  SmallVector<const AsmEvent *, 2> Labels; // main-buffer labels, in order
  SmallVector<const AsmEvent *, 1> Insts; // instruction events, in order
  /// Where the first main-buffer instruction's mnemonic is written.
  size_t MnemonicAt = AsmEvent::NoOffset;
  bool FromExpansion = false;
  bool Opaque = false;
  SmallVector<uint32_t, 2> Words; // `.long` words in code (CodeWordLines.h)
  bool OtherData = false;         // other data or fill in code
  bool SectionChange = false;
  bool CodeAfter = true; // whether the section after this line holds code
};

/// A target id without its triple (`gfx90a:xnack-`).
StringRef processorAndFeatures(StringRef TargetId) {
  size_t Dashes = TargetId.rfind("--");
  return Dashes == StringRef::npos ? TargetId : TargetId.substr(Dashes + 2);
}

StringRef processorOf(StringRef TargetId) {
  return processorAndFeatures(TargetId).take_until([](char C) { return C == ':'; });
}

/// First word of a statement (after white space), lower-cased.
std::string firstWord(StringRef Line) {
  Line = Line.ltrim(" \t");
  return Line.take_until([](char C) { return isSpace(C) || C == ','; }).lower();
}

/// Classifies a run of module-level text by what it holds.
TextKind classifyText(StringRef Text, bool InCode) {
  StringRef Rest = Text;
  while (!Rest.empty()) {
    auto [Line, Tail] = Rest.split('\n');
    Rest = Tail;
    StringRef Code = Line.take_front(findComment(Line)).trim();
    if (Code.empty())
      continue;
    std::string Word = firstWord(Code);
    if (Word == ".amdhsa_kernel")
      return TextKind::KernelDescriptor;
    if (Word == ".amdgpu_metadata")
      return TextKind::Metadata;
    if (Word == ".macro")
      return TextKind::Macro;
    return InCode ? TextKind::Directive : TextKind::Data;
  }
  return TextKind::Comment;
}

/// The text between two statements, cut where its code begins and ends:
/// the comments before the code, the code (directives, skipped conditional
/// bodies, with any comments among them), and the comments after it, which
/// lead the next statement. Without code, all of it leads the statement.
struct LeadingParts {
  StringRef CommentsBefore, Code, CommentsAfter;
};

LeadingParts splitLeadingText(StringRef Text) {
  size_t CodeBegin = StringRef::npos, CodeEnd = 0;
  for (size_t At = 0; At < Text.size();) {
    auto [End, Code] = scanLine(Text, At);
    if (Code) {
      CodeBegin = std::min(CodeBegin, At);
      CodeEnd = End;
    }
    At = End;
  }
  if (CodeBegin == StringRef::npos)
    return {{}, {}, Text};
  return {Text.take_front(CodeBegin), Text.slice(CodeBegin, CodeEnd), Text.substr(CodeEnd)};
}

class Builder {
public:
  Builder(Module &M, StringRef Text, const TargetInfo &TI, AssemblerState &AS,
          const DenseSet<unsigned> &PseudoLines, const PackedMCInsts &Insts)
      : M(M), Text(Text), TI(TI), AS(AS), PseudoLines(PseudoLines), Insts(Insts) {}

  void build(std::vector<AsmEvent> &Events, const DenseSet<unsigned> &OpaqueLines);

private:
  void splitLines();
  unsigned numLines() const { return LineStart.size() - 2; }
  unsigned lineAt(size_t Offset);
  unsigned lineOf(const AsmEvent &E);
  void closeFunction(size_t Upto);
  void startFunction(const Twine &Name, size_t SpanBegin);
  void flushModuleText(size_t Upto);
  void addLabel(const AsmEvent &E, size_t SpanBegin, size_t SpanEnd, unsigned Line);
  void addInstruction(LineRecord &R, unsigned Line, size_t StmtBegin, size_t End);
  Instruction &appendStatement(Instruction I, unsigned Line, size_t StmtBegin,
                               size_t MnemonicAt, size_t End);
  void flushWordLines();
  void processLine(unsigned Line, LineRecord &R);
  /// The labels and instruction of \p R, one statement written in
  /// [\p Pos, \p End) of line \p Line.
  void processStatement(unsigned Line, LineRecord &R, size_t Pos, size_t End);
  /// Where the statements of line \p Line that end at a carriage return end
  /// (past it), from \p Pos on; empty for a line without one.
  SmallVector<size_t, 2> returnEnds(size_t Pos, size_t End) const;
  /// Processes line \p Line statement by statement, cut at \p Ends; false
  /// (nothing done) when some event of \p R has no place to cut by.
  bool processStatements(unsigned Line, const LineRecord &R, size_t Pos,
                         ArrayRef<size_t> Ends, size_t End);

  Module &M;
  StringRef Text;
  const TargetInfo &TI;
  AssemblerState &AS;
  const DenseSet<unsigned> &PseudoLines; // opaque lines that are pseudo-instructions
  const PackedMCInsts &Insts;            // referred to by the instructions
  std::vector<size_t> LineStart; // LineStart[L] for 1-based L; sentinel at end
  bool LoneReturns = false;      // a carriage return without a line feed
  unsigned LastLineAt = 1;       // lineAt's previous answer
  StringSet<> FunctionStarts, Kernels;
  Function *F = nullptr;
  BasicBlock *BB = nullptr;
  size_t Consumed = 0;   // bytes before this offset belong to an item
  size_t FunctionEnd = 0; // end of the last instruction of F
  bool InCode = true;
  std::vector<WordLine> WordRun; // consecutive `.long` lines not yet decoded
  std::unique_ptr<CodeWordDecoder> Decoder;
};

void Builder::splitLines() {
  LineStart.reserve(Text.size() / 32 + 3);
  LineStart.push_back(0); // unused index 0
  LineStart.push_back(0);
  const char *Begin = Text.data(), *End = Begin + Text.size();
  for (const char *P = Begin;
       (P = static_cast<const char *>(std::memchr(P, '\n', End - P))) && ++P != End;)
    LineStart.push_back(size_t(P - Begin));
  LineStart.push_back(Text.size());
  for (size_t CR = Text.find('\r'); CR != StringRef::npos && !LoneReturns;
       CR = Text.find('\r', CR + 1))
    LoneReturns = CR + 1 < Text.size() && Text[CR + 1] != '\n';
}

/// The 1-based line holding byte \p Offset. The end of a file that ends with
/// a newline starts a line of its own.
unsigned Builder::lineAt(size_t Offset) {
  if (Offset >= Text.size())
    return Text.ends_with("\n") ? numLines() + 1 : numLines();
  // Events come in file order: walk on from the previous answer.
  unsigned L = LastLineAt;
  if (LineStart[L] > Offset)
    L = unsigned(std::upper_bound(LineStart.begin() + 1, LineStart.end() - 1, Offset) -
                 LineStart.begin()) - 1;
  while (LineStart[L + 1] <= Offset)
    ++L;
  return LastLineAt = L;
}

/// The line an event belongs to (0: unknown).
unsigned Builder::lineOf(const AsmEvent &E) {
  if (E.FromExpansion && E.Offset == AsmEvent::NoOffset)
    return E.Line;
  if (E.Offset != AsmEvent::NoOffset)
    return lineAt(E.Offset);
  if (E.NextOffset == AsmEvent::NoOffset)
    return 0;
  // Placed by the parser's next token, the first one after the statement's
  // line (or the end of a file without a final newline).
  unsigned L = lineAt(E.NextOffset);
  bool AtUnterminatedEnd = E.NextOffset >= Text.size() && !Text.ends_with("\n");
  return !AtUnterminatedEnd && L > 1 ? L - 1 : L;
}

void Builder::flushModuleText(size_t Upto) {
  if (Upto > Consumed)
    M.appendText(classifyText(Text.slice(Consumed, Upto), InCode),
                 Text.slice(Consumed, Upto));
  Consumed = std::max(Consumed, Upto);
}

void Builder::closeFunction(size_t Upto) {
  if (!F)
    return;
  // Labels after the last instruction (`.Lfunc_end0:`) are not blocks: the
  // function ends at its last instruction, the rest is module text.
  while (!F->blocks().empty() && F->blocks().back().empty()) {
    // Its text goes back to the module (flushModuleText below), not to the
    // block before it.
    BasicBlock &Label = F->blocks().back();
    Label.setLeadingText("");
    Label.setLabelText("");
    Label.eraseFromParent();
  }
  if (F->blocks().empty()) {
    M.items().pop_back();
    M.functions().remove_if([this](const Function &Fn) { return &Fn == F; });
  } else {
    F->renumberBlocks();
  }
  Consumed = FunctionEnd;
  F = nullptr;
  BB = nullptr;
  flushModuleText(Upto);
}

void Builder::startFunction(const Twine &Name, size_t SpanBegin) {
  flushModuleText(SpanBegin);
  F = &M.appendFunction(Name.str(), /*IsEntry=*/false);
  BB = nullptr;
  FunctionEnd = SpanBegin;
}

void Builder::addLabel(const AsmEvent &E, size_t SpanBegin, size_t SpanEnd,
                       unsigned Line) {
  if (!F || FunctionStarts.contains(E.Symbol)) {
    closeFunction(SpanBegin);
    startFunction(E.Symbol, SpanBegin);
  }
  BB = &F->appendBlock(E.Symbol.str());
  BB->setLeadingText(Text.slice(Consumed, SpanBegin));
  BB->setLabelText(Text.slice(SpanBegin, SpanEnd));
  BB->setLocation({Line, unsigned(SpanBegin - LineStart[Line]) + 1});
  Consumed = SpanEnd;
}

Instruction &Builder::appendStatement(Instruction I, unsigned Line, size_t StmtBegin,
                                      size_t MnemonicAt, size_t End) {
  if (!F) {
    // Instructions before any label: an implicit function.
    startFunction("func_at_line_" + std::to_string(Line), LineStart[Line]);
  }
  if (!BB)
    BB = &F->appendBlock("");
  // Directives before the statement are items of their own: a pass that
  // moves or erases the instruction leaves them in place.
  LeadingParts Leading = splitLeadingText(Text.slice(Consumed, StmtBegin));
  if (!Leading.Code.empty())
    BB->appendDirective(Leading.CommentsBefore, Leading.Code);
  Instruction &Appended = BB->append(std::move(I));
  Appended.setLeadingText(Leading.CommentsAfter);
  Appended.setLocation({Line, unsigned(MnemonicAt - LineStart[Line]) + 1});
  Consumed = End;
  FunctionEnd = End;
  return Appended;
}

void Builder::addInstruction(LineRecord &R, unsigned Line, size_t StmtBegin,
                              size_t End) {
  size_t Mnemonic = R.MnemonicAt;
  if (Mnemonic != AsmEvent::NoOffset && Mnemonic > StmtBegin) {
    // The tail of a `/* */` comment opened on an earlier line (` b */
    // s_nop 0`) stays with the text before the statement.
    StringRef Before = Text.slice(StmtBegin, Mnemonic);
    size_t Close = Before.find("*/");
    if (Close != StringRef::npos && !Before.take_front(Close).contains("/*"))
      StmtBegin += Close + 2;
  } else {
    size_t Indent = Text.slice(StmtBegin, End).find_first_not_of(" \t");
    Mnemonic = StmtBegin + (Indent == StringRef::npos ? 0 : Indent);
  }
  bool Pseudo = R.Opaque && PseudoLines.contains(Line);
  InstKind Kind = Pseudo     ? InstKind::Pseudo
                  : R.Opaque ? InstKind::Opaque
                  : (R.FromExpansion || R.Insts.size() > 1) ? InstKind::MacroCall
                                                            : InstKind::Machine;
  Instruction &I = appendStatement(Instruction(Kind, "", std::vector<Operand>()), Line,
                                   StmtBegin, Mnemonic, End);
  I.setLazyStatement(Text.slice(StmtBegin, End), &AS);
  if (Pseudo) {
    I.setMC({}, pseudoInstructionFacts(I, TI));
  } else if (R.Opaque) {
    I.setMC({}, InstrFacts::opaque());
  } else {
    // A statement's MC instructions were emitted one after the other; the
    // instruction refers to them where the module keeps them.
    bool Consecutive = true;
    for (size_t K = 1; K < R.Insts.size(); ++K)
      Consecutive &= R.Insts[K]->Inst == Insts.next(R.Insts[K - 1]->Inst);
    if (Consecutive) {
      I.referMC(Insts, R.Insts[0]->Inst, unsigned(R.Insts.size()), TI);
    } else {
      SmallVector<MCInst, 1> MC;
      for (const AsmEvent *E : R.Insts)
        MC.push_back(PackedMCInsts::unpack(Insts.record(E->Inst), 1).front());
      I.setMC(std::move(MC), TI);
    }
  }
}

/// Decodes the pending run of `.long` lines; each line that holds whole
/// instructions becomes one, the others stay text. A branch among them
/// keeps, in its function, the instructions its encoded distance spans.
void Builder::flushWordLines() {
  if (WordRun.empty())
    return;
  if (!Decoder)
    Decoder = std::make_unique<CodeWordDecoder>(TI, AS.context());
  std::vector<EncodedLine> Lines = decodeWordLines(WordRun, *Decoder);
  std::vector<Instruction *> Made(WordRun.size(), nullptr);
  // Targets start blocks, named by the run and the target's byte offset in
  // it, which the text has no label for: the names survive `.stir`.
  std::vector<std::string> TargetLabel(WordRun.size());
  size_t RunNumber = F ? F->wordBranches().size() : 0;
  for (const EncodedLine &E : Lines)
    if (E.TargetIndex)
      TargetLabel[*E.TargetIndex] = "target";
  for (const EncodedLine &E : Lines)
    if (!TargetLabel[E.Index].empty())
      TargetLabel[E.Index] = ".L" + (F ? F->name().str() : std::string()) + "_words" +
                             std::to_string(RunNumber) + "_" +
                             utohexstr(E.FirstWord * 4, /*LowerCase=*/true);
  for (const EncodedLine &E : Lines) {
    const WordLine &W = WordRun[E.Index];
    if (!TargetLabel[E.Index].empty() && F) {
      BB = &F->appendBlock(TargetLabel[E.Index]);
      BB->setUnwrittenLabel();
      BB->setLocation({W.Line, 1});
    }
    size_t Indent = Text.slice(W.Begin, W.End).find_first_not_of(" \t");
    size_t At = W.Begin + (Indent == StringRef::npos ? 0 : Indent);
    Made[E.Index] = &appendStatement(
        encodedInstruction(E, Text.slice(W.Begin, W.End), TI, AS), W.Line, W.Begin, At, W.End);
  }
  for (const EncodedLine &E : Lines) {
    if (!E.TargetIndex)
      continue;
    unsigned From = std::min(E.Index, *E.TargetIndex), To = std::max(E.Index, *E.TargetIndex);
    Made[E.Index]->setModifier(std::make_unique<LabelData>(TargetLabel[*E.TargetIndex]));
    Function::WordBranch &Branch = F->wordBranches().emplace_back();
    Branch.Line = WordRun[E.Index].Line;
    Branch.TargetLine = WordRun[*E.TargetIndex].Line;
    Branch.TargetLabel = TargetLabel[*E.TargetIndex];
    for (unsigned K = From; K <= To; ++K)
      if (Made[K])
        Branch.SpanLines.push_back(WordRun[K].Line);
  }
  // A branch to a word no line of the run starts with (inside an
  // instruction, past an undecodable word, outside the run): no label can
  // stand for its target, so its span is every line from it toward the
  // target, as far as the run goes, and an edit there is an error.
  for (const EncodedLine &E : Lines) {
    if (!E.OffRunTargetWord)
      continue;
    int64_t Target = *E.OffRunTargetWord, From = E.FirstWord;
    Function::WordBranch &Branch = F->wordBranches().emplace_back();
    Branch.Line = WordRun[E.Index].Line;
    for (const EncodedLine &Other : Lines)
      if (Target > From ? Other.FirstWord >= From && Other.FirstWord < Target
                        : Other.FirstWord >= Target && Other.FirstWord <= From)
        Branch.SpanLines.push_back(WordRun[Other.Index].Line);
  }
  for (const EncodedLine &E : Lines) {
    bool ReadsPc = llvm::any_of(E.Insts, [&](const MCInst &MI) {
      return TI.instrInfo().getName(MI.getOpcode()).starts_with("S_GETPC_B64");
    });
    if (!ReadsPc)
      continue;
    Function::WordBranch &Read = F->wordBranches().emplace_back();
    Read.Line = WordRun[E.Index].Line;
    Read.ReadsPc = true;
    for (const EncodedLine &Other : Lines)
      Read.SpanLines.push_back(WordRun[Other.Index].Line);
  }
  WordRun.clear();
}

void Builder::processLine(unsigned L, LineRecord &R) {
  if (!InCode) {
    if (R.SectionChange)
      InCode = R.CodeAfter;
    return;
  }
  size_t Begin = LineStart[L], End = LineStart[L + 1];
  size_t Pos = std::max(Begin, Consumed);
  if (!R.Words.empty() && !R.OtherData && R.Labels.empty() && R.Insts.empty() && !R.Opaque &&
      !R.SectionChange) {
    WordRun.push_back({L, Pos, End, R.Words});
    return;
  }
  flushWordLines();
  // A carriage return without a line feed ends a statement for MC's lexer
  // (llvm-mc assembles `s_nop 0\rs_nop 1` as two instructions on one line):
  // each statement is an item of its own.
  if (LoneReturns && !R.Opaque && !R.SectionChange && R.Words.empty() && !R.OtherData)
    if (SmallVector<size_t, 2> Ends = returnEnds(Pos, End);
        !Ends.empty() && processStatements(L, R, Pos, Ends, End))
      return;
  processStatement(L, R, Pos, End);
}

SmallVector<size_t, 2> Builder::returnEnds(size_t Pos, size_t End) const {
  SmallVector<size_t, 2> Ends;
  StringRef Line = Text.slice(Pos, End);
  // Lines without a carriage return, all but a few, are not lexed.
  if (!Line.contains('\r'))
    return Ends;
  std::string Copy = Line.str(); // terminated: the lexer looks past a token
  AsmLexer Lexer(TI.asmInfo());
  Lexer.setBuffer(StringRef(Copy.c_str(), Copy.size()));
  for (const AsmToken *T = &Lexer.Lex(); !T->is(AsmToken::Eof); T = &Lexer.Lex()) {
    if (T->is(AsmToken::Error))
      return {};
    if (!T->is(AsmToken::EndOfStatement))
      continue;
    // The statement ends at the return itself, or at the comment the
    // return ends.
    size_t Return = Copy.find_first_of("\r\n", size_t(T->getLoc().getPointer() - Copy.c_str()));
    if (Return + 1 < Copy.size() && Copy[Return] == '\r' && Copy[Return + 1] != '\n' &&
        (Ends.empty() || Ends.back() != Pos + Return + 1))
      Ends.push_back(Pos + Return + 1);
  }
  return Ends;
}

bool Builder::processStatements(unsigned L, const LineRecord &R, size_t Pos,
                                ArrayRef<size_t> Ends, size_t End) {
  auto Placed = [](const AsmEvent *E) { return E->Offset != AsmEvent::NoOffset; };
  if (!all_of(R.Labels, Placed) || !all_of(R.Insts, Placed))
    return false;
  size_t Begin = Pos;
  for (size_t K = 0; K <= Ends.size(); ++K) {
    size_t StatementEnd = K < Ends.size() ? Ends[K] : End;
    auto Inside = [&](const AsmEvent *E) { return E->Offset >= Begin && E->Offset < StatementEnd; };
    LineRecord S;
    for (const AsmEvent *Label : R.Labels)
      if (Inside(Label))
        S.Labels.push_back(Label);
    for (const AsmEvent *E : R.Insts)
      if (Inside(E)) {
        S.Insts.push_back(E);
        S.FromExpansion |= E->FromExpansion;
        if (S.MnemonicAt == AsmEvent::NoOffset)
          S.MnemonicAt = E->Offset;
      }
    // A statement without events (a directive, a comment) leads the next.
    if (!S.Labels.empty() || !S.Insts.empty())
      processStatement(L, S, std::max(Begin, Consumed), StatementEnd);
    Begin = StatementEnd;
  }
  return true;
}

void Builder::processStatement(unsigned L, LineRecord &R, size_t Pos, size_t End) {
  for (const AsmEvent *Label : R.Labels) {
    size_t NameAt = Label->Offset;
    size_t Colon = Text.find(':', NameAt + Label->Symbol.size());
    size_t SpanEnd = (Colon == StringRef::npos || Colon >= End) ? End : Colon + 1;
    // A label alone on its line owns the whole line, comment included.
    StringRef After = Text.slice(SpanEnd, End);
    if (Label == R.Labels.back() && R.Insts.empty() && !R.Opaque &&
        After.take_front(findComment(After)).trim().empty())
      SpanEnd = End;
    addLabel(*Label, Pos, SpanEnd, L);
    Pos = SpanEnd;
  }
  if (!R.Insts.empty() || R.Opaque)
    addInstruction(R, L, Pos, std::max(Pos, End));
  if (R.SectionChange && !R.CodeAfter) {
    closeFunction(F ? FunctionEnd : Consumed);
    InCode = false;
  }
}

void Builder::build(std::vector<AsmEvent> &Events, const DenseSet<unsigned> &OpaqueLines) {
  splitLines();
  unsigned NumLines = numLines();

  // Kernels are named by `.amdhsa_kernel`; functions by `.type x,@function`.
  for (size_t At = Text.find(".amdhsa_kernel"); At != StringRef::npos;
       At = Text.find(".amdhsa_kernel", At + 1)) {
    StringRef Rest = Text.substr(At + strlen(".amdhsa_kernel"));
    if (Rest.empty() || !isSpace(Rest[0]))
      continue;
    Rest = Rest.take_until([](char C) { return C == '\n'; });
    StringRef Name = Rest.take_front(findComment(Rest)).trim();
    Kernels.insert(Name);
    FunctionStarts.insert(Name);
  }

  // Place every event on its line; events arrive in statement order.
  std::vector<std::pair<unsigned, const AsmEvent *>> Placed;
  Placed.reserve(Events.size() + OpaqueLines.size());
  unsigned LastLine = 0;
  for (const AsmEvent &E : Events) {
    switch (E.K) {
    case AsmEvent::Kind::FunctionType:
      FunctionStarts.insert(E.Symbol);
      continue;
    case AsmEvent::Kind::Assignment:
      if (const auto *Ref = dyn_cast_or_null<MCSymbolRefExpr>(E.Value))
        M.symbolAliases()[E.Symbol] = Ref->getSymbol().getName().str();
      continue;
    case AsmEvent::Kind::Label:
      if (E.FromExpansion)
        continue;
      break;
    default:
      break;
    }
    unsigned L = lineOf(E);
    if (L == 0)
      L = LastLine;
    if (L == 0 || L > NumLines)
      continue;
    LastLine = L;
    Placed.emplace_back(L, &E);
  }
  for (unsigned L : OpaqueLines)
    if (L <= NumLines)
      Placed.emplace_back(L, nullptr);
  auto ByLine = [](const auto &A, const auto &B) { return A.first < B.first; };
  if (!std::is_sorted(Placed.begin(), Placed.end(), ByLine))
    stableSort(Placed, ByLine);

  LineRecord R;
  for (size_t I = 0; I < Placed.size();) {
    unsigned L = Placed[I].first;
    R = LineRecord();
    for (; I < Placed.size() && Placed[I].first == L; ++I) {
      const AsmEvent *E = Placed[I].second;
      if (!E) {
        R.Opaque = true;
        continue;
      }
      switch (E->K) {
      case AsmEvent::Kind::Instruction:
        R.Insts.push_back(E);
        R.FromExpansion |= E->FromExpansion;
        if (R.MnemonicAt == AsmEvent::NoOffset)
          R.MnemonicAt = E->Offset;
        break;
      case AsmEvent::Kind::Label:
        R.Labels.push_back(E);
        break;
      case AsmEvent::Kind::Section:
        R.SectionChange = true;
        R.CodeAfter = E->IsCode;
        break;
      case AsmEvent::Kind::CodeWord:
        if (E->FromExpansion)
          R.OtherData = true;
        else
          R.Words.push_back(E->Word);
        break;
      case AsmEvent::Kind::CodeData:
        R.OtherData = true;
        break;
      default:
        break;
      }
    }
    if (R.Opaque)
      R.Insts.clear();
    processLine(L, R);
  }
  flushWordLines();
  closeFunction(Text.size());
  flushModuleText(Text.size());

  // The kernel is the entry; without kernels, the first function is.
  bool AnyEntry = false;
  for (Function &Fn : M.functions()) {
    Fn.setEntry(Kernels.contains(Fn.name()));
    AnyEntry |= Fn.isEntry();
  }
  if (!AnyEntry && !M.functions().empty())
    M.functions().front().setEntry(true);
}

/// The diagnostics in order, each once; one reported more than once gets a
/// note saying how often. Copies of one expansion (a `.rept` body) differ
/// only in their line within the expansion, which the user never wrote: they
/// count as the same.
std::vector<SourceDiagnostic> countRepeats(std::vector<SourceDiagnostic> Diags) {
  static const Regex ExpansionPosition("^<instantiation>:[0-9]+:[0-9]+:");
  StringMap<size_t> Slot; // rendered text -> index in Firsts
  std::vector<SourceDiagnostic> Firsts;
  std::vector<unsigned> Counts;
  for (SourceDiagnostic &D : Diags) {
    auto [It, New] =
        Slot.try_emplace(ExpansionPosition.sub("<instantiation>:", D.render()), Firsts.size());
    if (New) {
      Firsts.push_back(std::move(D));
      Counts.push_back(0);
    }
    ++Counts[It->second];
  }
  for (size_t I = 0; I < Firsts.size(); ++I)
    if (Counts[I] > 1)
      Firsts[I].Notes.push_back({SourceMgr::DK_Note, "", 0, 0, "",
                                 "the diagnostic above was reported " +
                                     std::to_string(Counts[I]) + " times",
                                 {}, {}});
  return Firsts;
}

/// Whether a statement MC rejected looks like an instruction (and not a
/// directive or label) so that --allow-unknown-instructions may keep it.
bool looksLikeInstruction(StringRef Line) {
  StringRef Code = Line.take_front(findComment(Line)).trim();
  return !Code.empty() && Code.front() != '.' && !Code.ends_with(":");
}

} // namespace

Expected<std::unique_ptr<Module>> readAsm(std::unique_ptr<MemoryBuffer> Buffer,
                                          const ReaderOptions &Opts) {
  std::string FileName = Buffer->getBufferIdentifier().str();
  std::optional<std::string> Directive = findTargetDirective(Buffer->getBuffer());
  std::string TargetId = Directive ? *Directive
                         : Opts.Arch.empty() ? Opts.DefaultArch
                                             : Opts.Arch;
  // A position in the text read, as the user wrote it (mapped back to the
  // user's file for `.stir`).
  auto UserPosition = [&](StringRef Whole, size_t Offset) {
    TextPosition P = positionOf(Whole, Offset);
    OriginalLine Where{FileName, P.Line, P.Column, P.LineText.str()};
    if (Opts.MapPosition)
      if (std::optional<OriginalLine> O = Opts.MapPosition(P.Line, P.Column))
        Where = *O;
    return Where;
  };
  auto ErrorAt = [&](StringRef Whole, size_t Offset, const Twine &Message) {
    OriginalLine Where = UserPosition(Whole, Offset);
    return sourceError(Where.File, Where.Line, Where.Column, Where.Text, Message);
  };
  if (Directive && !Opts.Arch.empty() &&
      processorOf(*Directive) != processorOf(Opts.Arch))
    return ErrorAt(Buffer->getBuffer(), Buffer->getBuffer().find(*Directive),
                   "--arch " + Opts.Arch + " does not match the file's .amdgcn_target \"" +
                       *Directive + "\"");
  Expected<std::shared_ptr<const TargetInfo>> TI = TargetInfo::get(TargetId);
  if (!TI)
    return createStringError(inconvertibleErrorCode(),
                             FileName + ": error: " + toString(TI.takeError()));
  if (std::optional<LimitViolation> V =
          checkInputLimits(Buffer->getBuffer(), Opts.Limits, (*TI)->asmInfo()))
    return ErrorAt(Buffer->getBuffer(), V->Offset, V->Message);
  if (std::optional<LimitViolation> V = checkMetadataYaml(Buffer->getBuffer()))
    return ErrorAt(Buffer->getBuffer(), V->Offset, V->Message);

  auto AS = std::make_unique<AssemblerState>(*TI, Opts.Limits);
  if (StinkyTofuContext *Ctx = Opts.Context)
    AS->setDiagnosticHandler([Ctx](const SourceDiagnostic &D) { Ctx->diagnose(D); });
  std::vector<AsmDiagnostic> Diags;
  // VGPRs 256 and up reach MC in their low spelling (HighVgprInput.h).
  std::unique_ptr<MemoryBuffer> HighVgprText;
  if (std::optional<std::string> ForMC = textForAssembler(Buffer->getBuffer(), **TI)) {
    HighVgprText = std::move(Buffer);
    Buffer = MemoryBuffer::getMemBufferCopy(*ForMC, HighVgprText->getBufferIdentifier());
  }
  // Known lines are the text's as given: not when the VGPR spelling changed it.
  const KnownStatements *Known =
      Opts.Known && !HighVgprText && Opts.Known->TargetId == processorAndFeatures(TargetId)
          ? Opts.Known
          : nullptr;
  AssembledFile Assembled =
      AS->assembleFile(std::move(Buffer), Diags, ExpansionLines::Reconstruct, Known);
  StringRef Text = AS->sourceMgr().getMemoryBuffer(AS->mainBufferId())->getBuffer();
  // MC saw a refused include as a missing file; the refusal says why.
  if (const std::optional<std::string> &Refused = AS->includeViolation())
    return createStringError(inconvertibleErrorCode(), StringRef(*Refused).rtrim("\n"));

  // Diagnostics keep their order (a macro's "while in macro instantiation"
  // note follows its error); warnings and notes are reported only when there
  // is no error to report them with.
  std::vector<SourceDiagnostic> Errors, Others;
  bool HadError = false;
  DenseSet<unsigned> OpaqueLines, PseudoLines;
  auto Typed = [&](const AsmDiagnostic &D, SourceMgr::DiagKind Kind) {
    SourceDiagnostic S{Kind, FileName, 0, 0, "", D.Diag.getMessage().str(), {}, {}};
    if (Opts.MapPosition && D.Line) {
      // The text was synthesized: its own lines mean nothing to the user.
      unsigned Column = unsigned(std::max(D.Diag.getColumnNo(), -1) + 1);
      if (std::optional<OriginalLine> O = Opts.MapPosition(D.Line, Column)) {
        S.File = O->File;
        S.Line = O->Line;
        S.Column = O->Column;
        S.LineText = StringRef(O->Text).rtrim("\r\n").str();
      }
    } else if (D.Diag.getLoc().isValid()) {
      S = toSourceDiagnostic(D.Diag);
      S.Kind = Kind;
    }
    return S;
  };
  const PseudoInstructionRegistry *Pseudos =
      Opts.Context ? &Opts.Context->pseudoInstructions() : nullptr;
  for (const AsmDiagnostic &D : Diags) {
    if (D.Diag.getKind() != SourceMgr::DK_Error) {
      std::vector<SourceDiagnostic> &To = HadError ? Errors : Others;
      // A note belongs to the diagnostic before it.
      if (D.Diag.getKind() == SourceMgr::DK_Note && !To.empty())
        To.back().Notes.push_back(Typed(D, SourceMgr::DK_Note));
      else
        To.push_back(Typed(D, D.Diag.getKind()));
      continue;
    }
    // A registered pseudo-instruction: kept for the pass that lowers it.
    if (D.Line && Pseudos && Pseudos->findStatement(D.Diag.getLineContents())) {
      OpaqueLines.insert(D.Line);
      PseudoLines.insert(D.Line);
      continue;
    }
    if (Opts.AllowUnknownInstructions && D.Line &&
        looksLikeInstruction(D.Diag.getLineContents())) {
      if (OpaqueLines.insert(D.Line).second) {
        Others.push_back(Typed(D, SourceMgr::DK_Warning));
        Others.back().Notes.push_back(
            {SourceMgr::DK_Note, "", 0, 0, "",
             "kept as an opaque instruction that reads and writes every register "
             "(--allow-unknown-instructions)",
             {}, {}});
      }
      continue;
    }
    HadError = true;
    Errors.push_back(Typed(D, SourceMgr::DK_Error));
  }
  // The context's own errors reach Diags too; this catches any it counted
  // without reporting.
  if (!HadError && AS->context().hadError()) {
    HadError = true;
    Errors.push_back({SourceMgr::DK_Error, FileName, 0, 0, "",
                      "the assembler reported an error", {}, {}});
  }
  if (HadError) {
    std::string Rendered;
    for (const SourceDiagnostic &E : countRepeats(std::move(Errors)))
      Rendered += E.render();
    return createStringError(inconvertibleErrorCode(), StringRef(Rendered).rtrim("\n"));
  }
  for (const SourceDiagnostic &W : countRepeats(std::move(Others))) {
    if (Opts.Context)
      Opts.Context->diagnose(W);
    else
      printDiagnostic(W);
  }

  std::string Stem = sys::path::stem(FileName).str();
  auto M = std::make_unique<Module>(Stem, *TI);
  M->setFileName(FileName);
  M->setEndsWithoutNewline(!Text.empty() && !Text.ends_with("\n"));
  Builder B(*M, Text, **TI, *AS, PseudoLines, Assembled.Insts);
  B.build(Assembled.Events, OpaqueLines);
  M->adoptSourceMC(std::move(Assembled.Insts));
  if (const Function *E = M->entry(); E && !E->name().empty())
    M->setName(E->name().str());
  M->setAssembler(std::move(AS));
  M->setPseudoInstructions(Pseudos);
  if (HighVgprText)
    if (Error E = restoreHighVgprs(*M, HighVgprText->getBuffer(), Text))
      return std::move(E);
  return std::move(M);
}

} // namespace stinkytofu
