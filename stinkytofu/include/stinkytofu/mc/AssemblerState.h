//===- AssemblerState.h - Running LLVM's assembler over a buffer -*- C++ -*-===//
//
// The semantic side of the `.s` reader, shaped after llvm-mca's region
// generator: the real MCAsmParser runs over the whole file, so `.set`,
// `.macro`, `.if`, expressions and target directives mean exactly what they
// mean to the assembler; a recording streamer keeps every MCInst, label,
// assignment and symbol type in order, each tied to the line of the input it
// came from (a macro expansion to the line that invoked it).
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_MC_ASSEMBLERSTATE_H
#define STINKYTOFU_MC_ASSEMBLERSTATE_H

#include "stinkytofu/hw/TargetInfo.h"
#include "stinkytofu/ir/ModuleAssembler.h"
#include "stinkytofu/ir/PackedMCInsts.h"
#include "stinkytofu/mc/InputLimits.h"
#include "stinkytofu/mc/KnownStatements.h"
#include "stinkytofu/support/Diagnostics.h"
#include "llvm/ADT/IntrusiveRefCntPtr.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCInst.h"
#include "llvm/MC/MCObjectFileInfo.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/SourceMgr.h"
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace stinkytofu {

class IncludeGuardFileSystem;

/// One thing the assembler did, in order.
struct AsmEvent {
  enum class Kind : uint8_t {
    Instruction,  ///< the packed MC instruction at AssembledFile::Insts offset Inst
    Label,        ///< Symbol defined as a label
    Assignment,   ///< Symbol = Value (`.set`, `=`)
    FunctionType, ///< `.type Symbol,@function`
    Section,      ///< switched section; IsCode tells whether it holds code
    CodeWord,     ///< a 4-byte constant (`.long`) in a code section: Word
    CodeData,     ///< any other data or fill in a code section
  };
  static constexpr size_t NoOffset = ~size_t(0);
  Kind K;
  /// True when the event came out of a macro / .rept expansion.
  bool FromExpansion = false;
  bool IsCode = false;
  /// Expansions placed by the parser (ExpansionLines::FromParser): the
  /// 1-based line of the outermost invocation (0: unknown).
  unsigned Line = 0;
  /// Main-buffer instructions and labels: the byte offset where the
  /// mnemonic or label name is written. Expansions placed by the
  /// reconstruction: where the outermost invoking statement is written.
  /// NoOffset otherwise.
  size_t Offset = NoOffset;
  /// The byte offset of the token the parser stood at when it reported the
  /// event, when that lies in the main buffer (NoOffset otherwise). For a
  /// statement it is the first token after the statement's end of line, so
  /// the statement (a multi-line `/* */` comment included) ends on the line
  /// before; the file's size at its end.
  size_t NextOffset = NoOffset;
  PackedMCInsts::Offset Inst = 0;
  uint32_t Word = 0;
  /// Names live in the MCContext, which outlives the events.
  llvm::StringRef Symbol;
  const llvm::MCExpr *Value = nullptr;
};

/// How the events of a macro or `.rept` expansion learn the line of the
/// statement that invoked it.
enum class ExpansionLines : uint8_t {
  /// Worked out from the source buffers the parser opens for expansions
  /// (ExpansionLines.h): free, and when it cannot vouch for every expansion
  /// the file is parsed again FromParser.
  Reconstruct,
  /// Announced by the parser for every statement (GenDwarfForAssembly): sure,
  /// but a line-table lookup per statement.
  FromParser,
};

/// One `.set` (or `=`) as the parser met it: the value it gave the symbol
/// then, when absolute, and where the statements that see it start.
struct SymbolAssignment {
  llvm::StringRef Symbol;
  /// Byte offset in the main buffer of the first token after the
  /// assignment; NoOffset when it came out of a macro or `.rept` expansion.
  size_t NextOffset = AsmEvent::NoOffset;
  std::optional<int64_t> Value;
};

/// What assembling a buffer produced.
struct AssembledFile {
  std::vector<AsmEvent> Events;
  std::vector<SymbolAssignment> Assignments;
  PackedMCInsts Insts; ///< the instructions of AsmEvent::Inst
  /// Where the expansion lines in Events came from.
  ExpansionLines ExpansionLinesFrom = ExpansionLines::Reconstruct;
};

/// A diagnostic the assembler reported.
struct AsmDiagnostic {
  llvm::SMDiagnostic Diag;
  unsigned Line = 0;
};

class AssemblerState final : public ModuleAssembler {
public:
  explicit AssemblerState(std::shared_ptr<const TargetInfo> Target,
                          const InputLimits &Limits = {});
  ~AssemblerState() override;

  const TargetInfo &target() const { return *Target; }
  llvm::SourceMgr &sourceMgr() { return SrcMgr; }
  const llvm::SourceMgr &sourceMgr() const override { return SrcMgr; }
  llvm::MCContext &context() override { return *Ctx; }

  /// Adds \p Buffer and assembles it whole. Events are returned in order;
  /// diagnostics are collected in \p Diags (never printed here). The lines
  /// \p Known describes are not parsed (a text with macros or `.rept`, or
  /// that they do not fit, is parsed whole): their instructions' events
  /// follow the parser's, each on its own line.
  AssembledFile assembleFile(std::unique_ptr<llvm::MemoryBuffer> Buffer,
                             std::vector<AsmDiagnostic> &Diags,
                             ExpansionLines Lines = ExpansionLines::Reconstruct,
                             const KnownStatements *Known = nullptr);
  unsigned mainBufferId() const { return MainBuffer; }
  /// Receives what MC reports outside assembleFile and assembleStatements
  /// (which collect theirs); printDiagnostic until the reader sets its
  /// context's handler.
  void setDiagnosticHandler(DiagnosticHandler H) { Handler = std::move(H); }
  /// An `.include` the limits refused, rendered with its position: the
  /// parser saw a missing file there.
  const std::optional<std::string> &includeViolation() const;
  /// Whether assembleFile gives repeated statements the MCInst their text
  /// got (MemoizingTargetParser.h; on by default). Off, every statement is
  /// parsed: the tests compare the two.
  void setMemoizeStatements(bool On) { MemoizeStatements = On; }
  /// Whether assembleStatement keeps one parser for the plain instruction
  /// statements it assembles in a row (on by default). Off, each statement
  /// gets a parser of its own: the tests compare the two.
  void setKeepStatementParser(bool On);

  /// Assembles one statement in the context of the file already read (its
  /// `.set` symbols and labels are known). Used for instructions created by
  /// passes and for `.stir` input.
  llvm::Expected<llvm::SmallVector<llvm::MCInst, 1>>
  assembleStatement(llvm::StringRef Text) override;
  /// Assembles several statements (lines of \p Text) with one parser run in
  /// the context of the file already read; the first error fails them all.
  llvm::Expected<AssembledFile> assembleStatements(llvm::StringRef Text);

  /// Typed operands of a statement's operand text, with symbolic register
  /// indices resolved through this file's symbols.
  std::vector<Operand> parseOperands(llvm::StringRef Body) const override;

  /// The absolute value of symbol \p Name as finally assigned, if any.
  std::optional<int64_t> symbolValue(llvm::StringRef Name) const override;
  /// The value \p Name has for a statement at byte \p Offset of the main
  /// buffer: the last assignment before it, as MC evaluated it there (a
  /// symbol redefined later keeps its earlier value for earlier lines). The
  /// final value when the position is unknown or an assignment of the
  /// symbol came out of an expansion (its place in the file is not certain).
  std::optional<int64_t> symbolValueAt(llvm::StringRef Name, size_t Offset) const;
  bool isFileText(llvm::StringRef Text) const override;
  std::optional<int64_t> symbolValueFor(llvm::StringRef Name,
                                        llvm::StringRef Text) const override;
  llvm::ArrayRef<llvm::StringRef> reassignedSymbols() const override { return Reassigned; }

private:
  /// A fresh source manager and MC context, nothing assembled in them.
  void resetContext();
  /// The events of \p Known's instructions, after the parser's: each
  /// refers to its MC instruction, a branch's label operand to its symbol.
  void addKnownInstructions(const KnownStatements &Known, AssembledFile &Out);
  void addKnownInstruction(const KnownStatements::Instruction &I, const KnownStatements &Known,
                           PackedMCInsts::Offset Base, AssembledFile &Out);
  /// Keeps the values of the symbols the file assigns more than once.
  void recordHistory(llvm::ArrayRef<SymbolAssignment> Assignments);
  /// The byte offset of \p Text in the main buffer, or AsmEvent::NoOffset.
  size_t offsetOf(llvm::StringRef Text) const;
  /// Assembles one plain instruction statement with the kept parser.
  llvm::Expected<AssembledFile> assembleInstruction(llvm::StringRef Text);
  /// \p Lines: how to place expansions; none for a file without them.
  AssembledFile parseFile(std::unique_ptr<llvm::MemoryBuffer> Buffer,
                          std::vector<AsmDiagnostic> &Diags,
                          std::optional<ExpansionLines> Lines,
                          const KnownStatements *Known = nullptr);

  /// Per symbol assigned more than once, its values in file order; empty
  /// for a symbol with an assignment of unknown place.
  llvm::StringMap<std::vector<SymbolAssignment>> History;
  /// The names of History, in the order first assigned.
  std::vector<llvm::StringRef> Reassigned;
  std::shared_ptr<const TargetInfo> Target;
  llvm::SourceMgr SrcMgr;
  std::unique_ptr<llvm::MCContext> Ctx;
  std::unique_ptr<llvm::MCObjectFileInfo> MOFI;
  InputLimits Limits;
  DiagnosticHandler Handler = printDiagnostic;
  llvm::IntrusiveRefCntPtr<IncludeGuardFileSystem> Includes;
  unsigned MainBuffer = 0;
  bool MemoizeStatements = true;
  bool KeepStatementParser = true;
  struct StatementParser;
  /// The parser assembleInstruction keeps for the plain instruction
  /// statements it assembles in a row: building a parser costs a hundred
  /// times parsing one instruction. Such a statement changes no parser state
  /// the next one reads (the AMDGPU parser resets its forced encoding at
  /// each mnemonic; the lexer ends each buffer at the start of a statement);
  /// of the context it changes only the register count symbols, which a new
  /// parser would set to 0 first and so does StatementParser::moveTo.
  /// Whatever else parses in this context drops it. Declared last, it goes
  /// before the context and the source manager it uses.
  std::unique_ptr<StatementParser> Kept;
};

} // namespace stinkytofu

#endif
