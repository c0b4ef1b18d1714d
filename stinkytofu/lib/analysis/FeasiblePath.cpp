//===- FeasiblePath.cpp - One path a finding takes, with its branches -----===//
#include "stinkytofu/analysis/FeasiblePath.h"

#include "stinkytofu/ir/BasicBlock.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include <deque>
#include <set>
#include <tuple>

using namespace llvm;

namespace stinkytofu {

std::string blockName(const BasicBlock &BB) {
  if (!BB.label().empty())
    return BB.label().str();
  if (!BB.empty() && BB.instructions().begin()->location().isValid())
    return "line " + std::to_string(BB.instructions().begin()->location().Line);
  return "(block)";
}

/// Whether \p A holds no fact \p B contradicts.
static bool agree(const PathFacts &A, const PathFacts &B) {
  return none_of(A.Facts, [&](const BranchFact &F) {
    return binary_search(B.Facts, BranchFact{F.Condition, !F.NonZero});
  });
}

namespace {

/// The counter state of a PendingOperation along a path: how many
/// operations of its in-order kinds started after it.
class PendingTracker {
public:
  PendingTracker(const Instruction &From, std::optional<PendingOperation> Op) : Op(Op) {
    if (!Op || From.mcInsts().empty())
      return;
    const CounterModel &CM = *Op->Counters;
    uint32_t Events = 0;
    for (const MCInst &Inst : From.mcInsts())
      Events |= CM.classify(Inst, From.mnemonic()).Events;
    for (unsigned E = 0; E != NumWaitEvents; ++E)
      if ((Events & eventBit(WaitEvent(E))) && CM.counterOf(WaitEvent(E)) == Op->Counter) {
        if (!CM.inOrder(WaitEvent(E))) {
          Kinds = 0; // only a wait for 0 surely completes it
          break;
        }
        Kinds |= eventBit(WaitEvent(E));
      }
  }

  /// Steps \p Younger over \p I; false when \p I completes the operation.
  bool step(const Instruction &I, unsigned &Younger) const {
    if (!Op)
      return true;
    const CounterModel &CM = *Op->Counters;
    for (const MCInst &Inst : I.mcInsts()) {
      if (std::optional<WaitCounts> W = CM.decodeWait(Inst, I.mnemonic())) {
        if (W->waits(Op->Counter) &&
            (W->Count[Op->Counter] == 0 || (Kinds && int(Younger) >= W->Count[Op->Counter])))
          return false;
        continue;
      }
      if (CM.classify(Inst, I.mnemonic()).Events & Kinds)
        Younger = std::min(Younger + 1, CM.counterMax(Op->Counter) + 1);
    }
    return true;
  }

private:
  std::optional<PendingOperation> Op;
  uint32_t Kinds = 0; ///< eventBit()s of the operation's in-order kinds
};

} // namespace

std::optional<FeasiblePath> findFeasiblePath(const BranchConditions &BC, const Instruction &From,
                                             const BasicBlock &To, const PathFacts &AtTo,
                                             std::optional<PendingOperation> Pending) {
  // Each (block, facts, counter state) is visited once; real kernels need
  // a few hundred.
  constexpr size_t Budget = 20000;
  struct Node {
    const BasicBlock *BB;
    PathFacts Facts; ///< at the end of the block
    unsigned Younger; ///< PendingTracker's state there
    int Parent;
    std::optional<BranchFact> Taken;
  };
  PendingTracker Tracker(From, Pending);
  std::vector<Node> Nodes;
  std::set<std::tuple<const BasicBlock *, SmallVector<BranchFact, 4>, unsigned>> Seen;
  PathFacts Start;
  unsigned Younger = 0;
  const BasicBlock &First = *From.parent();
  for (auto It = std::next(From.getIterator()); It != First.instructions().end(); ++It) {
    BC.transfer(*It, Start);
    if (!Tracker.step(*It, Younger))
      return std::nullopt;
  }
  Nodes.push_back({&First, Start, Younger, -1, std::nullopt});
  for (size_t N = 0; N < Nodes.size() && Nodes.size() < Budget; ++N) {
    for (const BasicBlock *Succ : Nodes[N].BB->successors()) {
      PathFacts Facts = Nodes[N].Facts;
      std::optional<BranchFact> Taken = BC.edgeFact(*Nodes[N].BB, *Succ, Facts);
      if (!BC.takeEdge(*Nodes[N].BB, *Succ, Facts))
        continue;
      if (Succ == &To) {
        if (!agree(Facts, AtTo))
          continue;
        FeasiblePath P;
        P.Blocks.push_back(Succ);
        P.Taken.push_back(Taken);
        for (int K = int(N); K >= 0; K = Nodes[K].Parent) {
          P.Blocks.push_back(Nodes[K].BB);
          P.Taken.push_back(Nodes[K].Taken);
        }
        std::reverse(P.Blocks.begin(), P.Blocks.end());
        std::reverse(P.Taken.begin(), P.Taken.end());
        return P;
      }
      unsigned Younger = Nodes[N].Younger;
      bool StillPending = true;
      for (const Instruction &I : Succ->instructions()) {
        BC.transfer(I, Facts);
        StillPending = StillPending && Tracker.step(I, Younger);
      }
      if (!StillPending || !Seen.emplace(Succ, Facts.Facts, Younger).second)
        continue;
      Nodes.push_back({Succ, std::move(Facts), Younger, int(N), Taken});
    }
  }
  return std::nullopt;
}

std::string describePath(const BranchConditions &BC, const FeasiblePath &P) {
  SmallVector<std::string, 8> Names, Branches;
  for (auto [K, BB] : enumerate(P.Blocks)) {
    Names.push_back(blockName(*BB));
    if (P.Taken[K])
      Branches.push_back("at " + blockName(*P.Blocks[K - 1]) + ": " + BC.describe(*P.Taken[K]));
  }
  std::string Text = join(Names, " -> ");
  if (!Branches.empty())
    Text += " (" + join(Branches, "; ") + ")";
  return Text;
}

} // namespace stinkytofu
