//===- BasicBlock.cpp - A labelled run of instructions --------------------===//
#include "stinkytofu/ir/BasicBlock.h"
#include "stinkytofu/ir/BranchVocabulary.h"
#include "stinkytofu/ir/Module.h"
#include "llvm/Support/ErrorHandling.h"
#include <algorithm>
#include <limits>

namespace stinkytofu {

namespace {

/// Items have no virtual destructor (an instruction stays small): delete
/// each as what it is.
void deleteItem(BlockItem *Item) {
  if (auto *I = llvm::dyn_cast<Instruction>(Item))
    delete I;
  else
    delete llvm::cast<Directive>(Item);
}

constexpr uint64_t MaxOrder = std::numeric_limits<uint64_t>::max();
/// The distance between the order numbers of appended items and of items
/// numbered afresh: room for 32 insertions at one place before a
/// neighbourhood is renumbered, and for four billion appends.
constexpr uint64_t OrderStride = uint64_t(1) << 32;

} // namespace

BasicBlock::~BasicBlock() { Items.clearAndDispose(deleteItem); }

void BasicBlock::link(const_item_iterator Pos, BlockItem &Item) {
  Items.insert(Pos.getNonConst(), Item);
  Item.Parent = this;
  numberInserted(Item);
  invalidateCFGFor(Item);
}

void BasicBlock::unlink(BlockItem &Item) {
  invalidateCFGFor(Item);
  Items.remove(Item);
  Item.Parent = nullptr;
}

void BasicBlock::invalidateCFGFor(const BlockItem &Item) {
  // Only an edit of a function with valid edges pays for the check (a
  // reader linking a whole file asks nothing).
  if (!Parent || !Parent->hasValidCFG())
    return;
  const auto *I = llvm::dyn_cast<Instruction>(&Item);
  if (!I)
    return;
  // A block's edges come from its last instruction: an edge changes when a
  // control transfer comes or goes, or when an instruction lands after one.
  bool After = false;
  for (const_item_iterator It(Item); It != Items.begin();)
    if (const auto *Prev = llvm::dyn_cast<Instruction>(&*--It)) {
      After = endsBlock(*Prev);
      break;
    }
  if (After || endsBlock(*I))
    Parent->invalidateCFG();
}

void BasicBlock::numberInserted(BlockItem &Item) {
  if (!OrderValid)
    return; // the next comesBefore numbers everything
  item_iterator It(Item);
  uint64_t Low = It == Items.begin() ? 0 : std::prev(It)->Order;
  item_iterator Next = std::next(It);
  uint64_t High = Next.isEnd() ? MaxOrder : Next->Order;
  uint64_t Step = std::min((High - Low) / 2, OrderStride);
  if (Step > 0) {
    Item.Order = Low + Step;
    return;
  }
  renumberAround(Item);
}

void BasicBlock::renumberAround(BlockItem &Item) {
  // The list-labelling scheme of Bender et al. ("Two simplified algorithms
  // for maintaining order in a list"): find the smallest aligned range of
  // numbers around the item's place that is not too crowded, 2^B numbers
  // holding fewer than 1.5^B items, and spread its items evenly over it.
  // Each insertion renumbers O(log n) items on average, wherever it lands.
  item_iterator Lo(Item), Hi(Item);
  uint64_t Place = Lo == Items.begin() ? 0 : std::prev(Lo)->Order;
  uint64_t Count = 1;
  double Capacity = 1;
  for (unsigned Bits = 1; Bits <= 64; ++Bits) {
    Capacity *= 1.5;
    uint64_t Mask = Bits == 64 ? MaxOrder : (uint64_t(1) << Bits) - 1;
    uint64_t Base = Place & ~Mask, Last = Base + Mask;
    for (; Lo != Items.begin() && std::prev(Lo)->Order >= Base; ++Count)
      --Lo;
    for (; !std::next(Hi).isEnd() && std::next(Hi)->Order <= Last; ++Count)
      ++Hi;
    if (double(Count) >= Capacity && Bits < 64)
      continue;
    uint64_t Step = Bits == 64 ? MaxOrder / Count : (Mask + 1) / Count;
    uint64_t N = Base;
    for (item_iterator It = Lo;; ++It, N += Step) {
      It->Order = N;
      if (It == Hi)
        return;
    }
  }
}

void BasicBlock::renumber() const {
  uint64_t Count = Items.size();
  uint64_t Gap = std::min(MaxOrder / (Count + 1), OrderStride);
  uint64_t N = 0;
  for (const BlockItem &Item : Items)
    Item.Order = N += Gap;
  OrderValid = true;
}

bool BlockItem::comesBefore(const BlockItem &Other) const {
  assert(Parent && Parent == Other.Parent && "comparing items of different blocks");
  if (!Parent->OrderValid)
    Parent->renumber();
  return Order < Other.Order;
}

llvm::StringRef BasicBlock::joinText(llvm::StringRef Front, llvm::StringRef Back) {
  if (Front.empty())
    return Back;
  if (Back.empty())
    return Front;
  // Neighbours in the source buffer need no copy.
  if (Front.end() == Back.begin())
    return llvm::StringRef(Front.data(), Front.size() + Back.size());
  Module *M = Parent ? Parent->parent() : nullptr;
  if (!M)
    llvm::report_fatal_error("joining the text of two items of a block outside a module");
  return M->save((Front + Back).str());
}

void BlockItem::eraseFromParent() {
  BasicBlock &BB = *Parent;
  if (!Leading.empty()) {
    ItemList::iterator Next = std::next(getIterator());
    if (Next.isEnd())
      BB.appendDirective(Leading, "");
    else
      Next->Leading = BB.joinText(Leading, Next->Leading);
  }
  BB.unlink(*this);
  deleteItem(this);
}

Instruction &BasicBlock::insert(const_item_iterator Pos, Instruction I) {
  return insert(Pos, std::make_unique<Instruction>(std::move(I)));
}

Instruction &BasicBlock::insert(const_item_iterator Pos, std::unique_ptr<Instruction> I) {
  Instruction &Placed = *I.release();
  link(Pos, Placed);
  return Placed;
}

Directive &BasicBlock::appendDirective(llvm::StringRef LeadingText, llvm::StringRef Text) {
  auto *D = new Directive(Text);
  D->setLeadingText(LeadingText);
  link(Items.end(), *D);
  return *D;
}

void BasicBlock::splice(const_item_iterator Pos, BasicBlock &From,
                        const_item_iterator First, const_item_iterator Last) {
  if (First == Last)
    return;
  for (BasicBlock *BB : {this, &From})
    if (BB->Parent)
      BB->Parent->invalidateCFG();
  for (item_iterator It = First.getNonConst(); It != Last; ++It)
    It->Parent = this;
  Items.splice(Pos.getNonConst(), From.Items, First.getNonConst(), Last.getNonConst());
  OrderValid = false;
}

BasicBlock::item_iterator BasicBlock::directivesBefore(Instruction &I) {
  item_iterator It(I);
  while (It != Items.begin() && llvm::isa<Directive>(*std::prev(It)))
    --It;
  return It;
}

std::string BasicBlock::trailingText() const {
  const_item_iterator It = Items.end();
  while (It != Items.begin() && llvm::isa<Directive>(*std::prev(It)))
    --It;
  std::string Text;
  for (; It != Items.end(); ++It)
    Text += (It->leadingText() + llvm::cast<Directive>(*It).text()).str();
  return Text;
}

void BasicBlock::eraseFromParent() {
  Function &F = *Parent;
  F.invalidateCFG();
  clearEdges();
  // What the block holds besides its label and statements stays in the
  // function, in the same order.
  llvm::StringRef Kept = Leading;
  for (const BlockItem &Item : Items) {
    Kept = joinText(Kept, Item.leadingText());
    if (const auto *D = llvm::dyn_cast<Directive>(&Item))
      Kept = joinText(Kept, D->text());
  }
  Function::iterator Next = std::next(getIterator());
  if (!Kept.empty()) {
    if (!Next.isEnd())
      Next->Leading = joinText(Kept, Next->Leading);
    else if (getIterator() != F.blocks().begin())
      std::prev(getIterator())->appendDirective("", Kept);
  }
  F.Blocks.remove(*this);
  F.LabelIndexValid = false;
  delete this;
}

void BasicBlock::moveBefore(BasicBlock &Pos) {
  if (&Pos == this)
    return;
  Pos.Parent->spliceBlocks(Pos.getIterator(), *Parent, getIterator(),
                           std::next(getIterator()));
}

void BasicBlock::moveAfter(BasicBlock &Pos) {
  if (&Pos == this)
    return;
  Pos.Parent->spliceBlocks(std::next(Pos.getIterator()), *Parent, getIterator(),
                           std::next(getIterator()));
}

void BasicBlock::addSuccessor(BasicBlock *To, EdgeKind Kind) {
  Succs.push_back(To);
  SuccKinds.push_back(Kind);
  To->Preds.push_back(this);
}

void BasicBlock::clearEdges() {
  for (BasicBlock *S : Succs)
    llvm::erase(S->Preds, this);
  for (BasicBlock *P : Preds) {
    for (size_t I = P->Succs.size(); I-- > 0;)
      if (P->Succs[I] == this) {
        P->Succs.erase(P->Succs.begin() + I);
        P->SuccKinds.erase(P->SuccKinds.begin() + I);
      }
  }
  Succs.clear();
  SuccKinds.clear();
  Preds.clear();
}

} // namespace stinkytofu
