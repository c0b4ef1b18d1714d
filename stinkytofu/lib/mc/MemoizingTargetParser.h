//===- MemoizingTargetParser.h - MC's result per repeated statement -*- C++ -*-===//
//
// Large kernels repeat their instruction lines: about 15 % of the
// instruction lines of the largest Tensile kernels are distinct texts, and
// the AMDGPU target parser spends some 40,000 instructions on each line.
// This parser sits between LLVM's AsmParser and the target parser: a
// statement whose text it has seen assembled gets the MCInst it got then,
// stamped with its own location, unless MC's result could differ. What the
// result depends on besides the text, and how each is handled:
//
// - The subtarget: fixed for the parser's life.
// - Symbols the text names (`.set` values folded into register numbers and
//   immediates): every identifier of the text is recorded as it was, no
//   symbol or a variable with an absolute value, and must still be so with
//   the same value. An identifier naming anything else (a label, a symbol
//   not yet defined) keeps the statement out.
// - Place-dependent values (labels, `.`, `1b`/`1f`): a statement whose
//   MCInst keeps an expression operand is not memoized, nor a text with a
//   lone `.` or a directional label. Except a last operand that is an
//   expression in parentheses of names, numbers and binary operators
//   (`(label_3-.Lpc_3)&4294967295`, one per call site): the statement is
//   kept by the text before it, and a repeat of that text parses only its
//   own expression, with MC's expression parser where the target parser
//   would (an operand starting with `(` is an immediate: its expression,
//   an MC expression operand when it has no absolute value). A name in it
//   that is a variable, or an expression with an absolute value, takes
//   the whole parse.
// - The target parser's state: every register it reads raises
//   `.amdgcn.next_free_vgpr` / `_sgpr`; a hit needs both at least where the
//   statement first left them (a `.set` that lowers one forces a new parse).
//   A directive the target parser handles (`.amdhsa_kernel`,
//   `.amdgpu_hsa_kernel`, ...) may reset its scopes: it clears the memo.
//   Without the two symbols (a non-HSA triple) nothing is memoized.
// - `s_set_vgpr_msb`: MC's parser keeps no mode; an instruction after it
//   parses to the same MCInst (only its value range is checked).
// - Diagnostics: a statement that drew any (warnings too) is not memoized,
//   so every repeat reports its own at its own file:line:col.
//
// A mnemonic MC does not know (a pseudo-instruction such as
// `sqtt_marker_point "a"`) fails whatever its operands, and MC's error
// for it, with the spelling suggestion it searches all mnemonics for (some
// 2 M instructions), depends on the mnemonic alone: a repeat gets the
// error MC gave the first one, at its own location.
//
// The text a statement is keyed by runs from its mnemonic to its comment or
// end of line; a text holding a string, a block comment, a backslash or
// other rare characters is parsed every time.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_LIB_MC_MEMOIZINGTARGETPARSER_H
#define STINKYTOFU_LIB_MC_MEMOIZINGTARGETPARSER_H

#include "stinkytofu/mc/AssemblerState.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/MC/MCInst.h"
#include "llvm/MC/MCParser/MCTargetAsmParser.h"
#include <optional>
#include <vector>

namespace stinkytofu {

class MemoizingTargetParser final : public llvm::MCTargetAsmParser {
public:
  /// Forwards everything to \p Inner; \p Diags are the diagnostics the
  /// parse collects (a statement that adds one is not memoized).
  MemoizingTargetParser(llvm::MCTargetAsmParser &Inner, const llvm::MCInstrInfo &MII,
                        const std::vector<AsmDiagnostic> &Diags);

  /// The streamer reports every instruction emitted, so that the one a
  /// statement produced can be kept.
  void noteEmitted(const llvm::MCInst &Inst) {
    if (Capturing)
      Captured.push_back(Inst);
  }

  bool parseInstruction(llvm::ParseInstructionInfo &Info, llvm::StringRef Name,
                        llvm::AsmToken ID, llvm::OperandVector &Operands) override;
  bool parseInstruction(llvm::ParseInstructionInfo &Info, llvm::StringRef Name,
                        llvm::SMLoc NameLoc, llvm::OperandVector &Operands) override {
    Hit = nullptr; // LLVM's AsmParser calls the other; this one parses
    Recording = {};
    return Inner.parseInstruction(Info, Name, NameLoc, Operands);
  }
  bool matchAndEmitInstruction(llvm::SMLoc IDLoc, unsigned &Opcode,
                               llvm::OperandVector &Operands, llvm::MCStreamer &Out,
                               uint64_t &ErrorInfo, bool MatchingInlineAsm) override;
  llvm::ParseStatus parseDirective(llvm::AsmToken DirectiveID) override;

  /// A register index (below), else the target parser's.
  bool parsePrimaryExpr(const llvm::MCExpr *&Res, llvm::SMLoc &EndLoc) override;

  // The rest is the target parser's.
  bool parseDataExpr(const llvm::MCExpr *&Res) override { return Inner.parseDataExpr(Res); }
  bool parseRegister(llvm::MCRegister &Reg, llvm::SMLoc &StartLoc,
                     llvm::SMLoc &EndLoc) override {
    return Inner.parseRegister(Reg, StartLoc, EndLoc);
  }
  llvm::ParseStatus tryParseRegister(llvm::MCRegister &Reg, llvm::SMLoc &StartLoc,
                                     llvm::SMLoc &EndLoc) override {
    return Inner.tryParseRegister(Reg, StartLoc, EndLoc);
  }
  bool ParseDirective(llvm::AsmToken DirectiveID) override {
    return Inner.ParseDirective(DirectiveID);
  }
  bool omitRegisterFromClobberLists(llvm::MCRegister Reg) override {
    return Inner.omitRegisterFromClobberLists(Reg);
  }
  unsigned validateTargetOperandClass(llvm::MCParsedAsmOperand &Op, unsigned Kind) override {
    return Inner.validateTargetOperandClass(Op, Kind);
  }
  unsigned checkEarlyTargetMatchPredicate(llvm::MCInst &Inst,
                                          const llvm::OperandVector &Operands) override {
    return Inner.checkEarlyTargetMatchPredicate(Inst, Operands);
  }
  unsigned checkTargetMatchPredicate(llvm::MCInst &Inst) override {
    return Inner.checkTargetMatchPredicate(Inst);
  }
  void convertToMapAndConstraints(unsigned Kind, const llvm::OperandVector &Operands) override {
    Inner.convertToMapAndConstraints(Kind, Operands);
  }
  bool areEqualRegs(const llvm::MCParsedAsmOperand &Op1,
                    const llvm::MCParsedAsmOperand &Op2) const override {
    return Inner.areEqualRegs(Op1, Op2);
  }
  bool equalIsAsmAssignment() override { return Inner.equalIsAsmAssignment(); }
  bool isLabel(llvm::AsmToken &Token) override { return Inner.isLabel(Token); }
  bool tokenIsStartOfStatement(llvm::AsmToken::TokenKind Token) override {
    return Inner.tokenIsStartOfStatement(Token);
  }
  const llvm::MCExpr *applySpecifier(const llvm::MCExpr *E, uint32_t Specifier,
                                     llvm::MCContext &Ctx) override {
    return Inner.applySpecifier(E, Specifier, Ctx);
  }
  void doBeforeLabelEmit(llvm::MCSymbol *Symbol, llvm::SMLoc IDLoc) override {
    Inner.doBeforeLabelEmit(Symbol, IDLoc);
  }
  void onLabelParsed(llvm::MCSymbol *Symbol) override { Inner.onLabelParsed(Symbol); }
  void flushPendingInstructions(llvm::MCStreamer &Out) override {
    Inner.flushPendingInstructions(Out);
  }
  void onBeginOfFile() override { Inner.onBeginOfFile(); }
  void onEndOfFile() override { Inner.onEndOfFile(); }

private:
  /// An identifier of the statement's text, by its offset and length in
  /// the key, and what it named when the statement was parsed. A `.set` of
  /// a symbol already used makes a new symbol of that name: identifiers are
  /// looked up again at every use.
  struct Identifier {
    uint16_t Offset, Length;
    const llvm::MCSymbol *Symbol; // null: no symbol
    const llvm::MCExpr *Value;    // the variable's expression then
    int64_t Absolute;             // and its value
  };
  struct Entry {
    llvm::SmallVector<llvm::MCInst, 1> Insts;
    llvm::SmallVector<Identifier, 6> Identifiers;
    int64_t NextFreeVgpr = 0, NextFreeSgpr = 0;
    /// Of an entry kept by the text before its last operand (Shapes): the
    /// MC operand that operand's expression is.
    unsigned ExprOperand = ~0u;
  };

  /// The statement's text from its mnemonic at \p Begin to its comment or
  /// end of line, or empty when it cannot be memoized.
  llvm::StringRef statementText(const char *Begin) const;
  bool stillHolds(llvm::StringRef Key, const Entry &E) const;
  /// The value of a symbol when it is a variable with an absolute value.
  std::optional<int64_t> absoluteValue(llvm::StringRef Name, const llvm::MCSymbol **Symbol = nullptr) const;
  void remember(llvm::StringRef Text);
  /// remember() for a statement whose MC instruction has an expression.
  void rememberShape(llvm::StringRef Text);
  /// Keeps the statement parsed last in \p Into under \p Key (its text,
  /// or the text before its last operand) with what \p Key names, in \p E
  /// (moved from).
  void keep(llvm::StringMap<Entry> &Into, llvm::StringRef Key, Entry &E);
  /// Where \p Text's last operand starts when it is an expression as
  /// Shapes keeps (after a comma, in parentheses, names that are no
  /// variables, decimal numbers and binary operators), else npos.
  size_t expressionTail(llvm::StringRef Text) const;
  /// Parses the expression at \p Tail of \p Text for \p E; false, with
  /// the lexer where it was, when it is not what \p E's was.
  bool replayShape(llvm::StringRef Text, size_t Tail, const Entry &E);
  /// Keeps MC's error for the statement that failed before, when it was
  /// the one for an unknown mnemonic (it is printed after the statement).
  void noteUnknownMnemonic();
  /// Moves the parser past the statement \p Text starts, where the target
  /// parser leaves it.
  void skipStatement(llvm::StringRef Text);
  /// A register index or bound (`v[vgprValuC+4]`, `s[sgprA:sgprA+1]`) of
  /// decimals and names of absolute constants joined by `+` and `-`, summed
  /// into \p Res with the lexer moved to the `]` or `:` after it. That is
  /// what MC's expression parser gives: the terms as its lexer reads them,
  /// such names inlined, and the sum folded to a constant before the target
  /// parser sees it, which lexing each term with a 128-bit integer cost
  /// some 4,000 instructions an index. False, with nothing consumed, for
  /// anything else; a term after an operator (the `[`/`:` before the index
  /// rules out the right-hand side of a binary operator).
  bool parseRegisterIndex(const llvm::MCExpr *&Res, llvm::SMLoc &EndLoc);
  /// The source buffer that holds \p Ptr (the lexer's).
  llvm::StringRef bufferHolding(const char *Ptr);

  llvm::MCTargetAsmParser &Inner;
  const std::vector<AsmDiagnostic> &Diags;
  /// Whether the target keeps `.amdgcn.next_free_vgpr` and `_sgpr`, and
  /// statements are cut as statementText cuts them.
  bool Enabled = false;
  llvm::StringMap<Entry> Memo;
  /// Statements ending in an expression, by the text before it.
  llvm::StringMap<Entry> Shapes;
  /// The replayed statement's own expression (of a Shapes entry), set with
  /// every Hit.
  const llvm::MCExpr *HitExpr = nullptr;
  llvm::StringRef LastBuffer; // of bufferHolding
  const Entry *Hit = nullptr;     // the statement being replayed
  llvm::StringRef Recording;      // the statement being parsed, to remember
  size_t DiagsBefore = 0;
  bool Capturing = false;
  llvm::SmallVector<llvm::MCInst, 1> Captured;
  /// MC's error for each mnemonic it does not know.
  llvm::StringMap<std::string> UnknownMnemonics;
  std::string Mnemonic;                // of the statement being parsed
  std::string FailedMnemonic;          // of the last statement MC refused
  const char *FailedAt = nullptr;      // and where, until its error is read
  size_t DiagsBeforeFailure = 0;
};

} // namespace stinkytofu

#endif
