//===- Instruction.cpp - One assembly statement of the Asm IR -------------===//
#include "stinkytofu/ir/Instruction.h"
#include "stinkytofu/ir/BranchVocabulary.h"
#include "stinkytofu/ir/Function.h"
#include "stinkytofu/ir/StatementText.h"
#include <atomic>

namespace stinkytofu {

const InstrFacts Instruction::NoFacts;
const std::vector<Operand> Instruction::NoOperands;
const std::vector<std::unique_ptr<Modifier>> Instruction::NoModifiers;

Instruction::Instruction(InstKind Kind, std::string Mnemonic,
                         std::vector<Operand> Operands)
    : BlockItem(ItemKind::Instruction), Kind(Kind) {
  if (!Mnemonic.empty())
    extra().Mnemonic = std::move(Mnemonic);
  if (!Operands.empty())
    extra().Operands = std::move(Operands);
}

Instruction::Instruction(const Instruction &Other)
    : BlockItem(Other), Kind(Other.Kind), Modified(Other.Modified), StaleMC(Other.StaleMC),
      Source(Other.Source) {
  // Whatever the original still holds lazily (words, operands, packed MC
  // instructions, facts) is made explicit first, so that the copy depends on
  // nothing the original refers to and never fills the shared record.
  (void)Other.operands();
  (void)Other.mcInsts();
  (void)Other.facts();
  Extra = Other.Extra;
}

Instruction::Details::Details(const Details &Other)
    : Mnemonic(Other.Mnemonic), Spelling(Other.Spelling), Comment(Other.Comment),
      Operands(Other.Operands), OperandText(Other.OperandText), OwnedMC(Other.OwnedMC),
      Facts(Other.Facts), IssueCycles(Other.IssueCycles), LatencyCycles(Other.LatencyCycles) {
  for (const std::unique_ptr<Modifier> &M : Other.Mods)
    Mods.push_back(M->clone());
}

Instruction Instruction::clone() const {
  Instruction Copy(*this);
  Copy.setLeadingText("");
  // Private modifiers are a pass's note about this very instruction (the
  // s_set_vgpr_msb statements raised off it, say): a copy that carried them
  // would have them acted on twice, so it starts without.
  auto IsPrivate = [](const std::unique_ptr<Modifier> &M) { return M->isPrivate(); };
  if (Extra && llvm::any_of(Extra->Mods, IsPrivate))
    std::erase_if(Copy.extra().Mods, IsPrivate);
  return Copy;
}

std::unique_ptr<Instruction> Instruction::removeFromParent() {
  parent()->unlink(*this);
  return std::unique_ptr<Instruction>(this);
}

void Instruction::moveBefore(Instruction &Pos) {
  if (&Pos == this)
    return;
  BasicBlock &Into = *Pos.parent();
  Into.insert(ItemList::const_iterator(Pos), removeFromParent());
}

void Instruction::moveAfter(Instruction &Pos) {
  if (&Pos == this)
    return;
  // Unlink first: when this instruction follows Pos, the position after Pos
  // is this instruction itself until it is removed.
  std::unique_ptr<Instruction> Self = removeFromParent();
  BasicBlock &Into = *Pos.parent();
  Into.insert(std::next(ItemList::const_iterator(Pos)), std::move(Self));
}

uint64_t Instruction::newStamp() {
  // Relaxed: a stamp only has to differ from every other one, whichever
  // thread takes it.
  static std::atomic<uint64_t> Next{1};
  return Next.fetch_add(1, std::memory_order_relaxed);
}

// Both sides of a move take new stamps: the moved-from instruction is left
// emptied, the other holds what another stamp named.
Instruction::Instruction(Instruction &&Other) noexcept
    : BlockItem(std::move(Other)), Kind(Other.Kind), Modified(Other.Modified),
      StaleMC(Other.StaleMC), Unsplit(Other.Unsplit), NumPacked(Other.NumPacked),
      Source(Other.Source), Loc(Other.Loc), Packed(Other.Packed), Lazy(Other.Lazy),
      FactsTarget(Other.FactsTarget), Extra(std::move(Other.Extra)) {
  Other.restamp();
}

Instruction &Instruction::operator=(Instruction &&Other) noexcept {
  BlockItem::operator=(std::move(Other));
  Kind = Other.Kind;
  Modified = Other.Modified;
  StaleMC = Other.StaleMC;
  Unsplit = Other.Unsplit;
  NumPacked = Other.NumPacked;
  Source = Other.Source;
  Loc = Other.Loc;
  Packed = Other.Packed;
  Lazy = Other.Lazy;
  FactsTarget = Other.FactsTarget;
  Extra = std::move(Other.Extra);
  restamp();
  Other.restamp();
  return *this;
}
Instruction::~Instruction() = default;

OperandSource::~OperandSource() = default;

void Instruction::splitStatement() const {
  // Every instruction read is split: a loop, not rtrim's table per call.
  llvm::StringRef Line = Source;
  while (!Line.empty() && (Line.back() == '\n' || Line.back() == '\r'))
    Line = Line.drop_back();
  Statement S = stinkytofu::splitStatement(Line);
  Unsplit = false;
  Details &Words = extra();
  // Mnemonics are nearly always written in lower case: copied as they are.
  if (llvm::any_of(S.Mnemonic, [](char C) { return C >= 'A' && C <= 'Z'; })) {
    Words.Mnemonic = S.Mnemonic.lower();
    Words.Spelling = S.Mnemonic.str();
  } else {
    Words.Mnemonic = S.Mnemonic.str();
  }
  Words.Comment = S.Comment.str();
  Words.OperandText = S.Body;
}

void Instruction::materializeOperands() const {
  Details &D = extra();
  D.Operands = Lazy->parseOperands(D.OperandText);
  Lazy = nullptr;
}

void Instruction::computeFacts() const {
  const TargetInfo &TI = *FactsTarget;
  FactsTarget = nullptr;
  // Packed MC instructions are unpacked for the facts only: most are never
  // asked for again.
  if (Packed)
    extra().Facts = InstrFacts::compose(TI, PackedMCInsts::unpack(Packed, NumPacked));
  else
    extra().Facts = InstrFacts::compose(TI, mcInsts());
}

void Instruction::unpackMC() const {
  extra().OwnedMC = PackedMCInsts::unpack(Packed, NumPacked);
  Packed = nullptr;
  NumPacked = 0;
}

bool Instruction::shapesValidCFG() const {
  const BasicBlock *BB = parent();
  return BB && BB->parent() && BB->parent()->hasValidCFG() && endsBlock(*this);
}

void Instruction::invalidateCFGIf(bool WasControl) {
  if (WasControl || shapesValidCFG())
    parent()->parent()->invalidateCFG();
}

void Instruction::setOperands(std::vector<Operand> NewOperands) {
  restamp();
  invalidateCFGIf(shapesValidCFG());
  materializeStatement();
  Lazy = nullptr;
  extra().Operands = std::move(NewOperands);
  Modified = true;
  ownMC({});
  extra().Facts.reset();
  FactsTarget = nullptr;
  StaleMC = true;
}

void Instruction::setModifier(std::unique_ptr<Modifier> M) {
  restamp();
  removeModifier(M->kind()); // clears the CFG when targets may change
  // Kept in registration order, so that they print in one order.
  auto &Mods = extra().Mods;
  auto At = llvm::find_if(Mods, [&](const std::unique_ptr<Modifier> &Old) {
    return Old->kind() > M->kind();
  });
  Mods.insert(At, std::move(M));
}

void Instruction::removeModifier(ModifierKind K) {
  restamp();
  // Branch and call targets (LabelData, CallTargetData) are edges; a
  // private modifier never is.
  if (!Modifier::isPrivateKind(K))
    invalidateCFGIf(false);
  auto OfKind = [K](const std::unique_ptr<Modifier> &M) { return M->kind() == K; };
  // A record shared with a clone is copied only for a real change.
  if (Extra && llvm::any_of(Extra->Mods, OfKind))
    std::erase_if(extra().Mods, OfKind);
}

} // namespace stinkytofu
