//===- Instruction.h - One assembly statement of the Asm IR ------*- C++ -*-===//
#ifndef STINKYTOFU_IR_INSTRUCTION_H
#define STINKYTOFU_IR_INSTRUCTION_H

#include "stinkytofu/hw/InstrFacts.h"
#include "stinkytofu/ir/Modifier.h"
#include "stinkytofu/ir/Operand.h"
#include "stinkytofu/ir/SourceLocation.h"
#include "stinkytofu/support/HeapValue.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/MC/MCInst.h"
#include <memory>
#include <string>
#include <vector>

namespace stinkytofu {

class BasicBlock;

/// Turns an operand text into typed operands on first use, so reading a file
/// costs nothing for operands nobody looks at (the reader implements it).
class OperandSource {
public:
  virtual ~OperandSource();
  virtual std::vector<Operand> parseOperands(llvm::StringRef Body) const = 0;
};

enum class InstKind : uint8_t {
  Machine,   ///< one MC instruction
  MacroCall, ///< a .macro invocation (or .rept): the MC instructions it expands to
  Opaque,    ///< not understood by MC; kept by --allow-unknown-instructions
  /// A registered pseudo-instruction (parse/PseudoInstructions.h), such as
  /// `sqtt_marker_enter "name"`: no MC instruction; the pass that registered
  /// it lowers it, and writing assembly that still holds one is an error.
  Pseudo,
};

class Instruction {
public:
  Instruction(InstKind Kind, std::string Mnemonic, std::vector<Operand> Operands);

  InstKind kind() const { return Kind; }
  /// Lower-case mnemonic (`s_getpc_b64`), or the macro name of a MacroCall.
  llvm::StringRef mnemonic() const {
    materializeStatement();
    return spelled().Mnemonic;
  }
  const std::vector<Operand> &operands() const {
    materializeStatement();
    if (Lazy)
      materializeOperands();
    return Operands;
  }
  const Operand &operand(unsigned I) const { return operands()[I]; }
  unsigned numOperands() const { return operands().size(); }
  /// Defers parsing of \p Body until the operands are first asked for.
  void setLazyOperands(llvm::StringRef Body, const OperandSource *Source) {
    LazyBody = Body;
    Lazy = Source;
  }
  /// Defers splitting the source statement (mnemonic, operands, comment)
  /// until first asked for: reading a file costs nothing for statements
  /// nobody looks at.
  void setLazyStatement(llvm::StringRef Statement, const OperandSource *Source) {
    LazyStatement = Statement;
    Lazy = Source;
  }

  /// Replaces the operands; the instruction then prints from its operands.
  void setOperands(std::vector<Operand> NewOperands);

  // --- Source text ---------------------------------------------------------
  /// Verbatim lines (comments, directives, blank lines) that precede it.
  llvm::StringRef leadingText() const { return Leading; }
  void setLeadingText(llvm::StringRef Text) { Leading = Text; }
  /// The statement's own source text, newline included; empty when the
  /// instruction was created by a pass.
  llvm::StringRef sourceText() const { return Source; }
  void setSourceText(llvm::StringRef Text) { Source = Text; }
  /// True when the instruction must be printed from its operands.
  bool isModified() const { return Modified || Source.empty(); }
  /// The mnemonic exactly as written (`s_getpc_B64`).
  llvm::StringRef mnemonicSpelling() const {
    materializeStatement();
    const SpelledStatement &S = spelled();
    return S.Spelling.empty() ? llvm::StringRef(S.Mnemonic) : llvm::StringRef(S.Spelling);
  }
  void setMnemonicSpelling(std::string S) {
    materializeStatement();
    Spelled.get().Spelling = std::move(S);
  }
  /// The trailing comment as written (`// c`, `; note`), kept on rewrite.
  llvm::StringRef trailingComment() const {
    materializeStatement();
    return spelled().Comment;
  }
  void setTrailingComment(std::string C) {
    materializeStatement();
    Spelled.get().Comment = std::move(C);
  }
  SourceLocation location() const { return Loc; }
  void setLocation(SourceLocation L) { Loc = L; }

  // --- ISA facts (from LLVM MC) ------------------------------------------
  const InstrFacts &facts() const {
    if (FactsTarget) {
      Facts.get() = InstrFacts::compose(*FactsTarget, mcInsts());
      FactsTarget = nullptr;
    }
    return Facts.getOr(NoFacts);
  }
  llvm::ArrayRef<llvm::MCInst> mcInsts() const {
    return SharedMC ? llvm::ArrayRef(SharedMC, NumSharedMC) : llvm::ArrayRef(OwnedMC);
  }
  void setMC(llvm::SmallVector<llvm::MCInst, 1> Insts, InstrFacts F) {
    ownMC(std::move(Insts));
    Facts.get() = std::move(F);
    FactsTarget = nullptr;
  }
  /// Sets the MC instructions; their facts are computed on first use.
  void setMC(llvm::SmallVector<llvm::MCInst, 1> Insts, const TargetInfo &TI) {
    ownMC(std::move(Insts));
    FactsTarget = &TI;
  }
  /// Refers to \p Insts instead of holding a copy: a statement read from a
  /// file, whose MC instructions the module keeps (Module::adoptSourceMC)
  /// for as long as it lives. Their facts are computed on first use.
  void referMC(llvm::ArrayRef<llvm::MCInst> Insts, const TargetInfo &TI) {
    OwnedMC.clear();
    SharedMC = Insts.data();
    NumSharedMC = unsigned(Insts.size());
    FactsTarget = &TI;
  }
  /// Cycle overrides from `.stir` (0: use the hardware model's default).
  unsigned issueCyclesOverride() const { return IssueCycles; }
  unsigned latencyCyclesOverride() const { return LatencyCycles; }
  void setCycleOverrides(unsigned Issue, unsigned Latency) {
    IssueCycles = Issue;
    LatencyCycles = Latency;
  }

  // --- Modifiers ----------------------------------------------------------
  const std::vector<std::unique_ptr<Modifier>> &modifiers() const { return Mods; }
  template <typename T> const T *getModifier() const {
    for (const auto &M : Mods)
      if (const T *Found = dyn_cast_modifier<T>(M.get()))
        return Found;
    return nullptr;
  }
  /// Adds \p M, replacing a modifier of the same kind.
  void setModifier(std::unique_ptr<Modifier> M);
  void removeModifier(ModifierKind K);

  BasicBlock *parent() const { return Parent; }
  void setParent(BasicBlock *BB) { Parent = BB; }

private:
  InstKind Kind;
  bool Modified = false;
  unsigned IssueCycles = 0, LatencyCycles = 0;
  /// The statement's words: lower-case mnemonic, the spelling when it
  /// differs, the trailing comment. Out of line: most instructions read from
  /// a file never have them spelled out.
  struct SpelledStatement {
    std::string Mnemonic, Spelling, Comment;
  };
  const SpelledStatement &spelled() const {
    static const SpelledStatement None;
    return Spelled.getOr(None);
  }
  mutable HeapValue<SpelledStatement> Spelled;
  mutable std::vector<Operand> Operands;
  mutable const OperandSource *Lazy = nullptr;
  mutable llvm::StringRef LazyBody, LazyStatement;
  void materializeOperands() const;
  void materializeStatement() const {
    if (!LazyStatement.empty())
      splitLazyStatement();
  }
  void splitLazyStatement() const;
  llvm::StringRef Leading, Source;
  SourceLocation Loc;
  void ownMC(llvm::SmallVector<llvm::MCInst, 1> Insts) {
    OwnedMC.assign(std::make_move_iterator(Insts.begin()),
                   std::make_move_iterator(Insts.end()));
    SharedMC = nullptr;
    NumSharedMC = 0;
  }
  /// The MC instructions: its own, or (SharedMC) a view of the module's.
  llvm::SmallVector<llvm::MCInst, 0> OwnedMC;
  const llvm::MCInst *SharedMC = nullptr;
  unsigned NumSharedMC = 0;
  static const InstrFacts NoFacts;
  mutable HeapValue<InstrFacts> Facts; // computed on first use, out of line
  mutable const TargetInfo *FactsTarget = nullptr;
  std::vector<std::unique_ptr<Modifier>> Mods;
  BasicBlock *Parent = nullptr;
};

} // namespace stinkytofu

#endif
