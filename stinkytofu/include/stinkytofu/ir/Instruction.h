//===- Instruction.h - One assembly statement of the Asm IR ------*- C++ -*-===//
#ifndef STINKYTOFU_IR_INSTRUCTION_H
#define STINKYTOFU_IR_INSTRUCTION_H

#include "stinkytofu/hw/InstrFacts.h"
#include "stinkytofu/ir/Modifier.h"
#include "stinkytofu/ir/Operand.h"
#include "stinkytofu/ir/SourceLocation.h"
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
    return Mnemonic;
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
    return Spelling.empty() ? llvm::StringRef(Mnemonic) : llvm::StringRef(Spelling);
  }
  void setMnemonicSpelling(std::string S) { Spelling = std::move(S); }
  /// The trailing comment as written (`// c`, `; note`), kept on rewrite.
  llvm::StringRef trailingComment() const {
    materializeStatement();
    return Comment;
  }
  void setTrailingComment(std::string C) { Comment = std::move(C); }
  SourceLocation location() const { return Loc; }
  void setLocation(SourceLocation L) { Loc = L; }

  // --- ISA facts (from LLVM MC) ------------------------------------------
  const InstrFacts &facts() const {
    if (FactsTarget) {
      Facts = InstrFacts::compose(*FactsTarget, MCInsts);
      FactsTarget = nullptr;
    }
    return Facts;
  }
  llvm::ArrayRef<llvm::MCInst> mcInsts() const { return MCInsts; }
  void setMC(llvm::SmallVector<llvm::MCInst, 1> Insts, InstrFacts F) {
    MCInsts = std::move(Insts);
    Facts = std::move(F);
    FactsTarget = nullptr;
  }
  /// Sets the MC instructions; their facts are computed on first use.
  void setMC(llvm::SmallVector<llvm::MCInst, 1> Insts, const TargetInfo &TI) {
    MCInsts = std::move(Insts);
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
  mutable std::string Mnemonic, Spelling, Comment;
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
  llvm::SmallVector<llvm::MCInst, 1> MCInsts;
  mutable InstrFacts Facts;
  mutable const TargetInfo *FactsTarget = nullptr;
  std::vector<std::unique_ptr<Modifier>> Mods;
  BasicBlock *Parent = nullptr;
};

} // namespace stinkytofu

#endif
