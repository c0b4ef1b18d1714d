//===- InstInserter.cpp - Building instructions at a place ----------------===//
#include "stinkytofu/mc/InstInserter.h"
#include "stinkytofu/ir/Function.h"
#include "stinkytofu/mc/DerivedModifiers.h"

using namespace llvm;

namespace stinkytofu {

namespace {

/// The derived modifiers a wait instruction can carry.
constexpr ModifierKind WaitModifierKinds[] = {
    ModifierKind::SWaitCnt,      ModifierKind::SWaitTensorCnt, ModifierKind::SWaitAsyncCnt,
    ModifierKind::SWaitStoreCnt, ModifierKind::DelayAlu,       ModifierKind::WaitAlu};

} // namespace

void attachWaitModifier(Instruction &I, const TargetInfo &TI) {
  for (ModifierKind K : WaitModifierKinds)
    if (std::optional<AttrDict> Fields = deriveModifier(K, I, TI)) {
      I.setModifier(std::make_unique<DerivedModifier>(K, std::move(*Fields)));
      return;
    }
}

void InstInserter::setInsertPointBefore(Instruction &I) {
  Block = I.parent();
  Before = &I;
  TakesComments = true;
}

void InstInserter::setInsertPointAfter(Instruction &I) {
  Block = I.parent();
  auto Next = std::next(ItemList::iterator(I));
  Before = Next == Block->items().end() ? nullptr : &*Next;
  TakesComments = false;
}

void InstInserter::setInsertPointAtEnd(BasicBlock &BB) {
  Block = &BB;
  Before = nullptr;
  TakesComments = false;
}

void InstInserter::keepCommentsInFront(Instruction &First) {
  if (!TakesComments || Before->leadingText().empty())
    return;
  StringRef Kept = Before->leadingText(), Own = First.leadingText();
  if (!Own.empty()) {
    Module *M = Block->parent() ? Block->parent()->parent() : nullptr;
    if (!M)
      return; // no storage for the joined text: both keep their own
    Kept = M->save((Kept + Own).str());
  }
  First.setLeadingText(Kept);
  Before->setLeadingText("");
}

Instruction &InstInserter::insert(Instruction I) {
  assert(Block && "an inserter needs an insertion point");
  ItemList::iterator Pos = Before ? ItemList::iterator(*Before) : Block->items().end();
  Instruction &New = Block->insert(Pos, std::move(I));
  keepCommentsInFront(New);
  return New;
}

Expected<Instruction &> InstInserter::build(StringRef Mnemonic, ArrayRef<BuildOperand> Operands) {
  Expected<Instruction> I = Builder.build(Mnemonic, Operands);
  if (!I)
    return I.takeError();
  attachWaitModifier(*I, Builder.module().target());
  return insert(std::move(*I));
}

void InstInserter::move(Instruction &I) {
  assert(Block && "an inserter needs an insertion point");
  if (&I == Before)
    return;
  ItemList::iterator Pos = Before ? ItemList::iterator(*Before) : Block->items().end();
  ItemList::iterator It(I);
  Block->splice(Pos, *I.parent(), It, std::next(It));
  keepCommentsInFront(I);
}

} // namespace stinkytofu
