//===- FeasiblePath.cpp - One path a finding takes, with its branches -----===//
#include "stinkytofu/analysis/FeasiblePath.h"

#include "stinkytofu/ir/BasicBlock.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include <deque>
#include <set>

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

std::optional<FeasiblePath> findFeasiblePath(const BranchConditions &BC, const Instruction &From,
                                             const BasicBlock &To, const PathFacts &AtTo) {
  // Each (block, facts) is visited once; real kernels need a few hundred.
  constexpr size_t Budget = 20000;
  struct Node {
    const BasicBlock *BB;
    PathFacts Facts; ///< at the end of the block
    int Parent;
    std::optional<BranchFact> Taken;
  };
  std::vector<Node> Nodes;
  std::set<std::pair<const BasicBlock *, SmallVector<BranchFact, 4>>> Seen;
  PathFacts Start;
  const BasicBlock &First = *From.parent();
  for (auto It = std::next(From.getIterator()); It != First.instructions().end(); ++It)
    BC.transfer(*It, Start);
  Nodes.push_back({&First, Start, -1, std::nullopt});
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
      for (const Instruction &I : Succ->instructions())
        BC.transfer(I, Facts);
      if (!Seen.emplace(Succ, Facts.Facts).second)
        continue;
      Nodes.push_back({Succ, std::move(Facts), int(N), Taken});
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
