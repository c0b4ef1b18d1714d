//===- DominatorTree.h - Dominators and post-dominators of blocks -*- C++ -*-===//
//
// Dominator and post-dominator trees over the blocks of one function, built
// from the explicit CFG edges (BasicBlock::successors()) with the iterative
// algorithm of Cooper, Harvey and Kennedy ("A Simple, Fast Dominance
// Algorithm").
//
// - Dominators: the root is the function's first block. Blocks that the entry
//   cannot reach are not in the tree (isReachable() is false).
// - Post-dominators: a virtual exit joins every block without successors
//   (s_endpgm, a return, an s_setpc_b64 with no known target). Blocks that
//   reach no such block (an endless loop) are not in the tree. A block whose
//   immediate post-dominator is the virtual exit reports none.
//
// Queries about a block outside the tree are answered conservatively:
// dominates(A, B) is false unless A == B, immediateDominator() is null.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_ANALYSIS_DOMINATORTREE_H
#define STINKYTOFU_ANALYSIS_DOMINATORTREE_H

#include "stinkytofu/ir/Function.h"
#include "stinkytofu/analysis/AnalysisManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/raw_ostream.h"
#include <vector>

namespace stinkytofu {

/// The tree shared by dominators and post-dominators ("dominates" reads
/// "post-dominates" for the latter).
class DominatorTreeBase {
public:
  bool isPostDominator() const { return Post; }
  const Function &function() const { return *Fn; }

  /// In the tree: reachable from the entry (dominators), or reaching a block
  /// without successors (post-dominators).
  bool isReachable(const BasicBlock *B) const;

  /// A dominates B: every path from the entry to B goes through A (post:
  /// every path from B to an exit). Reflexive.
  bool dominates(const BasicBlock *A, const BasicBlock *B) const;
  bool properlyDominates(const BasicBlock *A, const BasicBlock *B) const {
    return A != B && dominates(A, B);
  }
  /// Instruction granularity: the blocks dominate, or both are in one block
  /// and A comes first (post: A comes last). Reflexive.
  bool dominates(const Instruction &A, const Instruction &B) const;

  /// The immediate (post-)dominator; null for the root, for a block whose
  /// immediate post-dominator is the virtual exit, and for blocks outside
  /// the tree.
  BasicBlock *immediateDominator(const BasicBlock *B) const;
  /// Blocks immediately dominated by \p B, in layout order.
  const std::vector<BasicBlock *> &children(const BasicBlock *B) const;
  /// The top of the tree: the entry block (dominators), or the blocks
  /// immediately post-dominated by the virtual exit (post-dominators).
  const std::vector<BasicBlock *> &roots() const { return Roots; }
  /// The closest block dominating both; null when there is none (a block
  /// outside the tree, or only the virtual exit post-dominates both).
  BasicBlock *nearestCommonDominator(const BasicBlock *A, const BasicBlock *B) const;
  /// Depth in the tree: 0 for a root; ~0u outside the tree.
  unsigned level(const BasicBlock *B) const;

  /// Blocks in layout order (what the indices below refer to).
  const std::vector<BasicBlock *> &blocks() const { return Blocks; }

  /// One line per block: `name: idom <name|-|exit>`.
  void print(llvm::raw_ostream &OS) const;

protected:
  DominatorTreeBase(Function &F, bool PostDom);

private:
  static constexpr int None = -1;   ///< root of the tree, or outside it
  static constexpr unsigned Unreached = ~0u;

  void compute();
  int indexOf(const BasicBlock *B) const;

  const Function *Fn;
  bool Post;
  std::vector<BasicBlock *> Blocks;
  llvm::DenseMap<const BasicBlock *, unsigned> Index;
  /// Per block: immediate dominator index, None for a root or outside.
  std::vector<int> IDom;
  std::vector<unsigned> Level, DFSIn, DFSOut;
  std::vector<std::vector<BasicBlock *>> Children;
  std::vector<BasicBlock *> Roots;
  std::vector<BasicBlock *> NoChildren;
};

class DominatorTree : public DominatorTreeBase {
public:
  explicit DominatorTree(Function &F) : DominatorTreeBase(F, /*PostDom=*/false) {}
  /// The entry block; null for a function without blocks.
  BasicBlock *root() const { return roots().empty() ? nullptr : roots().front(); }
};

class PostDominatorTree : public DominatorTreeBase {
public:
  explicit PostDominatorTree(Function &F);
  /// Blocks without successors, which the virtual exit joins.
  const std::vector<BasicBlock *> &exitBlocks() const { return Exits; }

private:
  std::vector<BasicBlock *> Exits;
};

/// The trees over a function's edges: errors when its CFG is not valid.
struct DominatorTreeAnalysis {
  static AnalysisKey Key;
  using Result = DominatorTree;
  llvm::Expected<Result> run(Function &F, AnalysisManager &AM);
};

struct PostDominatorTreeAnalysis {
  static AnalysisKey Key;
  using Result = PostDominatorTree;
  llvm::Expected<Result> run(Function &F, AnalysisManager &AM);
};

} // namespace stinkytofu

#endif
