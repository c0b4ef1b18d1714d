//===- InsertedWaitProof.cpp - Waits of code that only gained instructions ===//
#include "stinkytofu/analysis/InsertedWaitProof.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include <algorithm>

using namespace llvm;

namespace stinkytofu {

AnalysisKey InputWaitStatesAnalysis::Key;

InputWaitStates InputWaitStatesAnalysis::run(Module &, AnalysisManager &) { return {}; }

namespace {

/// Instructions by their place in the input's layout; End stands for the
/// function's end. Sorted, each once.
constexpr unsigned End = ~0u;
using Places = SmallVector<unsigned, 2>;

void sortUnique(Places &P) {
  llvm::sort(P);
  P.erase(std::unique(P.begin(), P.end()), P.end());
}

} // namespace

struct InputWaitStates::FunctionStates {
  explicit FunctionStates(WaitCountAnalysis A) : Analysis(std::move(A)) {}
  /// Its places number the input's instructions (keptPlace).
  WaitCountAnalysis Analysis;
  /// Per place: the stamp, whether it ends its block; what follows the last
  /// instruction of each block.
  std::vector<uint64_t> Stamps;
  BitVector EndsBlock;
  DenseMap<unsigned, Places> AfterBlock;
  Places Entry;

  /// What the input has after its instruction at place \p P.
  Places next(unsigned P) const {
    return EndsBlock.test(P) ? AfterBlock.find(P)->second : Places{P + 1};
  }
  bool provesQuiet(const Function &Output) const;
};

namespace {

/// Per block of a function, the places of the input instructions
/// control reaches entering it through inserted instructions alone (or
/// the function's end): a block's own first original, else what its
/// successors reach. Empty: a loop of inserted code, which proves nothing.
class BlockReach {
public:
  /// \p Firsts: each block's first original instruction's place (blocks
  /// numbered in layout order), or End when it has none.
  BlockReach(const Function &F, ArrayRef<unsigned> Firsts) : Firsts(Firsts) {
    DenseMap<const BasicBlock *, unsigned> Number;
    Number.reserve(Firsts.size());
    for (const BasicBlock &BB : F.blocks())
      Number[&BB] = Number.size();
    Succs.resize(Number.size());
    for (auto [BB, S] : zip(F.blocks(), Succs))
      for (const BasicBlock *Succ : BB.successors())
        S.push_back(Number.find(Succ)->second);
    Reach.resize(Number.size());
    State.resize(Number.size());
  }

  /// What entering block \p N reaches; null for a loop.
  const Places *entering(unsigned N) {
    if (Firsts[N] != End) {
      Own = {Firsts[N]};
      return &Own;
    }
    return after(N);
  }
  /// What leaving block \p Start at its end reaches; null for a loop.
  const Places *after(unsigned Start) {
    if (State[Start] == Done)
      return &Reach[Start];
    Stack.assign(1, {Start, 0});
    State[Start] = Active;
    while (!Stack.empty()) {
      auto [N, K] = Stack.back();
      if (K < Succs[N].size()) {
        ++Stack.back().second;
        unsigned S = Succs[N][K];
        if (Firsts[S] == End && State[S] != Done) {
          if (State[S] == Active)
            return nullptr;
          State[S] = Active;
          Stack.push_back({S, 0});
        }
        continue;
      }
      Places Out;
      if (Succs[N].empty())
        Out.push_back(End);
      for (unsigned S : Succs[N]) {
        if (Firsts[S] != End)
          Out.push_back(Firsts[S]);
        else
          append_range(Out, Reach[S]);
      }
      sortUnique(Out);
      Reach[N] = std::move(Out);
      State[N] = Done;
      Stack.pop_back();
    }
    return &Reach[Start];
  }

private:
  enum : uint8_t { Unseen, Active, Done };
  ArrayRef<unsigned> Firsts;
  std::vector<SmallVector<unsigned, 2>> Succs;
  std::vector<Places> Reach;
  std::vector<uint8_t> State;
  Places Own;
  /// The walk of after(), kept for its next call.
  std::vector<std::pair<unsigned, unsigned>> Stack;
};

} // namespace

/// 1-3 of the header's comment for one function, block by block: runs of
/// inserted instructions between originals, each original's next one.
bool InputWaitStates::FunctionStates::provesQuiet(const Function &Output) const {
  // Each output instruction as an input place (End: inserted), in layout
  // order; each block's first original.
  std::vector<unsigned> Placed;
  std::vector<unsigned> Firsts;
  size_t Originals = 0;
  for (const BasicBlock &BB : Output.blocks()) {
    unsigned First = End;
    for (const Instruction &I : BB.instructions()) {
      std::optional<unsigned> P = Analysis.keptPlace(I);
      if (!P) {
        Placed.push_back(End);
        continue;
      }
      if (Stamps[*P] != I.stamp())
        return false;
      ++Originals;
      Placed.push_back(*P);
      if (First == End)
        First = *P;
    }
    Firsts.push_back(First);
  }
  if (Originals != Stamps.size())
    return false;
  if (Output.blocks().empty())
    return Entry.empty();
  BlockReach Reach(Output, Firsts);
  const Places *OutputEntry = Reach.entering(0);
  if (!OutputEntry || *OutputEntry != Entry)
    return false;

  // Each inserted instruction of a run is asked about in the state after
  // the original instruction before it in its block, which is all that
  // reaches it; a run that starts its block, in the state before each
  // original instruction it leads to (a join of every way there, one of
  // which passes the run). Inserted code the function ends in runs where
  // no input state is.
  std::vector<WaitCountAnalysis::QuietQuestion> Questions;
  SmallVector<const Instruction *, 16> Run;
  auto Ask = [&](unsigned Previous, ArrayRef<unsigned> Next) {
    if (!Run.empty() && is_contained(Next, End))
      return false;
    if (Previous != End)
      for (const Instruction *I : Run)
        Questions.push_back({I, Previous, /*AfterPlace=*/true});
    else
      for (unsigned P : Next)
        for (const Instruction *I : Run)
          Questions.push_back({I, P});
    Run.clear();
    return true;
  };
  auto Place = Placed.begin();
  unsigned Number = 0;
  for (const BasicBlock &BB : Output.blocks()) {
    unsigned Previous = End;
    Run.clear();
    for (const Instruction &I : BB.instructions()) {
      unsigned P = *Place++;
      if (P == End) {
        Run.push_back(&I);
        continue;
      }
      if (!Ask(Previous, {P}) || (Previous != End && next(Previous) != Places{P}))
        return false;
      Previous = P;
    }
    const Places *After = Reach.after(Number++);
    if (!After || !Ask(Previous, *After) || (Previous != End && next(Previous) != *After))
      return false;
  }
  return Analysis.allQuiet(Questions);
}

InputWaitStates::InputWaitStates() = default;
InputWaitStates::~InputWaitStates() = default;
InputWaitStates::InputWaitStates(InputWaitStates &&) = default;
InputWaitStates &InputWaitStates::operator=(InputWaitStates &&) = default;

void InputWaitStates::clear() { Functions.clear(); }

const CounterModel &InputWaitStates::counters(const TargetInfo &T) {
  if (!CM || &CM->target() != &T) {
    Functions.clear();
    CM = std::make_unique<CounterModel>(T);
  }
  return *CM;
}

void InputWaitStates::keep(const Function &F, WaitCountAnalysis A) {
  auto States = std::make_unique<FunctionStates>(std::move(A));
  ArrayRef<const Instruction *> Kept = States->Analysis.keptInstructions();
  for (const Instruction *I : Kept)
    States->Stamps.push_back(I->stamp());
  States->EndsBlock.resize(Kept.size());
  std::vector<unsigned> Firsts;
  for (const BasicBlock &BB : F.blocks())
    Firsts.push_back(BB.empty() ? End : *States->Analysis.keptPlace(*BB.instructions().begin()));
  BlockReach Reach(F, Firsts);
  unsigned Number = 0;
  for (auto [BB, First] : zip(F.blocks(), Firsts)) {
    unsigned N = Number++;
    if (First == End)
      continue;
    unsigned Last =
        First + unsigned(std::distance(BB.instructions().begin(), BB.instructions().end())) - 1;
    States->EndsBlock.set(Last);
    // Only empty blocks can make a loop of no instructions; an unproven
    // one leaves nothing kept, so that no output is proven against it.
    const Places *After = Reach.after(N);
    if (!After)
      return;
    States->AfterBlock[Last] = *After;
  }
  if (!F.blocks().empty()) {
    const Places *Entry = Reach.entering(0);
    if (!Entry)
      return;
    States->Entry = *Entry;
  }
  Functions[&F] = std::move(States);
}

bool InputWaitStates::provesInsertionsQuiet(const Module &Output) const {
  if (Functions.empty() || Output.functions().size() != Functions.size())
    return false;
  for (const Function &F : Output.functions()) {
    auto It = Functions.find(&F);
    if (It == Functions.end() || !It->second->provesQuiet(F))
      return false;
  }
  return true;
}

} // namespace stinkytofu
