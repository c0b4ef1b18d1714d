//===- AssemblerState.cpp - Running LLVM's assembler over a buffer --------===//
#include "stinkytofu/mc/AssemblerState.h"
#include "ExpansionLines.h"
#include "IncludeGuard.h"
#include "MemoizingTargetParser.h"
#include "stinkytofu/mc/OperandParser.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/MC/MCAsmInfo.h"
#include "llvm/MC/MCExpr.h"
#include "llvm/MC/MCParser/AsmLexer.h"
#include "llvm/MC/MCParser/MCAsmParser.h"
#include "llvm/MC/MCParser/MCTargetAsmParser.h"
#include "llvm/MC/MCSection.h"
#include "llvm/MC/MCStreamer.h"
#include "llvm/MC/MCSymbol.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/FormattedStream.h"
#include "llvm/Support/MemoryBuffer.h"
#include <cstring>

using namespace llvm;

namespace stinkytofu {

namespace {

/// Records what the parser hands the streamer; emits nothing.
class RecordingStreamer final : public MCStreamer {
public:
  /// Expansions are tied to their invoking line by \p Lines when given, by
  /// the parser's line announcements when \p ParserLines is set.
  RecordingStreamer(MCContext &Ctx, StringRef Main, AssembledFile &Out,
                    ExpansionLineTracker *Lines, bool ParserLines)
      : MCStreamer(Ctx), Main(Main), Out(Out), Lines(Lines),
        ParserLines(ParserLines) {}

  void setParser(MCAsmParser *P) { Parser = P; }
  /// The buffer whose offsets events record (a kept parser's next statement).
  void setMain(StringRef Buffer) { Main = Buffer; }
  void setMemo(MemoizingTargetParser *M) { Memo = M; }

  void emitInstruction(const MCInst &Inst, const MCSubtargetInfo &) override {
    // The target parser stamps the instruction with its mnemonic's location.
    AsmEvent &E = record(AsmEvent::Kind::Instruction, Inst.getLoc());
    E.Inst = Out.Insts.append(Inst);
    PendingLine = 0;
    if (Memo)
      Memo->noteEmitted(Inst);
  }

  void emitLabel(MCSymbol *Symbol, SMLoc Loc) override {
    MCStreamer::emitLabel(Symbol, Loc);
    // Labels the parser makes up (section starts, DWARF line entries) have no
    // location; only labels written in the source are recorded.
    if (Loc.isValid())
      record(AsmEvent::Kind::Label, Loc).Symbol = Symbol->getName();
  }

  void emitAssignment(MCSymbol *Symbol, const MCExpr *Value) override {
    MCStreamer::emitAssignment(Symbol, Value);
    AsmEvent &E = record(AsmEvent::Kind::Assignment, SMLoc());
    E.Symbol = Symbol->getName();
    E.Value = Value;
    // Evaluated now: the symbols it names may be assigned again later.
    SymbolAssignment &A = Out.Assignments.emplace_back();
    A.Symbol = E.Symbol;
    A.NextOffset = E.FromExpansion ? AsmEvent::NoOffset : E.NextOffset;
    if (int64_t V; Value->evaluateAsAbsolute(V))
      A.Value = V;
  }

  bool emitSymbolAttribute(MCSymbol *Symbol, MCSymbolAttr Attr) override {
    if (Attr == MCSA_ELF_TypeFunction)
      record(AsmEvent::Kind::FunctionType, SMLoc()).Symbol = Symbol->getName();
    return true;
  }

  void changeSection(MCSection *Section, uint32_t Subsection) override {
    MCStreamer::changeSection(Section, Subsection);
    record(AsmEvent::Kind::Section, SMLoc()).IsCode = Section->isText();
  }

  // With GenDwarfForAssembly on, the parser announces the line of every
  // instruction before emitting it, and for a macro expansion the line of
  // the outermost invocation: exactly the mapping the IR needs.
  void emitDwarfLocDirective(unsigned, unsigned Line, unsigned, unsigned,
                             unsigned, unsigned, StringRef, StringRef) override {
    PendingLine = Line;
  }
  // A numbered `.file` (clang -g output) meeting GenDwarfForAssembly makes
  // the parser drop the file table and turn GenDwarfForAssembly off: the
  // input has debug info of its own. Its files are registered as usual, so
  // that its `.loc` directives stay valid, the ones seen before are
  // registered again, and line tracking goes on for the expansions after it.
  Expected<unsigned> tryEmitDwarfFileDirective(unsigned FileNo, StringRef Directory,
                                               StringRef Filename,
                                               std::optional<MD5::MD5Result> Checksum,
                                               std::optional<StringRef> Source,
                                               unsigned CUID) override {
    restoreFileTable();
    Expected<unsigned> Number = MCStreamer::tryEmitDwarfFileDirective(
        FileNo, Directory, Filename, Checksum, Source, CUID);
    if (Number && ParserLines)
      Files.push_back({*Number, Directory.str(), Filename.str(), Checksum,
                       Source ? std::optional<std::string>(Source->str()) : std::nullopt,
                       CUID});
    return Number;
  }
  void emitDwarfFile0Directive(StringRef Directory, StringRef Filename,
                               std::optional<MD5::MD5Result> Checksum,
                               std::optional<StringRef> Source, unsigned CUID) override {
    restoreFileTable();
    MCStreamer::emitDwarfFile0Directive(Directory, Filename, Checksum, Source, CUID);
    if (ParserLines)
      Files.push_back({0, Directory.str(), Filename.str(), Checksum,
                       Source ? std::optional<std::string>(Source->str()) : std::nullopt,
                       CUID});
  }

  // Data in a code section: words may be instructions (CodeWordDecoder.h).
  void emitIntValue(uint64_t Value, unsigned Size) override {
    if (!inCode())
      return;
    if (Size == 4)
      record(AsmEvent::Kind::CodeWord, dataLoc()).Word = uint32_t(Value);
    else
      record(AsmEvent::Kind::CodeData, dataLoc());
  }
  void emitValueImpl(const MCExpr *, unsigned, SMLoc) override { recordCodeData(); }
  void emitBytes(StringRef) override { recordCodeData(); }
  void emitFill(const MCExpr &, uint64_t, SMLoc) override { recordCodeData(); }
  void emitFill(const MCExpr &, int64_t, int64_t, SMLoc) override { recordCodeData(); }
  void emitValueToAlignment(Align, int64_t, uint8_t, unsigned) override { recordCodeData(); }
  void emitCodeAlignment(Align, const MCSubtargetInfo *, unsigned) override {
    recordCodeData();
  }

  void emitCommonSymbol(MCSymbol *, uint64_t, Align) override {}
  void emitZerofill(MCSection *, MCSymbol *, uint64_t, Align, SMLoc) override {}

private:
  bool inCode() const {
    const MCSection *S = getCurrentSectionOnly();
    return S && S->isText();
  }
  void recordCodeData() {
    if (inCode())
      record(AsmEvent::Kind::CodeData, dataLoc());
  }
  /// Data reaches the streamer while its statement is parsed: the current
  /// token is still on the statement's line.
  SMLoc dataLoc() const { return Parser ? Parser->getTok().getLoc() : SMLoc(); }
  /// Appends an event; \p Loc is the statement's own location when the
  /// caller knows it.
  AsmEvent &record(AsmEvent::Kind K, SMLoc Loc) {
    AsmEvent &E = Out.Events.emplace_back();
    E.K = K;
    // The streamer hears of a statement once the parser has consumed its
    // end: the current token is the first one after it.
    SMLoc Next = Parser ? Parser->getTok().getLoc() : SMLoc();
    E.NextOffset = offsetOf(Next);
    if (Loc.isValid())
      E.Offset = offsetOf(Loc);
    SMLoc At = Loc.isValid() ? Loc : Next;
    E.FromExpansion = At.isValid() && offsetOf(At) == AsmEvent::NoOffset;
    if (E.FromExpansion)
      E.Line = PendingLine;
    if (Lines && E.FromExpansion)
      Lines->expansionEvent(Out.Events.size() - 1, At.getPointer());
    else if (Lines && At.isValid())
      Lines->mainEvent(Out.Events, E.Offset, E.NextOffset);
    return E;
  }

  size_t offsetOf(SMLoc Loc) const {
    const char *P = Loc.getPointer();
    return P && P >= Main.begin() && P <= Main.end() ? size_t(P - Main.begin())
                                                     : AsmEvent::NoOffset;
  }

  /// A `.file` the input declared, kept to register it again after the
  /// parser drops the file table.
  struct DwarfFile {
    unsigned Number;
    std::string Directory, Name;
    std::optional<MD5::MD5Result> Checksum;
    std::optional<std::string> Source;
    unsigned CUID;
  };

  void restoreFileTable() {
    if (!ParserLines || getContext().getGenDwarfForAssembly())
      return;
    getContext().setGenDwarfForAssembly(true);
    for (const DwarfFile &F : Files) {
      std::optional<StringRef> Source;
      if (F.Source)
        Source = *F.Source;
      if (F.Number == 0)
        MCStreamer::emitDwarfFile0Directive(F.Directory, F.Name, F.Checksum, Source, F.CUID);
      else
        consumeError(MCStreamer::tryEmitDwarfFileDirective(F.Number, F.Directory, F.Name,
                                                           F.Checksum, Source, F.CUID)
                         .takeError());
    }
  }

  StringRef Main;
  AssembledFile &Out;
  ExpansionLineTracker *Lines;
  bool ParserLines;
  std::vector<DwarfFile> Files;
  MCAsmParser *Parser = nullptr;
  MemoizingTargetParser *Memo = nullptr;
  unsigned PendingLine = 0;
};

/// Whether \p Known describes whole lines of \p Text, each in order, an
/// instruction's on one line.
bool fitsText(const KnownStatements &Known, StringRef Text) {
  auto WholeLines = [&](size_t Begin, size_t End) {
    return Begin < End && End <= Text.size() && (Begin == 0 || Text[Begin - 1] == '\n') &&
           Text[End - 1] == '\n' && !Text.slice(Begin, End).contains('\r');
  };
  size_t After = 0;
  for (const KnownStatements::Instruction &I : Known.Instructions) {
    if (I.Line < After || !WholeLines(I.Line, I.End) || I.Mnemonic < I.Line ||
        I.Mnemonic >= I.End - 1 || Text.slice(I.Line, I.End - 1).contains('\n'))
      return false;
    After = I.End;
  }
  After = 0;
  for (auto [Begin, End] : Known.CheckedBlocks) {
    if (Begin < After || !WholeLines(Begin, End))
      return false;
    After = End;
  }
  return true;
}

/// Turns every line \p Known describes into a comment for the parser, and
/// returns the bytes it replaced (offset, byte) to put back.
std::vector<std::pair<size_t, char>> commentOut(char *Data, const KnownStatements &Known) {
  std::vector<std::pair<size_t, char>> Replaced;
  Replaced.reserve(Known.Instructions.size());
  auto CommentOut = [&](size_t At) {
    Replaced.emplace_back(At, Data[At]);
    Data[At] = ';';
  };
  for (const KnownStatements::Instruction &I : Known.Instructions)
    CommentOut(I.Line);
  for (auto [Begin, End] : Known.CheckedBlocks)
    for (size_t At = Begin; At < End;) {
      if (Data[At] != '\n')
        CommentOut(At);
      At = size_t(static_cast<const char *>(std::memchr(Data + At, '\n', End - At)) - Data) + 1;
    }
  return Replaced;
}

bool usesExpansions(StringRef Text) {
  // One pass over the text, from dot to dot: a disassembly's is tens of
  // megabytes.
  for (size_t At = Text.find('.'); At != StringRef::npos; At = Text.find('.', At + 1)) {
    StringRef After = Text.substr(At + 1, 5);
    for (StringRef Directive : {"macro", "rept", "irp", "MACRO", "REPT", "IRP"})
      if (After.starts_with(Directive))
        return true;
  }
  return false;
}

/// Whether \p Text is one instruction statement and nothing else: one line,
/// no `#` (a preprocessor line marker), and a first word that is no
/// directive, label, assignment or macro of \p Ctx. Such a statement leaves
/// the parser as it found it (AssemblerState::Kept).
bool isPlainInstruction(StringRef Text, MCContext &Ctx) {
  StringRef Line = Text.rtrim("\n");
  if (Line.find_first_of("\r\n#") != StringRef::npos)
    return false;
  Line = Line.ltrim(" \t");
  StringRef Mnemonic = Line.take_while([](char C) { return isAlnum(C) || C == '_' || C == '.'; });
  if (Mnemonic.empty() || !(isAlpha(Mnemonic.front()) || Mnemonic.front() == '_'))
    return false;
  StringRef After = Line.drop_front(Mnemonic.size()).ltrim(" \t");
  if (After.starts_with(":") || After.starts_with("="))
    return false;
  return !Ctx.lookupMacro(Mnemonic) && !Ctx.lookupMacro(Mnemonic.lower());
}

/// What constructing the AMDGPU parser does to the context besides setting
/// constants: it counts the registers instructions name in these symbols,
/// from 0 (`.amdhsa_next_free_vgpr .amdgcn.next_free_vgpr` reads them).
constexpr StringLiteral RegisterCountSymbols[] = {".amdgcn.next_free_vgpr",
                                                  ".amdgcn.next_free_sgpr"};

} // namespace

/// Sends what the parser (through the source manager) and the MC context
/// report into \p Diags, each with its line when it lies in buffer \p Buffer.
static void collectDiagnostics(SourceMgr &SM, MCContext &Ctx,
                               std::vector<AsmDiagnostic> &Diags, unsigned Buffer) {
  struct Sink {
    std::vector<AsmDiagnostic> *Diags;
    SourceMgr *SM;
    unsigned Buffer;
    void add(const SMDiagnostic &D) {
      AsmDiagnostic A{D, 0};
      if (D.getLoc().isValid() && SM->FindBufferContainingLoc(D.getLoc()) == Buffer)
        A.Line = unsigned(D.getLineNo());
      Diags->push_back(std::move(A));
    }
  };
  static thread_local Sink S;
  S = {&Diags, &SM, Buffer};
  SM.setDiagHandler([](const SMDiagnostic &D, void *Ctx) { static_cast<Sink *>(Ctx)->add(D); },
                    &S);
  // The context reports what the streamer finds (a label defined twice, an
  // unfinished frame); by default it prints them and the caller never knows.
  Ctx.setDiagnosticHandler([](const SMDiagnostic &D, bool, const SourceMgr &,
                              std::vector<const MDNode *> &) { S.add(D); });
}

/// Undoes collectDiagnostics: \p Diags is about to go away; what the
/// context reports from now on goes to \p Handler.
static void stopCollecting(SourceMgr &SM, MCContext &Ctx, const DiagnosticHandler &Handler) {
  SM.setDiagHandler(nullptr);
  Ctx.setDiagnosticHandler([Handler](const SMDiagnostic &D, bool, const SourceMgr &,
                                     std::vector<const MDNode *> &) {
    Handler(toSourceDiagnostic(D));
  });
}

/// A parser of statements in the file's context, into the text section.
struct AssemblerState::StatementParser {
  StatementParser(AssemblerState &AS, unsigned Buffer)
      : Streamer(*AS.Ctx, AS.SrcMgr.getMemoryBuffer(Buffer)->getBuffer(), Out,
                 /*Lines=*/nullptr, /*ParserLines=*/false) {
    AS.Target->target().createAsmTargetStreamer(Streamer, Null, nullptr);
    Streamer.switchSection(AS.MOFI->getTextSection());
    Run.emplace(AS.Target->createAsmParser(AS.SrcMgr, *AS.Ctx, Streamer, Buffer));
    Streamer.setParser(Run->Parser.get());
  }

  /// Parses what the lexer stands at, up to the end of its buffer; the
  /// first error fails it all.
  Expected<AssembledFile> parse(AssemblerState &AS, unsigned Buffer) {
    std::vector<AsmDiagnostic> Diags;
    collectDiagnostics(AS.SrcMgr, *AS.Ctx, Diags, Buffer);
    Run->Parser->Run(/*NoInitialTextSection=*/true, /*NoFinalize=*/true);
    stopCollecting(AS.SrcMgr, *AS.Ctx, AS.Handler);
    AssembledFile Parsed = std::move(Out);
    Out = AssembledFile();
    for (const AsmDiagnostic &D : Diags)
      if (D.Diag.getKind() == SourceMgr::DK_Error)
        return createStringError(inconvertibleErrorCode(), D.Diag.getMessage());
    return std::move(Parsed);
  }

  /// Points the kept parser at \p Buffer, the context as a new parser
  /// would find it (AssemblerState::Kept).
  void moveTo(AssemblerState &AS, unsigned Buffer) {
    StringRef Text = AS.SrcMgr.getMemoryBuffer(Buffer)->getBuffer();
    Streamer.setMain(Text);
    Run->Parser->getLexer().setBuffer(Text);
    for (StringRef Name : RegisterCountSymbols)
      if (MCSymbol *Sym = AS.Ctx->lookupSymbol(Name))
        Sym->setVariableValue(MCConstantExpr::create(0, *AS.Ctx));
  }

  AssembledFile Out;
  formatted_raw_ostream Null{nulls()};
  RecordingStreamer Streamer;
  /// Made once the streamer has its place.
  std::optional<TargetAsmParser> Run;
};

AssemblerState::AssemblerState(std::shared_ptr<const TargetInfo> T, const InputLimits &L)
    : Target(std::move(T)), Limits(L) {
  resetContext();
}

void AssemblerState::resetContext() {
  Kept.reset();
  MOFI.reset();
  Ctx.reset();
  SrcMgr = SourceMgr();
  Includes = makeIntrusiveRefCnt<IncludeGuardFileSystem>(SrcMgr, Limits, Target->asmInfo());
  SrcMgr.setVirtualFileSystem(Includes);
  Ctx = std::make_unique<MCContext>(Target->triple(), &Target->asmInfo(),
                                    &Target->regInfo(), &Target->subtargetInfo(),
                                    &SrcMgr);
  MOFI.reset(Target->target().createMCObjectFileInfo(*Ctx, /*PIC=*/false));
  Ctx->setObjectFileInfo(MOFI.get());
}

AssemblerState::~AssemblerState() = default;

void AssemblerState::setKeepStatementParser(bool On) {
  KeepStatementParser = On;
  Kept.reset();
}

AssembledFile AssemblerState::assembleFile(std::unique_ptr<MemoryBuffer> Buffer,
                                           std::vector<AsmDiagnostic> &Diags,
                                           ExpansionLines Lines,
                                           const KnownStatements *Known) {
  bool Expansions = usesExpansions(Buffer->getBuffer());
  if (Known && !fitsText(*Known, Buffer->getBuffer()))
    Known = nullptr;
  if (!Expansions)
    return parseFile(std::move(Buffer), Diags, std::nullopt, Known);
  if (Lines == ExpansionLines::FromParser)
    return parseFile(std::move(Buffer), Diags, ExpansionLines::FromParser);
  AssembledFile Out = parseFile(std::move(Buffer), Diags, ExpansionLines::Reconstruct);
  if (Out.ExpansionLinesFrom == ExpansionLines::Reconstruct)
    return Out;
  // Some expansion could not be placed for certain: parse again, this time
  // with the parser announcing every statement's line.
  const MemoryBuffer &Main = *SrcMgr.getMemoryBuffer(MainBuffer);
  std::unique_ptr<MemoryBuffer> Copy =
      MemoryBuffer::getMemBufferCopy(Main.getBuffer(), Main.getBufferIdentifier());
  resetContext();
  Diags.clear();
  return parseFile(std::move(Copy), Diags, ExpansionLines::FromParser);
}

AssembledFile AssemblerState::parseFile(std::unique_ptr<MemoryBuffer> Buffer,
                                        std::vector<AsmDiagnostic> &Diags,
                                        std::optional<ExpansionLines> Lines,
                                        const KnownStatements *Known) {
  Kept.reset();
  bool ParserLines = Lines == ExpansionLines::FromParser;
  // The known lines are comments for the parser; the text is whole again
  // before anything else reads it.
  char *Writable = nullptr;
  if (Known) {
    std::unique_ptr<WritableMemoryBuffer> Copy = WritableMemoryBuffer::getNewUninitMemBuffer(
        Buffer->getBufferSize(), Buffer->getBufferIdentifier());
    Writable = Copy->getBufferStart();
    std::memcpy(Writable, Buffer->getBufferStart(), Buffer->getBufferSize());
    Buffer = std::move(Copy);
  }
  std::vector<std::pair<size_t, char>> Replaced;
  if (Known)
    Replaced = commentOut(Writable, *Known);
  MainBuffer = SrcMgr.AddNewSourceBuffer(std::move(Buffer), SMLoc());
  StringRef Main = SrcMgr.getMemoryBuffer(MainBuffer)->getBuffer();
  Ctx->setMainFileName(SrcMgr.getMemoryBuffer(MainBuffer)->getBufferIdentifier());
  // The parser computes every statement's line when GenDwarfForAssembly is
  // on: only worth it when the reconstruction gave up.
  Ctx->setGenDwarfForAssembly(ParserLines);
  // A file number of its own would make the parser add the input as a
  // `.file` of the line table; the lines are all the reader listens to.
  Ctx->setGenDwarfFileNumber(ParserLines ? 1 : 0);
  AssembledFile Out;
  Out.ExpansionLinesFrom = Lines.value_or(ExpansionLines::Reconstruct);
  // Most statements are instructions; one slot each up front saves regrowing.
  Out.Events.reserve(Main.size() / 64);
  Out.Insts.reserve(Main.size() / 64);
  ExpansionLineTracker Tracker(SrcMgr, MainBuffer, *Ctx);
  bool Reconstruct = Lines == ExpansionLines::Reconstruct;
  RecordingStreamer Streamer(*Ctx, Main, Out, Reconstruct ? &Tracker : nullptr,
                             ParserLines);
  formatted_raw_ostream Null(nulls());
  Target->target().createAsmTargetStreamer(Streamer, Null, nullptr);
  TargetAsmParser Run = Target->createAsmParser(SrcMgr, *Ctx, Streamer, MainBuffer);
  Streamer.setParser(Run.Parser.get());
  // Repeated statements take MC's result for their text
  // (MemoizingTargetParser.h).
  std::optional<MemoizingTargetParser> Memo;
  if (Run.TargetParser && MemoizeStatements) {
    Memo.emplace(*Run.TargetParser, Target->instrInfo(), Diags);
    Run.Parser->setTargetParser(*Memo);
    Streamer.setMemo(&*Memo);
  }
  collectDiagnostics(SrcMgr, *Ctx, Diags, MainBuffer);
  Includes->setParser(Run.Parser.get());
  Run.Parser->Run(/*NoInitialTextSection=*/false);
  Includes->setParser(nullptr);
  for (auto [At, Byte] : Replaced)
    Writable[At] = Byte;
  if (Known)
    addKnownInstructions(*Known, Out);
  Tracker.finish(Out.Events);
  if (Reconstruct && !Tracker.resolved())
    Out.ExpansionLinesFrom = ExpansionLines::FromParser;
  Ctx->setGenDwarfForAssembly(false);
  if (ParserLines)
    std::erase_if(Diags, [](const AsmDiagnostic &D) {
      return D.Diag.getMessage().contains("when -g is used");
    });
  stopCollecting(SrcMgr, *Ctx, Handler);
  recordHistory(Out.Assignments);
  return Out;
}

void AssemblerState::addKnownInstructions(const KnownStatements &Known, AssembledFile &Out) {
  PackedMCInsts::Offset Base = Out.Insts.appendAll(Known.Insts);
  // Merged in file order: a parser event is placed by its statement's
  // offset, else by the token after it, which lies on the known line right
  // after the statement or before it.
  std::vector<AsmEvent> Parsed = std::move(Out.Events);
  Out.Events.clear();
  Out.Events.reserve(Parsed.size() + Known.Instructions.size());
  auto Next = Known.Instructions.begin();
  size_t Key = 0;
  for (AsmEvent &E : Parsed) {
    if (E.Offset != AsmEvent::NoOffset || E.NextOffset != AsmEvent::NoOffset)
      Key = E.Offset != AsmEvent::NoOffset ? E.Offset : E.NextOffset;
    for (; Next != Known.Instructions.end() && Next->End <= Key; ++Next)
      addKnownInstruction(*Next, Known, Base, Out);
    Out.Events.push_back(std::move(E));
  }
  for (; Next != Known.Instructions.end(); ++Next)
    addKnownInstruction(*Next, Known, Base, Out);
}

void AssemblerState::addKnownInstruction(const KnownStatements::Instruction &I,
                                         const KnownStatements &Known,
                                         PackedMCInsts::Offset Base, AssembledFile &Out) {
  AsmEvent &E = Out.Events.emplace_back();
  E.K = AsmEvent::Kind::Instruction;
  E.Offset = I.Mnemonic;
  E.NextOffset = I.End;
  E.Inst = Base + I.Inst;
  if (I.LabelOperand < 0)
    return;
  // What the parser makes of a label operand: a reference to its symbol.
  MCInst Inst = PackedMCInsts::unpack(Known.Insts.record(I.Inst), 1).front();
  if (unsigned(I.LabelOperand) >= Inst.getNumOperands())
    return;
  Inst.getOperand(I.LabelOperand) =
      MCOperand::createExpr(MCSymbolRefExpr::create(Ctx->getOrCreateSymbol(I.Label), *Ctx));
  E.Inst = Out.Insts.append(Inst);
}

void AssemblerState::recordHistory(ArrayRef<SymbolAssignment> Assignments) {
  History.clear();
  Reassigned.clear();
  StringMap<unsigned> Count;
  for (const SymbolAssignment &A : Assignments)
    ++Count[A.Symbol];
  for (const SymbolAssignment &A : Assignments) {
    if (Count[A.Symbol] < 2)
      continue; // one value throughout: the final one
    auto [It, New] = History.try_emplace(A.Symbol);
    if (New)
      Reassigned.push_back(It->first());
    std::vector<SymbolAssignment> &Values = It->second;
    bool Unplaced = A.NextOffset == AsmEvent::NoOffset ||
                    (!Values.empty() && Values.back().NextOffset == AsmEvent::NoOffset);
    if (Unplaced) {
      Values.assign(1, SymbolAssignment{A.Symbol, AsmEvent::NoOffset, std::nullopt});
      continue;
    }
    Values.push_back(A);
  }
}

std::optional<int64_t> AssemblerState::symbolValueAt(StringRef Name, size_t Offset) const {
  auto It = History.find(Name);
  if (It == History.end() || Offset == AsmEvent::NoOffset ||
      It->second.front().NextOffset == AsmEvent::NoOffset)
    return symbolValue(Name);
  const SymbolAssignment *Last = nullptr;
  for (const SymbolAssignment &A : It->second)
    if (A.NextOffset <= Offset)
      Last = &A;
  return Last ? Last->Value : symbolValue(Name);
}

/// Adds \p Text, ended by a newline, as a buffer of its own.
static unsigned addStatementBuffer(SourceMgr &SM, StringRef Text) {
  std::string Lines = Text.str();
  if (Lines.empty() || Lines.back() != '\n')
    Lines += '\n';
  return SM.AddNewSourceBuffer(MemoryBuffer::getMemBufferCopy(Lines, "<statement>"), SMLoc());
}

Expected<AssembledFile> AssemblerState::assembleStatements(StringRef Text) {
  Kept.reset();
  unsigned Id = addStatementBuffer(SrcMgr, Text);
  return StatementParser(*this, Id).parse(*this, Id);
}

Expected<AssembledFile> AssemblerState::assembleInstruction(StringRef Text) {
  unsigned Id = addStatementBuffer(SrcMgr, Text);
  if (Kept)
    Kept->moveTo(*this, Id);
  else
    Kept = std::make_unique<StatementParser>(*this, Id);
  Expected<AssembledFile> Out = Kept->parse(*this, Id);
  // A statement MC refused may leave the parser mid-way: the next one gets
  // a new parser.
  if (!Out)
    Kept.reset();
  return Out;
}

Expected<SmallVector<MCInst, 1>> AssemblerState::assembleStatement(StringRef Text) {
  bool Plain = KeepStatementParser && isPlainInstruction(Text, *Ctx);
  Expected<AssembledFile> Out = Plain ? assembleInstruction(Text) : assembleStatements(Text);
  if (!Out)
    return Out.takeError();
  SmallVector<MCInst, 1> Insts = Out->Insts.unpackAll();
  if (Insts.empty())
    return createStringError(inconvertibleErrorCode(),
                             "'" + Text.trim() + "' is not an instruction");
  return Insts;
}

const std::optional<std::string> &AssemblerState::includeViolation() const {
  return Includes->violation();
}

size_t AssemblerState::offsetOf(StringRef Text) const {
  if (!MainBuffer)
    return AsmEvent::NoOffset;
  StringRef Main = SrcMgr.getMemoryBuffer(MainBuffer)->getBuffer();
  return Text.data() >= Main.begin() && Text.data() <= Main.end()
             ? size_t(Text.data() - Main.begin())
             : AsmEvent::NoOffset;
}

bool AssemblerState::isFileText(StringRef Text) const {
  return offsetOf(Text) != AsmEvent::NoOffset;
}

std::optional<int64_t> AssemblerState::symbolValueFor(StringRef Name, StringRef Text) const {
  return symbolValueAt(Name, offsetOf(Text));
}

std::vector<Operand> AssemblerState::parseOperands(StringRef Body) const {
  // Operand text read from the file lies in the main buffer: its symbols take
  // their value at that line.
  size_t Offset = offsetOf(Body);
  return stinkytofu::parseOperands(
      Body, *Target, [&](StringRef Sym) { return symbolValueAt(Sym, Offset); });
}

std::optional<int64_t> AssemblerState::symbolValue(StringRef Name) const {
  MCSymbol *Sym = Ctx->lookupSymbol(Name);
  if (!Sym || !Sym->isVariable())
    return std::nullopt;
  int64_t V;
  if (Sym->getVariableValue()->evaluateAsAbsolute(V))
    return V;
  return std::nullopt;
}

} // namespace stinkytofu
