//===- AssemblerState.cpp - Running LLVM's assembler over a buffer --------===//
#include "stinkytofu/parse/AssemblerState.h"
#include "stinkytofu/parse/OperandParser.h"
#include "llvm/MC/MCAsmInfo.h"
#include "llvm/MC/MCExpr.h"
#include "llvm/MC/MCParser/MCAsmParser.h"
#include "llvm/MC/MCParser/MCTargetAsmParser.h"
#include "llvm/MC/MCSection.h"
#include "llvm/MC/MCStreamer.h"
#include "llvm/MC/MCSymbol.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/FormattedStream.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace llvm;

namespace stinkytofu {

namespace {

/// Records what the parser hands the streamer; emits nothing.
class RecordingStreamer final : public MCStreamer {
public:
  RecordingStreamer(MCContext &Ctx, SourceMgr &SM, unsigned Buffer,
                    std::vector<AsmEvent> &Events)
      : MCStreamer(Ctx), SM(SM), Buffer(Buffer), Events(Events) {}

  void setParser(MCAsmParser *P) { Parser = P; }

  void emitInstruction(const MCInst &Inst, const MCSubtargetInfo &) override {
    Events.push_back(event(AsmEvent::Kind::Instruction));
    Events.back().Inst = Inst;
  }

  void emitLabel(MCSymbol *Symbol, SMLoc Loc) override {
    MCStreamer::emitLabel(Symbol, Loc);
    // Labels the parser makes up (section starts, DWARF line entries) have no
    // location; only labels written in the source are recorded.
    if (!Loc.isValid())
      return;
    AsmEvent E = event(AsmEvent::Kind::Label, Loc);
    E.Symbol = Symbol->getName().str();
    Events.push_back(std::move(E));
  }

  void emitAssignment(MCSymbol *Symbol, const MCExpr *Value) override {
    MCStreamer::emitAssignment(Symbol, Value);
    AsmEvent E = event(AsmEvent::Kind::Assignment);
    E.Symbol = Symbol->getName().str();
    E.Value = Value;
    Events.push_back(std::move(E));
  }

  bool emitSymbolAttribute(MCSymbol *Symbol, MCSymbolAttr Attr) override {
    if (Attr == MCSA_ELF_TypeFunction) {
      AsmEvent E = event(AsmEvent::Kind::FunctionType);
      E.Symbol = Symbol->getName().str();
      Events.push_back(std::move(E));
    }
    return true;
  }

  void changeSection(MCSection *Section, uint32_t Subsection) override {
    MCStreamer::changeSection(Section, Subsection);
    AsmEvent E = event(AsmEvent::Kind::Section);
    E.IsCode = Section->isText();
    Events.push_back(std::move(E));
  }

  // With GenDwarfForAssembly on, the parser announces the line of every
  // instruction before emitting it, and for a macro expansion the line of
  // the outermost invocation: exactly the mapping the IR needs.
  void emitDwarfLocDirective(unsigned, unsigned Line, unsigned, unsigned,
                             unsigned, unsigned, StringRef, StringRef) override {
    PendingLine = Line;
  }
  Expected<unsigned> tryEmitDwarfFileDirective(unsigned, StringRef, StringRef,
                                               std::optional<MD5::MD5Result>,
                                               std::optional<StringRef>,
                                               unsigned) override {
    return 1;
  }

  void emitCommonSymbol(MCSymbol *, uint64_t, Align) override {}
  void emitZerofill(MCSection *, MCSymbol *, uint64_t, Align, SMLoc) override {}

private:
  AsmEvent event(AsmEvent::Kind K, SMLoc Loc = SMLoc()) {
    AsmEvent E;
    E.K = K;
    E.Loc = Loc;
    if (!Loc.isValid() && Parser) {
      // The streamer hears of a statement once the parser has consumed its
      // end: the current token is the first one of the following line.
      const AsmToken &Next = Parser->getTok();
      Loc = Next.getLoc();
      E.AfterStatement = !Next.is(AsmToken::Eof) || endsWithNewline(Loc);
    }
    StringRef Main = SM.getMemoryBuffer(Buffer)->getBuffer();
    const char *P = Loc.getPointer();
    if (P && P >= Main.begin() && P <= Main.end()) {
      E.Offset = size_t(P - Main.begin());
    } else {
      E.FromExpansion = Loc.isValid();
      E.Line = E.FromExpansion ? PendingLine : 0;
    }
    if (K == AsmEvent::Kind::Instruction)
      PendingLine = 0;
    return E;
  }

  bool endsWithNewline(SMLoc Loc) const {
    StringRef Text = SM.getMemoryBuffer(Buffer)->getBuffer();
    return Loc.getPointer() == Text.end() && Text.ends_with("\n");
  }

  SourceMgr &SM;
  unsigned Buffer;
  std::vector<AsmEvent> &Events;
  MCAsmParser *Parser = nullptr;
  unsigned PendingLine = 0;
};

bool usesExpansions(StringRef Text) {
  for (StringRef Directive : {".macro", ".rept", ".irp", ".MACRO", ".REPT", ".IRP"})
    if (Text.contains(Directive))
      return true;
  return false;
}

struct ParseRun {
  std::unique_ptr<MCAsmParser> Parser;
  std::unique_ptr<MCTargetAsmParser> TargetParser;
};

ParseRun makeParser(const TargetInfo &TI, SourceMgr &SM, MCContext &Ctx,
                    MCStreamer &Streamer, unsigned Buffer) {
  ParseRun Run;
  Run.Parser.reset(createMCAsmParser(SM, Ctx, Streamer, TI.asmInfo(), Buffer));
  Run.TargetParser.reset(TI.target().createMCAsmParser(
      TI.subtargetInfo(), *Run.Parser, TI.instrInfo(), TI.targetOptions()));
  Run.Parser->setTargetParser(*Run.TargetParser);
  return Run;
}

} // namespace

AssemblerState::AssemblerState(std::shared_ptr<const TargetInfo> T)
    : Target(std::move(T)) {
  Ctx = std::make_unique<MCContext>(Target->triple(), &Target->asmInfo(),
                                    &Target->regInfo(), &Target->subtargetInfo(),
                                    &SrcMgr);
  MOFI.reset(Target->target().createMCObjectFileInfo(*Ctx, /*PIC=*/false));
  Ctx->setObjectFileInfo(MOFI.get());
}

AssemblerState::~AssemblerState() = default;

static void collectDiagnostics(SourceMgr &SM, std::vector<AsmDiagnostic> &Diags,
                               unsigned Buffer) {
  struct Sink {
    std::vector<AsmDiagnostic> *Diags;
    SourceMgr *SM;
    unsigned Buffer;
  };
  static thread_local Sink S;
  S = {&Diags, &SM, Buffer};
  SM.setDiagHandler(
      [](const SMDiagnostic &D, void *Ctx) {
        Sink *Out = static_cast<Sink *>(Ctx);
        AsmDiagnostic A{D, 0};
        if (D.getLoc().isValid() &&
            Out->SM->FindBufferContainingLoc(D.getLoc()) == Out->Buffer)
          A.Line = unsigned(D.getLineNo());
        Out->Diags->push_back(std::move(A));
      },
      &S);
}

std::vector<AsmEvent>
AssemblerState::assembleFile(std::unique_ptr<MemoryBuffer> Buffer,
                             std::vector<AsmDiagnostic> &Diags) {
  bool Expansions = usesExpansions(Buffer->getBuffer());
  MainBuffer = SrcMgr.AddNewSourceBuffer(std::move(Buffer), SMLoc());
  Ctx->setMainFileName(SrcMgr.getMemoryBuffer(MainBuffer)->getBufferIdentifier());
  // Only needed to attribute expansions to their invoking line; it conflicts
  // with `.file` directives, so it stays off for files without macros.
  Ctx->setGenDwarfForAssembly(Expansions);
  std::vector<AsmEvent> Events;
  RecordingStreamer Streamer(*Ctx, SrcMgr, MainBuffer, Events);
  formatted_raw_ostream Null(nulls());
  Target->target().createAsmTargetStreamer(Streamer, Null, nullptr);
  ParseRun Run = makeParser(*Target, SrcMgr, *Ctx, Streamer, MainBuffer);
  Streamer.setParser(Run.Parser.get());
  collectDiagnostics(SrcMgr, Diags, MainBuffer);
  Run.Parser->Run(/*NoInitialTextSection=*/false);
  Ctx->setGenDwarfForAssembly(false);
  if (Expansions)
    std::erase_if(Diags, [](const AsmDiagnostic &D) {
      return D.Diag.getMessage().contains("when -g is used");
    });
  SrcMgr.setDiagHandler(nullptr);
  return Events;
}

Expected<SmallVector<MCInst, 1>> AssemblerState::assembleStatement(StringRef Text) {
  std::string Line = Text.str();
  if (Line.empty() || Line.back() != '\n')
    Line += '\n';
  unsigned Id = SrcMgr.AddNewSourceBuffer(
      MemoryBuffer::getMemBufferCopy(Line, "<statement>"), SMLoc());
  std::vector<AsmEvent> Events;
  std::vector<AsmDiagnostic> Diags;
  RecordingStreamer Streamer(*Ctx, SrcMgr, Id, Events);
  formatted_raw_ostream Null(nulls());
  Target->target().createAsmTargetStreamer(Streamer, Null, nullptr);
  // The statement is assembled into the current text section.
  Streamer.switchSection(MOFI->getTextSection());
  ParseRun Run = makeParser(*Target, SrcMgr, *Ctx, Streamer, Id);
  Streamer.setParser(Run.Parser.get());
  collectDiagnostics(SrcMgr, Diags, Id);
  Run.Parser->Run(/*NoInitialTextSection=*/true, /*NoFinalize=*/true);
  SrcMgr.setDiagHandler(nullptr);
  for (const AsmDiagnostic &D : Diags)
    if (D.Diag.getKind() == SourceMgr::DK_Error)
      return createStringError(inconvertibleErrorCode(), D.Diag.getMessage());
  SmallVector<MCInst, 1> Insts;
  for (AsmEvent &E : Events)
    if (E.K == AsmEvent::Kind::Instruction)
      Insts.push_back(E.Inst);
  if (Insts.empty())
    return createStringError(inconvertibleErrorCode(),
                             "'" + Text.trim() + "' is not an instruction");
  return Insts;
}

std::vector<Operand> AssemblerState::parseOperands(StringRef Body) const {
  return stinkytofu::parseOperands(
      Body, *Target, [this](StringRef Sym) { return symbolValue(Sym); });
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
