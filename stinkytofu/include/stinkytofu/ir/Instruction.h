//===- Instruction.h - One assembly statement of the Asm IR ------*- C++ -*-===//
#ifndef STINKYTOFU_IR_INSTRUCTION_H
#define STINKYTOFU_IR_INSTRUCTION_H

#include "stinkytofu/hw/InstrFacts.h"
#include "stinkytofu/ir/Modifier.h"
#include "stinkytofu/ir/Operand.h"
#include "stinkytofu/ir/PackedMCInsts.h"
#include "stinkytofu/ir/SourceLocation.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/MC/MCInst.h"
#include <memory>
#include <optional>
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
  Instruction(Instruction &&) noexcept;
  Instruction &operator=(Instruction &&) noexcept;
  ~Instruction();

  InstKind kind() const { return Kind; }
  /// Lower-case mnemonic (`s_getpc_b64`), or the macro name of a MacroCall.
  llvm::StringRef mnemonic() const {
    materializeStatement();
    return Extra ? llvm::StringRef(Extra->Mnemonic) : llvm::StringRef();
  }
  const std::vector<Operand> &operands() const {
    materializeStatement();
    if (Lazy)
      materializeOperands();
    return Extra ? Extra->Operands : NoOperands;
  }
  const Operand &operand(unsigned I) const { return operands()[I]; }
  unsigned numOperands() const { return operands().size(); }
  /// Sets the statement's source text (newline included) and defers
  /// splitting it (mnemonic, operands, comment) and parsing its operands
  /// with \p Source until first asked for: reading a file costs nothing for
  /// statements nobody looks at.
  void setLazyStatement(llvm::StringRef Statement, const OperandSource *Source) {
    this->Source = Statement;
    Unsplit = true;
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
    if (!Extra)
      return {};
    return Extra->Spelling.empty() ? llvm::StringRef(Extra->Mnemonic)
                                   : llvm::StringRef(Extra->Spelling);
  }
  void setMnemonicSpelling(std::string S) {
    materializeStatement();
    extra().Spelling = std::move(S);
  }
  /// The trailing comment as written (`// c`, `; note`), kept on rewrite.
  llvm::StringRef trailingComment() const {
    materializeStatement();
    return Extra ? llvm::StringRef(Extra->Comment) : llvm::StringRef();
  }
  void setTrailingComment(std::string C) {
    materializeStatement();
    extra().Comment = std::move(C);
  }
  SourceLocation location() const { return Loc; }
  void setLocation(SourceLocation L) { Loc = L; }

  // --- ISA facts (from LLVM MC) ------------------------------------------
  const InstrFacts &facts() const {
    if (FactsTarget) {
      extra().Facts = InstrFacts::compose(*FactsTarget, mcInsts());
      FactsTarget = nullptr;
    }
    return Extra && Extra->Facts ? *Extra->Facts : NoFacts;
  }
  llvm::ArrayRef<llvm::MCInst> mcInsts() const {
    if (Packed)
      unpackMC();
    return Extra ? llvm::ArrayRef(Extra->OwnedMC) : llvm::ArrayRef<llvm::MCInst>();
  }
  void setMC(llvm::SmallVector<llvm::MCInst, 1> Insts, InstrFacts F) {
    ownMC(std::move(Insts));
    extra().Facts = std::move(F);
    FactsTarget = nullptr;
  }
  /// Sets the MC instructions; their facts are computed on first use.
  void setMC(llvm::SmallVector<llvm::MCInst, 1> Insts, const TargetInfo &TI) {
    ownMC(std::move(Insts));
    FactsTarget = &TI;
  }
  /// Refers to \p Count packed MC instructions from \p First in \p Store
  /// instead of holding them: a statement read from a file, whose MC
  /// instructions the module keeps (Module::adoptSourceMC) for as long as it
  /// lives. They are unpacked, and their facts computed, on first use.
  void referMC(const PackedMCInsts &Store, PackedMCInsts::Offset First, unsigned Count,
               const TargetInfo &TI) {
    if (Extra)
      Extra->OwnedMC.clear();
    Packed = Store.record(First);
    NumPacked = Count;
    FactsTarget = &TI;
  }
  /// Cycle overrides from `.stir` (0: use the hardware model's default).
  unsigned issueCyclesOverride() const { return Extra ? Extra->IssueCycles : 0; }
  unsigned latencyCyclesOverride() const { return Extra ? Extra->LatencyCycles : 0; }
  void setCycleOverrides(unsigned Issue, unsigned Latency) {
    extra().IssueCycles = Issue;
    extra().LatencyCycles = Latency;
  }

  // --- Modifiers ----------------------------------------------------------
  const std::vector<std::unique_ptr<Modifier>> &modifiers() const {
    return Extra ? Extra->Mods : NoModifiers;
  }
  template <typename T> const T *getModifier() const {
    for (const auto &M : modifiers())
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
  /// What an instruction read from a file seldom needs, out of line so that
  /// the instructions of a large kernel stay small (under half the size
  /// with all of it inline): the statement's words (lower-case mnemonic, the
  /// spelling when it differs, the trailing comment), its operands, its own
  /// or unpacked MC instructions, its facts once computed, cycle overrides
  /// and modifiers.
  struct Details {
    std::string Mnemonic, Spelling, Comment;
    std::vector<Operand> Operands;
    llvm::StringRef OperandText; ///< to parse on first use (Lazy)
    llvm::SmallVector<llvm::MCInst, 1> OwnedMC; ///< its own, or unpacked
    std::optional<InstrFacts> Facts;
    unsigned IssueCycles = 0, LatencyCycles = 0;
    std::vector<std::unique_ptr<Modifier>> Mods;
  };
  Details &extra() const {
    if (!Extra)
      Extra = std::make_unique<Details>();
    return *Extra;
  }
  void materializeOperands() const;
  void materializeStatement() const {
    if (Unsplit)
      splitStatement();
  }
  void splitStatement() const;
  void ownMC(llvm::SmallVector<llvm::MCInst, 1> Insts) {
    extra().OwnedMC = std::move(Insts);
    Packed = nullptr;
    NumPacked = 0;
  }
  void unpackMC() const;

  static const InstrFacts NoFacts;
  static const std::vector<Operand> NoOperands;
  static const std::vector<std::unique_ptr<Modifier>> NoModifiers;

  InstKind Kind;
  bool Modified = false;
  mutable bool Unsplit = false; ///< Source not yet split into words
  mutable unsigned NumPacked = 0;
  llvm::StringRef Leading, Source;
  SourceLocation Loc;
  /// The module's packed MC instructions (referMC), until unpacked.
  mutable const uint64_t *Packed = nullptr;
  /// Parses the operand text on first use; null once parsed.
  mutable const OperandSource *Lazy = nullptr;
  /// Set until the facts are computed on first use.
  mutable const TargetInfo *FactsTarget = nullptr;
  mutable std::unique_ptr<Details> Extra;
  BasicBlock *Parent = nullptr;
};

} // namespace stinkytofu

#endif
