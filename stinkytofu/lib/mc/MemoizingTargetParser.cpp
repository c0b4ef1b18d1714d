//===- MemoizingTargetParser.cpp - MC's result per repeated statement -----===//
#include "MemoizingTargetParser.h"
#include "stinkytofu/mc/CodeObjectVersion.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/MC/MCAsmInfo.h"
#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCExpr.h"
#include "llvm/MC/MCParser/AsmLexer.h"
#include "llvm/MC/MCParser/MCAsmParser.h"
#include "llvm/MC/MCStreamer.h"
#include "llvm/MC/MCSymbol.h"
#include <array>

using namespace llvm;

namespace stinkytofu {

namespace {

/// How statementText treats each byte.
enum CharKind : uint8_t {
  Rejected, ///< parsed every time: strings, `#`, `\\`, `@`, `=`, ...
  Word,     ///< identifiers and numbers
  Plain,    ///< white space, register lists, modifiers, arithmetic
  End,      ///< end of line, `;` comment
  Slash,    ///< `//` comment; otherwise a block comment or a division
  Nul,      ///< end of buffer
};

constexpr std::array<CharKind, 256> CharKinds = [] {
  std::array<CharKind, 256> K{};
  for (int C = 0; C < 256; ++C)
    if ((C >= 'a' && C <= 'z') || (C >= 'A' && C <= 'Z') || (C >= '0' && C <= '9') ||
        C == '_' || C == '.')
      K[C] = Word;
  for (char C : {' ', '\t', ',', '[', ']', '(', ')', ':', '+', '-', '*', '|', '&', '^', '~',
                 '<', '>'})
    K[uint8_t(C)] = Plain;
  K['\n'] = K['\r'] = K[';'] = End;
  K['/'] = Slash;
  K[0] = Nul;
  return K;
}();

CharKind kindOf(char C) { return CharKinds[uint8_t(C)]; }
bool isIdentifierChar(char C) { return kindOf(C) == Word; }

/// A directional label reference (`1b`, `10f`): its symbol depends on the place.
bool isDirectionalLabel(StringRef Word) {
  return Word.size() >= 2 && (Word.back() == 'b' || Word.back() == 'f') &&
         llvm::all_of(Word.drop_back(), isDigit);
}

} // namespace

MemoizingTargetParser::MemoizingTargetParser(MCTargetAsmParser &Inner,
                                             const MCInstrInfo &MII,
                                             const std::vector<AsmDiagnostic> &Diags)
    : MCTargetAsmParser(Inner.getTargetOptions(), Inner.getSTI(), MII), Inner(Inner),
      Diags(Diags) {
  setAvailableFeatures(Inner.getAvailableFeatures());
  // statementText cuts statements as the lexer does for `;` comments and
  // one statement per line.
  MCContext &Ctx = Inner.getContext();
  const MCAsmInfo &MAI = *Ctx.getAsmInfo();
  StringRef Separator = MAI.getSeparatorString();
  if (MAI.getCommentString() != ";" || (Separator != "\n" && Separator != ";"))
    return;
  // The target parser made them when it was created (HSA targets only).
  Enabled = Ctx.lookupSymbol(".amdgcn.next_free_vgpr") && Ctx.lookupSymbol(".amdgcn.next_free_sgpr");
}

std::optional<int64_t> MemoizingTargetParser::absoluteValue(StringRef Name,
                                                            const MCSymbol **Symbol) const {
  const MCSymbol *S = Inner.getContext().lookupSymbol(Name);
  if (Symbol)
    *Symbol = S;
  if (!S || !S->isVariable())
    return std::nullopt;
  const MCExpr *Value = S->getVariableValue();
  if (const auto *C = dyn_cast<MCConstantExpr>(Value))
    return C->getValue();
  if (int64_t V; Value->evaluateAsAbsolute(V))
    return V;
  return std::nullopt;
}

StringRef MemoizingTargetParser::statementText(const char *Begin) const {
  if (!Enabled)
    return {};
  // Memory buffers end with a NUL: the scan stops there at the latest.
  const char *P = Begin;
  bool AfterMnemonic = false;
  for (;; ++P) {
    switch (kindOf(*P)) {
    case Plain:
      continue;
    case Word: {
      const char *Word = P;
      while (isIdentifierChar(P[1]))
        ++P;
      StringRef W(Word, P - Word + 1);
      if (AfterMnemonic && (W == "." || isDirectionalLabel(W)))
        return {};
      AfterMnemonic = true;
      continue;
    }
    case Slash:
      if (P[1] != '/')
        return {}; // a block comment or a division
      break;
    case End:
      break;
    case Rejected:
    case Nul: // the buffer's end, or a NUL the lexer treats its own way
      return {};
    }
    break;
  }
  return StringRef(Begin, P - Begin).rtrim(" \t");
}

/// Calls \p F with each identifier of \p Text after the mnemonic (words
/// that start with a digit are numbers).
template <typename Fn> static void forEachIdentifier(StringRef Text, Fn F) {
  size_t I = 0, N = Text.size();
  while (I < N && isIdentifierChar(Text[I]))
    ++I; // the mnemonic
  while (I < N) {
    if (!isIdentifierChar(Text[I])) {
      ++I;
      continue;
    }
    size_t Start = I;
    while (I < N && isIdentifierChar(Text[I]))
      ++I;
    if (!isDigit(Text[Start]))
      F(Start, I - Start);
  }
}

bool MemoizingTargetParser::stillHolds(StringRef Key, const Entry &E) const {
  std::optional<int64_t> Vgpr = absoluteValue(".amdgcn.next_free_vgpr");
  std::optional<int64_t> Sgpr = absoluteValue(".amdgcn.next_free_sgpr");
  if (!Vgpr || !Sgpr || *Vgpr < E.NextFreeVgpr || *Sgpr < E.NextFreeSgpr)
    return false;
  MCContext &Ctx = Inner.getContext();
  for (const Identifier &I : E.Identifiers) {
    StringRef Name = Key.substr(I.Offset, I.Length);
    if (!I.Symbol) {
      if (Ctx.lookupSymbol(Name))
        return false;
      continue;
    }
    const MCSymbol *S = nullptr;
    std::optional<int64_t> Now = absoluteValue(Name, &S);
    if (S == I.Symbol && S->isVariable() && S->getVariableValue() == I.Value)
      continue;
    if (!Now || *Now != I.Absolute)
      return false;
  }
  return true;
}

void MemoizingTargetParser::remember(StringRef Text) {
  if (Captured.empty() || Text.size() > UINT16_MAX)
    return;
  for (const MCInst &I : Captured)
    for (const MCOperand &Op : I)
      if (Op.isExpr() || Op.isInst()) {
        rememberShape(Text);
        return;
      }
  Entry E;
  keep(Memo, Text, E);
}

void MemoizingTargetParser::rememberShape(StringRef Text) {
  // One expression, of the last operand: the text before it is the key.
  if (Captured.size() != 1 ||
      count_if(Captured.front(), [](const MCOperand &Op) { return Op.isExpr(); }) != 1 ||
      any_of(Captured.front(), [](const MCOperand &Op) { return Op.isInst(); }))
    return;
  size_t Tail = expressionTail(Text);
  if (Tail == StringRef::npos)
    return;
  Entry E;
  const MCInst &I = Captured.front();
  E.ExprOperand = unsigned(find_if(I, [](const MCOperand &Op) { return Op.isExpr(); }) - I.begin());
  keep(Shapes, Text.take_front(Tail), E);
}

void MemoizingTargetParser::keep(StringMap<Entry> &Into, StringRef Key, Entry &E) {
  bool Memoizable = true;
  forEachIdentifier(Key, [&](size_t Offset, size_t Length) {
    const MCSymbol *S = nullptr;
    std::optional<int64_t> V = absoluteValue(Key.substr(Offset, Length), &S);
    if (S && !V)
      Memoizable = false; // a label, a symbol not defined yet, an expression
    E.Identifiers.push_back({uint16_t(Offset), uint16_t(Length), S,
                             V ? S->getVariableValue() : nullptr, V.value_or(0)});
  });
  std::optional<int64_t> Vgpr = absoluteValue(".amdgcn.next_free_vgpr");
  std::optional<int64_t> Sgpr = absoluteValue(".amdgcn.next_free_sgpr");
  if (!Memoizable || !Vgpr || !Sgpr)
    return;
  E.NextFreeVgpr = *Vgpr;
  E.NextFreeSgpr = *Sgpr;
  E.Insts = std::move(Captured);
  Into.insert_or_assign(Key, std::move(E));
}

size_t MemoizingTargetParser::expressionTail(StringRef Text) const {
  // From the end: the operand's characters, then the comma.
  auto InOperand = [](char C) {
    return isIdentifierChar(C) || StringRef("()+-*&|^<>").contains(C);
  };
  size_t Tail = Text.size();
  while (Tail && InOperand(Text[Tail - 1]))
    --Tail;
  size_t Comma = Tail;
  while (Comma && (Text[Comma - 1] == ' ' || Text[Comma - 1] == '\t'))
    --Comma;
  if (Tail == Text.size() || Text[Tail] != '(' || !Comma || Text[Comma - 1] != ',')
    return StringRef::npos;
  // Terms (a parenthesized expression, a name, a decimal number) between
  // binary operators, each operand of an operator present: what MC's
  // expression parser reads whole, with no unary operator, call or
  // place-dependent name.
  MCContext &Ctx = Inner.getContext();
  StringRef Operand = Text.drop_front(Tail);
  int Depth = 0;
  bool WantTerm = true;
  for (size_t I = 0, N = Operand.size(); I < N;) {
    char C = Operand[I];
    if (WantTerm && C == '(') {
      ++Depth;
      ++I;
    } else if (WantTerm && isIdentifierChar(C)) {
      size_t Start = I;
      while (I < N && isIdentifierChar(Operand[I]))
        ++I;
      StringRef Word = Operand.slice(Start, I);
      if (isDigit(C)) {
        if (Word.size() > 18 || !all_of(Word, isDigit) || (Word.size() > 1 && C == '0'))
          return StringRef::npos; // 1b, 0x10, octal, too large
      } else if (Word == ".") {
        return StringRef::npos;
      } else if (const MCSymbol *S = Ctx.lookupSymbol(Word); S && S->isVariable()) {
        return StringRef::npos;
      }
      if (I < N && Operand[I] == '(')
        return StringRef::npos; // a call
      WantTerm = false;
    } else if (!WantTerm && C == ')') {
      if (--Depth < 0)
        return StringRef::npos;
      ++I;
    } else if (!WantTerm && StringRef("+-*&|^").contains(C)) {
      WantTerm = true;
      ++I;
    } else if (!WantTerm && (C == '<' || C == '>') && I + 1 < N && Operand[I + 1] == C) {
      WantTerm = true;
      I += 2;
    } else {
      return StringRef::npos;
    }
  }
  return !WantTerm && !Depth ? Tail : StringRef::npos;
}

bool MemoizingTargetParser::replayShape(StringRef Text, size_t Tail, const Entry &E) {
  StringRef Buffer = bufferHolding(Text.begin());
  if (!Buffer.data())
    return false;
  AsmLexer &Lexer = getLexer();
  const char *Resume = getParser().getTok().getLoc().getPointer();
  Lexer.setBuffer(Buffer, Text.begin() + Tail);
  getParser().Lex();
  size_t DiagsBeforeExpr = Diags.size();
  const MCExpr *Value = nullptr;
  int64_t Absolute;
  if (getParser().parseExpression(Value) || Diags.size() != DiagsBeforeExpr ||
      getParser().hasPendingError() || getParser().getTok().isNot(AsmToken::EndOfStatement) ||
      Value->evaluateAsAbsolute(Absolute)) {
    // The target parser's own parse, from the first operand: it looks the
    // same names up.
    getParser().clearPendingErrors();
    Lexer.setBuffer(Buffer, Resume);
    getParser().Lex();
    return false;
  }
  getParser().Lex(); // the end of the statement, as the target parser eats it
  Hit = &E;
  HitExpr = Value;
  return true;
}

StringRef MemoizingTargetParser::bufferHolding(const char *Ptr) {
  auto Holds = [Ptr](StringRef B) { return Ptr >= B.begin() && Ptr <= B.end(); };
  if (Holds(LastBuffer))
    return LastBuffer;
  // The file, or the macro expansion or included file entered last; seldom
  // another.
  const SourceMgr &SM = getParser().getSourceManager();
  for (unsigned Id : {SM.getNumBuffers(), SM.getMainFileID()})
    if (Id && Holds(SM.getMemoryBuffer(Id)->getBuffer()))
      return LastBuffer = SM.getMemoryBuffer(Id)->getBuffer();
  for (unsigned Id = 1; Id <= SM.getNumBuffers(); ++Id)
    if (Holds(SM.getMemoryBuffer(Id)->getBuffer()))
      return LastBuffer = SM.getMemoryBuffer(Id)->getBuffer();
  return {};
}

void MemoizingTargetParser::skipStatement(StringRef Text) {
  AsmLexer &Lexer = getLexer();
  if (Lexer.isNot(AsmToken::EndOfStatement)) {
    // The current token is the statement's first operand; the rest was
    // checked by statementText and holds no string or block comment. The
    // lexer's LexUntilEndOfStatement, which compares every byte with the
    // separator, stops at the first `;` (the comment string), line end or
    // separator (one of the two) or the buffer's end: none of them is in
    // the text, so it is the first from the text's start. The lexer is set
    // there, in the buffer it reads (the GNU parser always ends a statement
    // at the end of one).
    if (StringRef Buffer = bufferHolding(Text.begin()); Buffer.data()) {
      const char *End = Text.end();
      while (End != Buffer.end() && *End != ';' && *End != '\n' && *End != '\r')
        ++End;
      Lexer.setBuffer(Buffer, End);
    } else {
      Lexer.LexUntilEndOfStatement();
    }
    getParser().Lex();
  }
  getParser().Lex();
}

bool MemoizingTargetParser::parsePrimaryExpr(const MCExpr *&Res, SMLoc &EndLoc) {
  return !parseRegisterIndex(Res, EndLoc) && Inner.parsePrimaryExpr(Res, EndLoc);
}

bool MemoizingTargetParser::parseRegisterIndex(const MCExpr *&Res, SMLoc &EndLoc) {
  const AsmToken &Tok = getParser().getTok();
  const char *Start = Tok.getLoc().getPointer();
  // The token was lexed last (no token queued after it).
  if ((Tok.isNot(AsmToken::Identifier) && Tok.isNot(AsmToken::Integer)) ||
      getLexer().getLoc().getPointer() != Start)
    return false;
  StringRef Buffer = bufferHolding(Start);
  if (!Buffer.data())
    return false;
  auto IsBlank = [](char C) { return C == ' ' || C == '\t'; };
  const char *P = Start;
  while (P != Buffer.begin() && IsBlank(P[-1]))
    --P;
  if (P == Buffer.begin() || (P[-1] != '[' && P[-1] != ':'))
    return false;
  // Buffers end with a NUL: every scan below stops there at the latest.
  MCContext &Ctx = getContext();
  int64_t Sum = 0;
  bool Subtract = false;
  const char *TermEnd;
  for (P = Start;;) {
    const char *Term = P;
    int64_t Value;
    if (isDigit(*P)) {
      while (isDigit(*P))
        ++P;
      StringRef Digits(Term, P - Term);
      // Octal, or perhaps beyond 64 bits.
      if (Digits.size() > 18 || (Digits.size() > 1 && Digits[0] == '0'))
        return false;
      Digits.getAsInteger(10, Value);
    } else if (isAlpha(*P) || *P == '_') {
      while (isAlnum(*P) || *P == '_' || *P == '.')
        ++P;
      // MC inlines a variable whose value is a constant; any other name
      // stays a symbol reference, or is made one.
      const MCSymbol *S = Ctx.lookupSymbol(StringRef(Term, P - Term));
      const auto *C = S && S->isVariable() ? dyn_cast<MCConstantExpr>(S->getVariableValue())
                                           : nullptr;
      if (!C)
        return false;
      Value = C->getValue();
    } else {
      return false;
    }
    if (Subtract ? __builtin_sub_overflow(Sum, Value, &Sum)
                 : __builtin_add_overflow(Sum, Value, &Sum))
      return false;
    // A term ends before a blank, an operator, or the index's end: `1b`,
    // `2.5`, `a@x`, `f(` and the like are MC's to read.
    TermEnd = P;
    while (IsBlank(*P))
      ++P;
    if (*P == ']' || *P == ':')
      break;
    if (*P != '+' && *P != '-')
      return false;
    Subtract = *P++ == '-';
    while (IsBlank(*P))
      ++P;
  }
  Res = MCConstantExpr::create(Sum, Ctx);
  EndLoc = SMLoc::getFromPointer(TermEnd);
  getLexer().setBuffer(Buffer, P);
  getParser().Lex();
  return true;
}

bool MemoizingTargetParser::parseInstruction(ParseInstructionInfo &Info, StringRef Name,
                                             AsmToken ID, OperandVector &Operands) {
  Hit = nullptr;
  Recording = {};
  noteUnknownMnemonic();
  Mnemonic = Name.str();
  StringRef Text = statementText(ID.getLoc().getPointer());
  if (!Text.empty()) {
    auto It = Memo.find(Text);
    if (It != Memo.end() && stillHolds(It->first(), It->second)) {
      Hit = &It->second;
      HitExpr = nullptr;
      skipStatement(Text);
      return false;
    }
    if (size_t Tail = Shapes.empty() ? StringRef::npos : expressionTail(Text);
        Tail != StringRef::npos) {
      auto Shape = Shapes.find(Text.take_front(Tail));
      if (Shape != Shapes.end() && stillHolds(Shape->first(), Shape->second) &&
          replayShape(Text, Tail, Shape->second))
        return false;
    }
    Recording = Text;
    DiagsBefore = Diags.size();
  }
  return Inner.parseInstruction(Info, Name, ID, Operands);
}

bool MemoizingTargetParser::matchAndEmitInstruction(SMLoc IDLoc, unsigned &Opcode,
                                                    OperandVector &Operands,
                                                    MCStreamer &Out, uint64_t &ErrorInfo,
                                                    bool MatchingInlineAsm) {
  if (const Entry *E = std::exchange(Hit, nullptr)) {
    for (MCInst Inst : E->Insts) {
      if (HitExpr)
        Inst.getOperand(E->ExprOperand).setExpr(HitExpr);
      Inst.setLoc(IDLoc);
      Out.emitInstruction(Inst, Inner.getSTI());
    }
    Opcode = E->Insts.back().getOpcode();
    return false;
  }
  StringRef Text = std::exchange(Recording, StringRef());
  if (auto It = UnknownMnemonics.find(Mnemonic); It != UnknownMnemonics.end())
    return Error(IDLoc, It->second);
  Captured.clear();
  Capturing = !Text.empty();
  size_t DiagsBeforeMatch = Diags.size();
  bool Failed = Inner.matchAndEmitInstruction(IDLoc, Opcode, Operands, Out, ErrorInfo,
                                              MatchingInlineAsm);
  Capturing = false;
  if (Failed) {
    FailedMnemonic = Mnemonic;
    FailedAt = IDLoc.getPointer();
    DiagsBeforeFailure = DiagsBeforeMatch;
  }
  if (!Failed && !Text.empty() && Diags.size() == DiagsBefore &&
      !getParser().hasPendingError())
    remember(Text);
  return Failed;
}

void MemoizingTargetParser::noteUnknownMnemonic() {
  const char *At = std::exchange(FailedAt, nullptr);
  if (!At || Diags.size() <= DiagsBeforeFailure)
    return;
  // The AMDGPU parser's error for a mnemonic it has no instruction of,
  // given at the mnemonic; a refused operand gets another.
  const SMDiagnostic &D = Diags[DiagsBeforeFailure].Diag;
  if (D.getKind() == SourceMgr::DK_Error && D.getLoc().getPointer() == At &&
      D.getMessage().starts_with("invalid instruction") && D.getRanges().empty() &&
      D.getFixIts().empty())
    UnknownMnemonics.try_emplace(FailedMnemonic, D.getMessage().str());
}

ParseStatus MemoizingTargetParser::parseDirective(AsmToken DirectiveID) {
  // A version MC cannot write (CodeObjectVersion.h) is refused where it is
  // read, with its place.
  if (DirectiveID.getIdentifier() == ".amdhsa_code_object_version") {
    const AsmToken &Value = getTok();
    if (Value.isNot(AsmToken::Integer) || getLexer().peekTok().isNot(AsmToken::EndOfStatement))
      return Error(Value.getLoc(), "the code object version must be written as a number "
                                   "(4, 5 or 6)");
    if (!isWritableCodeObjectVersion(Value.getIntVal()))
      return Error(Value.getLoc(), "code object version " + Twine(Value.getIntVal()) +
                                       ": LLVM 22 writes versions " +
                                       Twine(MinWritableCodeObjectVersion) + " to " +
                                       Twine(MaxWritableCodeObjectVersion) + " only");
  }
  ParseStatus S = Inner.parseDirective(DirectiveID);
  if (!S.isNoMatch()) {
    Memo.clear();
    Shapes.clear();
  }
  return S;
}

} // namespace stinkytofu
