//===- CycleEstimate.cpp - Cycles per block, loop body and kernel path ----===//
#include "stinkytofu/analysis/CycleEstimate.h"

#include "stinkytofu/analysis/LoopInfo.h"
#include "llvm/ADT/DenseSet.h"
#include <functional>

using namespace llvm;

namespace stinkytofu {

AnalysisKey EstimateAsmCycles::Key;

const BlockCycles &CycleEstimate::block(const BasicBlock &BB) const {
  static const BlockCycles None;
  auto It = Blocks.find(&BB);
  return It == Blocks.end() ? None : It->second;
}

namespace {

/// The blocks reachable from the entry in reverse post-order, and the edges
/// that close a cycle (to a block still on the depth-first stack): without
/// them the CFG is acyclic, whether its loops are natural or not.
struct AcyclicOrder {
  std::vector<const BasicBlock *> Order;
  DenseSet<std::pair<const BasicBlock *, const BasicBlock *>> Closing;

  explicit AcyclicOrder(const Function &F) {
    if (F.blocks().empty())
      return;
    DenseSet<const BasicBlock *> Seen, OnStack;
    // Iterative depth-first search: kernels can have thousands of blocks.
    std::vector<std::pair<const BasicBlock *, size_t>> Stack;
    const BasicBlock *Entry = &*F.blocks().begin();
    Stack.push_back({Entry, 0});
    Seen.insert(Entry);
    OnStack.insert(Entry);
    while (!Stack.empty()) {
      auto &[B, Next] = Stack.back();
      if (Next < B->successors().size()) {
        const BasicBlock *S = B->successors()[Next++];
        if (OnStack.contains(S))
          Closing.insert({B, S});
        else if (Seen.insert(S).second) {
          OnStack.insert(S);
          Stack.push_back({S, 0});
        }
        continue;
      }
      Order.push_back(B);
      OnStack.erase(B);
      Stack.pop_back();
    }
    std::reverse(Order.begin(), Order.end());
  }
};

/// The longest path over the blocks \p In accepts, starting where \p Start
/// accepts (every accepted block without an accepted predecessor, when
/// null); its cycles at each block and the predecessor it came through.
struct LongestPath {
  DenseMap<const BasicBlock *, uint64_t> Dist;
  DenseMap<const BasicBlock *, const BasicBlock *> Via;

  LongestPath(const AcyclicOrder &O, const CycleEstimate &E,
              function_ref<bool(const BasicBlock *)> In, const BasicBlock *Start) {
    for (const BasicBlock *B : O.Order) {
      if (!In(B))
        continue;
      uint64_t Best = 0;
      const BasicBlock *From = nullptr;
      bool Reached = !Start || B == Start;
      if (B != Start)
        for (const BasicBlock *P : B->predecessors()) {
          auto It = Dist.find(P);
          if (It == Dist.end() || O.Closing.contains({P, B}))
            continue;
          Reached = true;
          if (!From || It->second > Best) {
            Best = It->second;
            From = P;
          }
        }
      if (!Reached)
        continue;
      Dist[B] = Best + E.block(*B).Cycles;
      Via[B] = From;
    }
  }
};

} // namespace

Expected<CycleEstimate> EstimateAsmCycles::run(Function &F, AnalysisManager &AM) {
  Expected<LoopInfo &> LI = AM.getResult<LoopAnalysis>(F);
  if (!LI)
    return LI.takeError();
  CycleEstimate E;
  BlockCycleModel Model(*F.parent());
  for (const BasicBlock &BB : F.blocks())
    E.Blocks[&BB] = Model.estimate(BB);

  AcyclicOrder Order(F);
  for (const Loop *L : LI->loopsInPreorder()) {
    LongestPath P(Order, E, [&](const BasicBlock *B) { return L->contains(B); }, L->header());
    const BasicBlock *Heaviest = nullptr;
    for (const BasicBlock *Latch : L->latches())
      if (P.Dist.count(Latch) && (!Heaviest || P.Dist[Latch] > P.Dist[Heaviest]))
        Heaviest = Latch;
    std::vector<const BasicBlock *> Trip;
    for (const BasicBlock *B = Heaviest; B; B = P.Via.lookup(B))
      Trip.insert(Trip.begin(), B);
    uint64_t Steady = Trip.empty() ? 0 : Model.estimateSecondTrip(Trip).Cycles;
    E.Loops.push_back(
        {L->header(), L->depth(), Heaviest ? P.Dist[Heaviest] : 0, Steady, std::move(Trip)});
  }

  LongestPath Whole(Order, E, [](const BasicBlock *) { return true; },
                    Order.Order.empty() ? nullptr : Order.Order.front());
  const BasicBlock *End = nullptr;
  for (const BasicBlock *B : Order.Order) // first of the longest, in order
    if (Whole.Dist.count(B) && (!End || Whole.Dist[B] > Whole.Dist[End]))
      End = B;
  for (const BasicBlock *B = End; B; B = Whole.Via.lookup(B))
    E.Path.insert(E.Path.begin(), B);
  if (End)
    E.PathCycles = Whole.Dist[End];
  for (const BasicBlock *B : E.Path) {
    const BlockCycles &C = E.block(*B);
    E.PathTotals.Cycles += C.Cycles;
    E.PathTotals.Issue += C.Issue;
    for (unsigned S = 0; S < NumStallCauses; ++S)
      E.PathTotals.Stalls[S] += C.Stalls[S];
  }
  return E;
}

static void printCycles(const BlockCycles &C, raw_ostream &OS) {
  OS << C.Cycles << " cycles (issue " << C.Issue;
  for (unsigned S = 0; S < NumStallCauses; ++S)
    if (C.Stalls[S])
      OS << ", " << stallCauseName(StallCause(S)) << " " << C.Stalls[S];
  OS << ")";
}

void CycleEstimate::print(const Function &F, raw_ostream &OS) const {
  OS << "EstimateAsmCycles @" << F.name() << ": path ";
  printCycles(PathTotals, OS);
  OS << ", " << Path.size() << " blocks, " << Loops.size() << " loops\n";
  for (const BasicBlock &BB : F.blocks()) {
    OS << "  block " << BB.name() << ": ";
    printCycles(block(BB), OS);
    OS << "\n";
  }
  for (const LoopCycles &L : Loops)
    OS << "  loop " << L.Header->name() << " depth " << L.Depth << ": " << L.Body
       << " cycles per trip, " << L.SteadyBody << " in steady state\n";
  OS << "  path:";
  for (const BasicBlock *B : Path)
    OS << " " << B->name();
  OS << "\n";
}

} // namespace stinkytofu
