//===- Instruction.h - One assembly statement of the Asm IR ------*- C++ -*-===//
#ifndef STINKYTOFU_IR_INSTRUCTION_H
#define STINKYTOFU_IR_INSTRUCTION_H

#include "stinkytofu/hw/InstrFacts.h"
#include "stinkytofu/ir/BlockItem.h"
#include "stinkytofu/ir/Modifier.h"
#include "stinkytofu/ir/Operand.h"
#include "stinkytofu/ir/PackedMCInsts.h"
#include "stinkytofu/ir/SourceLocation.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/iterator.h"
#include "llvm/MC/MCInst.h"
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace stinkytofu {

class BasicBlock;
template <bool IsConst> class InstructionIteratorImpl;

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
  /// A registered pseudo-instruction (ir/PseudoInstructions.h), such as
  /// `sqtt_marker_enter "name"`: no MC instruction; the pass that registered
  /// it lowers it, and writing assembly that still holds one is an error.
  Pseudo,
};

class Instruction : public BlockItem {
public:
  Instruction(InstKind Kind, std::string Mnemonic, std::vector<Operand> Operands);
  Instruction(Instruction &&) noexcept;
  Instruction &operator=(Instruction &&) noexcept;
  ~Instruction();

  static bool classof(const BlockItem *Item) {
    return Item->itemKind() == ItemKind::Instruction;
  }

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
    restamp();
    this->Source = Statement;
    Unsplit = true;
    Lazy = Source;
  }

  /// Replaces the operands; the instruction then prints from its operands.
  /// Its MC instructions and facts no longer describe it, so they are
  /// dropped and it counts as stale until new ones are set (setMC): edit
  /// through InstBuilder::setOperands / rewrite (mc/InstBuilder.h), which
  /// re-derive both. The verifier reports a stale instruction.
  void setOperands(std::vector<Operand> NewOperands);
  /// True after setOperands until setMC.
  bool hasStaleMC() const { return StaleMC; }

  // --- Source text ---------------------------------------------------------
  // leadingText() (BlockItem): the comments and blank lines before it.
  /// The statement's own source text, newline included; empty when the
  /// instruction was created by a pass.
  llvm::StringRef sourceText() const { return Source; }
  void setSourceText(llvm::StringRef Text) {
    restamp();
    Source = Text;
  }
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
    restamp();
    materializeStatement();
    extra().Spelling = std::move(S);
  }
  /// The trailing comment as written (`// c`, `; note`), kept on rewrite.
  llvm::StringRef trailingComment() const {
    materializeStatement();
    return Extra ? llvm::StringRef(Extra->Comment) : llvm::StringRef();
  }
  void setTrailingComment(std::string C) {
    restamp();
    materializeStatement();
    extra().Comment = std::move(C);
  }
  SourceLocation location() const { return Loc; }
  void setLocation(SourceLocation L) {
    restamp();
    Loc = L;
  }

  // --- ISA facts (from LLVM MC) ------------------------------------------
  const InstrFacts &facts() const {
    if (FactsTarget)
      computeFacts();
    return Extra && Extra->Facts ? *Extra->Facts : NoFacts;
  }
  llvm::ArrayRef<llvm::MCInst> mcInsts() const {
    if (Packed)
      unpackMC();
    return Extra ? llvm::ArrayRef(Extra->OwnedMC) : llvm::ArrayRef<llvm::MCInst>();
  }
  void setMC(llvm::SmallVector<llvm::MCInst, 1> Insts, InstrFacts F) {
    restamp();
    bool Control = shapesValidCFG();
    ownMC(std::move(Insts));
    extra().Facts = std::move(F);
    FactsTarget = nullptr;
    StaleMC = false;
    invalidateCFGIf(Control);
  }
  /// Sets the MC instructions; their facts are computed on first use.
  void setMC(llvm::SmallVector<llvm::MCInst, 1> Insts, const TargetInfo &TI) {
    restamp();
    bool Control = shapesValidCFG();
    ownMC(std::move(Insts));
    FactsTarget = &TI;
    StaleMC = false;
    invalidateCFGIf(Control);
  }
  /// Refers to \p Count packed MC instructions from \p First in \p Store
  /// instead of holding them: a statement read from a file, whose MC
  /// instructions the module keeps (Module::adoptSourceMC) for as long as it
  /// lives. They are unpacked, and their facts computed, on first use.
  void referMC(const PackedMCInsts &Store, PackedMCInsts::Offset First, unsigned Count,
               const TargetInfo &TI) {
    restamp();
    if (Extra && !Extra->OwnedMC.empty())
      extra().OwnedMC.clear();
    Packed = Store.record(First);
    NumPacked = Count;
    FactsTarget = &TI;
  }
  /// Cycle overrides from `.stir` (0: use the hardware model's default).
  unsigned issueCyclesOverride() const { return Extra ? Extra->IssueCycles : 0; }
  unsigned latencyCyclesOverride() const { return Extra ? Extra->LatencyCycles : 0; }
  void setCycleOverrides(unsigned Issue, unsigned Latency) {
    restamp();
    extra().IssueCycles = Issue;
    extra().LatencyCycles = Latency;
  }

  // --- Edit stamp -------------------------------------------------------------
  /// Names this instruction as it is now, unique in the process: a new
  /// instruction (a clone too) takes a new stamp, and so does every change
  /// of what it holds (statement text, words, operands, MC instructions and
  /// facts, location, cycle overrides, modifiers); its place in a block and
  /// its leading comments are not part of it. What is computed from an
  /// instruction alone can be kept under its stamp and stays valid across
  /// passes and analysis managers, even when the memory of an erased
  /// instruction is reused.
  uint64_t stamp() const { return Stamp; }

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

  // --- Place in the block --------------------------------------------------
  /// Where the instruction is among its block's instructions (directives
  /// skipped); converts to the position of the item itself for insertion.
  InstructionIteratorImpl<false> getIterator();
  InstructionIteratorImpl<true> getIterator() const;
  /// Unlinks the instruction, with its leading comments, and hands it over.
  std::unique_ptr<Instruction> removeFromParent();
  /// Moves the instruction, with its leading comments, right before \p Pos
  /// (after the directives in front of \p Pos), or right after \p Pos.
  /// Directives never move along: a `.set` keeps its place, so every operand
  /// after it keeps its meaning.
  void moveBefore(Instruction &Pos);
  void moveAfter(Instruction &Pos);
  /// A copy in no block: kind, statement text, operands, MC instructions,
  /// facts, cycle overrides and modifiers (not the private ones: Modifier.h),
  /// without the leading comments and the source location, which belong to
  /// the original's place in the file.
  /// The copy shares the original's details until either changes them, so
  /// stamping out the same instruction many times (inserted code) costs one
  /// record, not one per copy.
  Instruction clone() const;

private:
  Instruction(const Instruction &Other);

  /// What an instruction read from a file seldom needs, out of line so that
  /// the instructions of a large kernel stay small (under half the size
  /// with all of it inline): the statement's words (lower-case mnemonic, the
  /// spelling when it differs, the trailing comment), its operands, its own
  /// or unpacked MC instructions, its facts once computed, cycle overrides
  /// and modifiers.
  struct Details {
    Details() = default;
    /// Modifiers are cloned: each record owns its own.
    Details(const Details &Other);
    std::string Mnemonic, Spelling, Comment;
    std::vector<Operand> Operands;
    llvm::StringRef OperandText; ///< to parse on first use (Lazy)
    /// Its own MC instructions, or unpacked ones (mcInsts()). Not inline:
    /// an instruction read from a file refers to the module's packed ones
    /// and computes its facts without keeping an unpacked copy.
    llvm::SmallVector<llvm::MCInst, 0> OwnedMC;
    std::optional<InstrFacts> Facts;
    unsigned IssueCycles = 0, LatencyCycles = 0;
    std::vector<std::unique_ptr<Modifier>> Mods;
  };
  /// The details to change: created on first use, and copied first when
  /// shared with a clone (copy on write).
  Details &extra() const {
    if (!Extra)
      Extra = std::make_shared<Details>();
    else if (Extra.use_count() > 1)
      Extra = std::make_shared<Details>(*Extra);
    return *Extra;
  }
  /// True when this instruction transfers control and its function's CFG
  /// is valid: editing it can change an edge (Function::hasValidCFG).
  bool shapesValidCFG() const;
  /// Clears the function's CFG when the instruction shaped it before an
  /// edit (\p WasControl) or does after it.
  void invalidateCFGIf(bool WasControl);
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
  void computeFacts() const;
  /// Takes a new stamp (before any change of what stamp() names).
  void restamp() { Stamp = newStamp(); }
  static uint64_t newStamp();

  static const InstrFacts NoFacts;
  static const std::vector<Operand> NoOperands;
  static const std::vector<std::unique_ptr<Modifier>> NoModifiers;

  InstKind Kind;
  bool Modified = false;
  bool StaleMC = false;
  mutable bool Unsplit = false; ///< Source not yet split into words
  mutable unsigned NumPacked = 0;
  llvm::StringRef Source;
  SourceLocation Loc;
  /// The module's packed MC instructions (referMC), until unpacked.
  mutable const uint64_t *Packed = nullptr;
  /// Parses the operand text on first use; null once parsed.
  mutable const OperandSource *Lazy = nullptr;
  /// Set until the facts are computed on first use.
  mutable const TargetInfo *FactsTarget = nullptr;
  /// Shared with clones until one of them changes it (extra()).
  mutable std::shared_ptr<Details> Extra;
  uint64_t Stamp = newStamp();
};

/// Walks the instructions of a block, stepping over its directives.
template <bool IsConst>
class InstructionIteratorImpl
    : public llvm::iterator_facade_base<InstructionIteratorImpl<IsConst>,
                                        std::bidirectional_iterator_tag,
                                        std::conditional_t<IsConst, const Instruction, Instruction>> {
public:
  using ItemIterator =
      std::conditional_t<IsConst, ItemList::const_iterator, ItemList::iterator>;
  using InstructionT = std::conditional_t<IsConst, const Instruction, Instruction>;

  InstructionIteratorImpl() = default;
  /// The first instruction at or after \p It.
  explicit InstructionIteratorImpl(ItemIterator It) : It(It) { skipDirectives(); }
  /// A mutable iterator is also a constant one.
  template <bool WasConst, typename = std::enable_if_t<IsConst && !WasConst>>
  InstructionIteratorImpl(const InstructionIteratorImpl<WasConst> &Other)
      : It(Other.itemIterator()) {}

  /// The item position, for inserting before this instruction; the
  /// insertion methods take it converted.
  ItemIterator itemIterator() const { return It; }
  operator ItemList::const_iterator() const { return It; }

  // The postfix forms come from the facade.
  using InstructionIteratorImpl::iterator_facade_base::operator++;
  using InstructionIteratorImpl::iterator_facade_base::operator--;

  InstructionT &operator*() const { return llvm::cast<Instruction>(*It); }
  bool operator==(const InstructionIteratorImpl &Other) const { return It == Other.It; }
  InstructionIteratorImpl &operator++() {
    ++It;
    skipDirectives();
    return *this;
  }
  /// Stepping back from the first instruction is undefined, as for a list.
  InstructionIteratorImpl &operator--() {
    do
      --It;
    while (!llvm::isa<Instruction>(*It));
    return *this;
  }

private:
  void skipDirectives() {
    while (!It.isEnd() && !llvm::isa<Instruction>(*It))
      ++It;
  }
  ItemIterator It;
};

inline InstructionIteratorImpl<false> Instruction::getIterator() {
  return InstructionIteratorImpl<false>(ItemList::iterator(*this));
}
inline InstructionIteratorImpl<true> Instruction::getIterator() const {
  return InstructionIteratorImpl<true>(ItemList::const_iterator(*this));
}

} // namespace stinkytofu

#endif
