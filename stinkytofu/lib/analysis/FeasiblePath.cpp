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

std::vector<PathSteps::Step> PathSteps::every(const BasicBlock &BB,
                                              BasicBlock::const_iterator Begin) const {
  std::vector<Step> Out;
  for (auto It = Begin; It != BB.instructions().end(); ++It)
    append(*It, /*KeepEmpty=*/true, Out);
  return Out;
}

ArrayRef<PathSteps::Step> PathSteps::of(const BasicBlock &BB) {
  auto [It, New] = ByBlock.try_emplace(&BB);
  if (New)
    for (const Instruction &I : BB.instructions())
      append(I, /*KeepEmpty=*/false, It->second);
  return It->second;
}

void PathSteps::append(const Instruction &I, bool KeepEmpty, std::vector<Step> &Out) const {
  size_t Before = Out.size();
  bool ChangesFacts = BC.changesFacts(I);
  if (Counters)
    for (const MCInst &Inst : I.mcInsts()) {
      Step S{&I, Counters->decodeWait(Inst, I.mnemonic())};
      if (!S.Wait)
        S.Events = Counters->classify(Inst, I.mnemonic()).Events;
      if (S.Wait || S.Events || KeepEmpty || (ChangesFacts && Out.size() == Before))
        Out.push_back(S);
    }
  if (Out.size() == Before && (KeepEmpty || ChangesFacts))
    Out.push_back(Step{&I, std::nullopt});
  if (Out.size() == Before)
    return;
  // Only the instruction's first step stands for it as a whole.
  for (size_t K = Before; K != Out.size(); ++K)
    Out[K].First = false;
  Out[Before].First = true;
  Out[Before].ChangesFacts = ChangesFacts;
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

  /// Steps \p Younger over \p S; false when \p S completes the operation.
  bool step(const PathSteps::Step &S, unsigned &Younger) const {
    if (!Op)
      return true;
    if (const std::optional<WaitCounts> &W = S.Wait)
      return !(W->waits(Op->Counter) &&
               (W->Count[Op->Counter] == 0 || (Kinds && int(Younger) >= W->Count[Op->Counter])));
    if (S.Events & Kinds)
      Younger = std::min(Younger + 1, Op->Counters->counterMax(Op->Counter) + 1);
    return true;
  }

private:
  std::optional<PendingOperation> Op;
  uint32_t Kinds = 0; ///< eventBit()s of the operation's in-order kinds
};

/// Breadth first over (block, facts, counter state) from a start to an
/// end, each visited once; real kernels need a few hundred.
class PathSearch {
public:
  PathSearch(PathSteps &Steps, const PendingTracker &Tracker)
      : Steps(Steps), BC(Steps.conditions()), Tracker(Tracker) {}

  /// Starts at \p BB (from \p Begin), before the producer \p Producer is
  /// issued, or after it when \p Producer is null; \p Consumer, if any,
  /// ends the search.
  void start(const BasicBlock &BB, BasicBlock::const_iterator Begin, const Instruction *Producer,
             const Instruction *Consumer) {
    this->Producer = Producer;
    this->Consumer = Consumer;
    Nodes.push_back({&BB, PathFacts(), !Producer, 0, -1, std::nullopt});
    // The kept steps leave out the instructions that do nothing, among
    // them possibly the producer and the consumer: their blocks, and the
    // start's rest, are walked instruction by instruction.
    StartSteps = Steps.every(BB, Begin);
    for (const Instruction *I : {Producer, Consumer})
      if (I && I->parent())
        EverySteps.try_emplace(I->parent(), Steps.every(*I->parent(), I->parent()->instructions().begin()));
  }

  /// Searches until the consumer is reached with the operation pending,
  /// or (no consumer) the start of \p To with facts that agree with \p
  /// AtTo.
  std::optional<FeasiblePath> run(const BasicBlock *To, const PathFacts *AtTo) {
    constexpr size_t Budget = 20000;
    for (size_t N = 0; N < Nodes.size() && Nodes.size() < Budget; ++N) {
      Node Cur = Nodes[N];
      bool Alive = true;
      for (const PathSteps::Step &S : stepsOf(N, *Cur.BB)) {
        if (S.First && Cur.Issued && S.I == Consumer)
          return pathTo(int(N), nullptr, std::nullopt);
        if (S.ChangesFacts)
          BC.transfer(*S.I, Cur.Facts);
        if (S.I == Producer) {
          Cur.Issued = true;
          Cur.Younger = 0; // the newest instance is the one pending
        } else if (Cur.Issued && !Tracker.step(S, Cur.Younger)) {
          Alive = false;
          break;
        }
      }
      if (!Alive)
        continue;
      for (const BasicBlock *Succ : Cur.BB->successors()) {
        PathFacts Facts = Cur.Facts;
        std::optional<BranchFact> Taken = BC.edgeFact(*Cur.BB, *Succ, Facts);
        if (!BC.takeEdge(*Cur.BB, *Succ, Facts))
          continue;
        if (!Consumer && Succ == To && Cur.Issued) {
          if (agree(Facts, *AtTo))
            return pathTo(int(N), Succ, Taken);
          continue;
        }
        if (Seen.emplace(Succ, Facts.Facts, Cur.Issued, Cur.Younger).second)
          Nodes.push_back({Succ, std::move(Facts), Cur.Issued, Cur.Younger, int(N), Taken});
      }
    }
    return std::nullopt;
  }

private:
  struct Node {
    const BasicBlock *BB;
    PathFacts Facts;  ///< at the start of the block
    bool Issued;      ///< the producer has been issued on the path
    unsigned Younger; ///< PendingTracker's state there
    int Parent;
    std::optional<BranchFact> Taken;
  };

  ArrayRef<PathSteps::Step> stepsOf(size_t N, const BasicBlock &BB) {
    if (N == 0)
      return StartSteps;
    auto It = EverySteps.find(&BB);
    return It != EverySteps.end() ? ArrayRef<PathSteps::Step>(It->second) : Steps.of(BB);
  }

  /// The path to node \p N, then \p Last (taken with \p Taken) if any.
  FeasiblePath pathTo(int N, const BasicBlock *Last, std::optional<BranchFact> Taken) const {
    FeasiblePath P;
    if (Last) {
      P.Blocks.push_back(Last);
      P.Taken.push_back(Taken);
    }
    for (int K = N; K >= 0; K = Nodes[K].Parent) {
      P.Blocks.push_back(Nodes[K].BB);
      P.Taken.push_back(Nodes[K].Taken);
    }
    std::reverse(P.Blocks.begin(), P.Blocks.end());
    std::reverse(P.Taken.begin(), P.Taken.end());
    return P;
  }

  PathSteps &Steps;
  const BranchConditions &BC;
  const PendingTracker &Tracker;
  const Instruction *Producer = nullptr;
  const Instruction *Consumer = nullptr;
  std::vector<PathSteps::Step> StartSteps;
  DenseMap<const BasicBlock *, std::vector<PathSteps::Step>> EverySteps;
  std::vector<Node> Nodes;
  std::set<std::tuple<const BasicBlock *, SmallVector<BranchFact, 4>, bool, unsigned>> Seen;
};

} // namespace

std::optional<FeasiblePath> findFeasiblePath(const BranchConditions &BC, const Instruction &From,
                                             const BasicBlock &To, const PathFacts &AtTo,
                                             std::optional<PendingOperation> Pending,
                                             PathSteps *Steps) {
  std::optional<PathSteps> Own;
  if (!Steps)
    Steps = &Own.emplace(BC, Pending ? Pending->Counters : nullptr);
  PendingTracker Tracker(From, Pending);
  PathSearch Search(*Steps, Tracker);
  Search.start(*From.parent(), std::next(From.getIterator()), nullptr, nullptr);
  return Search.run(&To, &AtTo);
}

std::optional<FeasiblePath> findPathFromEntry(const BranchConditions &BC, const Function &F,
                                              const Instruction &Producer,
                                              const Instruction &Consumer,
                                              PendingOperation Pending, PathSteps *Steps) {
  if (F.blocks().empty())
    return std::nullopt;
  std::optional<PathSteps> Own;
  if (!Steps)
    Steps = &Own.emplace(BC, Pending.Counters);
  PendingTracker Tracker(Producer, Pending);
  PathSearch Search(*Steps, Tracker);
  const BasicBlock &Entry = F.blocks().front();
  Search.start(Entry, Entry.instructions().begin(), &Producer, &Consumer);
  return Search.run(nullptr, nullptr);
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
