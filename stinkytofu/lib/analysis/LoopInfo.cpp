//===- LoopInfo.cpp - Natural loops of a function -------------------------===//
#include "stinkytofu/analysis/LoopInfo.h"
#include <algorithm>

using namespace llvm;

namespace stinkytofu {

AnalysisKey LoopAnalysis::Key;

bool Loop::contains(const Loop *L) const {
  for (; L; L = L->Parent)
    if (L == this)
      return true;
  return false;
}

std::vector<BasicBlock *> Loop::exitingBlocks() const {
  std::vector<BasicBlock *> Out;
  for (BasicBlock *B : Blocks)
    if (llvm::any_of(B->successors(), [&](BasicBlock *S) { return !contains(S); }))
      Out.push_back(B);
  // Blocks are kept header first; report in layout order.
  Function *F = Header->parent();
  std::vector<BasicBlock *> Sorted;
  for (BasicBlock &B : F->blocks())
    if (llvm::is_contained(Out, &B))
      Sorted.push_back(&B);
  return Sorted;
}

std::vector<BasicBlock *> Loop::exitBlocks() const {
  SmallPtrSet<const BasicBlock *, 8> Targets;
  for (BasicBlock *B : Blocks)
    for (BasicBlock *S : B->successors())
      if (!contains(S))
        Targets.insert(S);
  std::vector<BasicBlock *> Out;
  for (BasicBlock &B : Header->parent()->blocks())
    if (Targets.count(&B))
      Out.push_back(&B);
  return Out;
}

BasicBlock *Loop::preheader() const {
  BasicBlock *Outside = nullptr;
  for (BasicBlock *P : Header->predecessors()) {
    if (contains(P))
      continue;
    if (Outside && Outside != P)
      return nullptr;
    Outside = P;
  }
  if (!Outside)
    return nullptr;
  for (BasicBlock *S : Outside->successors())
    if (S != Header)
      return nullptr;
  return Outside;
}

LoopInfo::LoopInfo(Function &F, const DominatorTree &DT) {
  DenseMap<const BasicBlock *, unsigned> Order;
  for (BasicBlock &B : F.blocks())
    Order[&B] = Order.size();
  auto ByLayout = [&](const BasicBlock *A, const BasicBlock *B) {
    return Order.lookup(A) < Order.lookup(B);
  };

  for (BasicBlock &H : F.blocks()) {
    if (!DT.isReachable(&H))
      continue;
    std::vector<BasicBlock *> Latches;
    for (BasicBlock *P : H.predecessors())
      if (Order.count(P) && DT.isReachable(P) && DT.dominates(&H, P) &&
          !llvm::is_contained(Latches, P))
        Latches.push_back(P);
    if (Latches.empty())
      continue;
    llvm::sort(Latches, ByLayout);
    auto L = std::make_unique<Loop>();
    L->Header = &H;
    L->Latches = Latches;
    L->Members.insert(&H);
    // Everything that reaches a latch without going through the header.
    std::vector<BasicBlock *> Work(Latches.begin(), Latches.end());
    while (!Work.empty()) {
      BasicBlock *B = Work.back();
      Work.pop_back();
      if (!L->Members.insert(B).second)
        continue;
      for (BasicBlock *P : B->predecessors())
        if (Order.count(P) && DT.isReachable(P) && !L->Members.count(P))
          Work.push_back(P);
    }
    for (BasicBlock *Latch : Latches)
      BackEdges[{Latch, &H}] = true;
    L->Blocks.push_back(&H);
    for (BasicBlock &B : F.blocks())
      if (&B != &H && L->Members.count(&B))
        L->Blocks.push_back(&B);
    Loops.push_back(std::move(L));
  }

  // Nesting: the parent is the smallest other loop holding the header.
  for (auto &L : Loops) {
    for (auto &Other : Loops) {
      if (Other.get() == L.get() || !Other->contains(L->Header) ||
          Other->size() <= L->size())
        continue;
      if (!L->Parent || Other->size() < L->Parent->size())
        L->Parent = Other.get();
    }
  }
  std::vector<Loop *> BySize;
  for (auto &L : Loops)
    BySize.push_back(L.get());
  // Parents are strictly larger than their children; loops of one size are
  // disjoint, so their order does not matter.
  llvm::sort(BySize, [](const Loop *A, const Loop *B) { return A->size() > B->size(); });
  for (Loop *L : BySize) {
    L->Depth = L->Parent ? L->Parent->Depth + 1 : 1;
    for (BasicBlock *B : L->Blocks)
      InnerMost[B] = L; // larger loops first: the innermost one wins
  }
  for (auto &L : Loops) {
    if (L->Parent)
      L->Parent->SubLoops.push_back(L.get());
    else
      TopLevel.push_back(L.get());
  }
}

std::vector<Loop *> LoopInfo::loopsInPreorder() const {
  std::vector<Loop *> Out;
  std::vector<Loop *> Stack(TopLevel.rbegin(), TopLevel.rend());
  while (!Stack.empty()) {
    Loop *L = Stack.back();
    Stack.pop_back();
    Out.push_back(L);
    for (auto It = L->subLoops().rbegin(); It != L->subLoops().rend(); ++It)
      Stack.push_back(*It);
  }
  return Out;
}

unsigned LoopInfo::loopDepth(const BasicBlock *B) const {
  const Loop *L = loopFor(B);
  return L ? L->depth() : 0;
}

bool LoopInfo::isLoopHeader(const BasicBlock *B) const {
  const Loop *L = loopFor(B);
  return L && L->header() == B;
}

bool LoopInfo::isBackEdge(const BasicBlock *B, const BasicBlock *H) const {
  return BackEdges.count({B, H});
}

void LoopInfo::print(raw_ostream &OS) const {
  auto Name = [](const BasicBlock *B) {
    return !B->name().empty() ? B->name() : B->label();
  };
  for (const Loop *L : loopsInPreorder()) {
    OS << "loop " << Name(L->header()) << " depth " << L->depth() << ":";
    for (const BasicBlock *B : L->blocks())
      OS << " " << Name(B);
    OS << "\n";
  }
}

Expected<LoopInfo> LoopAnalysis::run(Function &F, AnalysisManager &AM) {
  Expected<DominatorTree &> DT = AM.getResult<DominatorTreeAnalysis>(F);
  if (!DT)
    return DT.takeError();
  return LoopInfo(F, *DT);
}

} // namespace stinkytofu
