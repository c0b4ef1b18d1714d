//===- LoopInfo.h - Natural loops of a function ------------------*- C++ -*-===//
//
// Natural loops found from back edges: an edge B -> H whose target H
// dominates its source B. The loop of H holds H and every block that reaches
// a back-edge source without passing through H; back edges sharing a header
// form one loop. Loops nest by containment. Cycles entered at more than one
// block (irreducible control flow) have no dominating header and are not
// loops here.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_ANALYSIS_LOOPINFO_H
#define STINKYTOFU_ANALYSIS_LOOPINFO_H

#include "stinkytofu/analysis/DominatorTree.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/raw_ostream.h"
#include <memory>
#include <vector>

namespace stinkytofu {

class Loop {
public:
  BasicBlock *header() const { return Header; }
  /// The header first, then the other blocks in layout order.
  const std::vector<BasicBlock *> &blocks() const { return Blocks; }
  size_t size() const { return Blocks.size(); }
  bool contains(const BasicBlock *B) const { return Members.count(B); }
  /// \p L is this loop or nested in it.
  bool contains(const Loop *L) const;
  /// Sources of the back edges to the header, in layout order.
  const std::vector<BasicBlock *> &latches() const { return Latches; }
  /// Blocks in the loop with a successor outside it, in layout order.
  std::vector<BasicBlock *> exitingBlocks() const;
  /// Blocks outside the loop reached from inside it, in layout order.
  std::vector<BasicBlock *> exitBlocks() const;
  /// The only predecessor of the header from outside the loop, if it has
  /// the header as its only successor; null otherwise.
  BasicBlock *preheader() const;

  Loop *parentLoop() const { return Parent; }
  /// Loops nested directly in this one, in the layout order of their headers.
  const std::vector<Loop *> &subLoops() const { return SubLoops; }
  /// 1 for an outermost loop.
  unsigned depth() const { return Depth; }

private:
  friend class LoopInfo;
  BasicBlock *Header = nullptr;
  std::vector<BasicBlock *> Blocks, Latches;
  llvm::SmallPtrSet<const BasicBlock *, 16> Members;
  Loop *Parent = nullptr;
  std::vector<Loop *> SubLoops;
  unsigned Depth = 1;
};

class LoopInfo {
public:
  LoopInfo(Function &F, const DominatorTree &DT);

  /// Outermost loops, in the layout order of their headers.
  const std::vector<Loop *> &topLevelLoops() const { return TopLevel; }
  /// Every loop, outer loops before the loops they contain.
  std::vector<Loop *> loopsInPreorder() const;
  size_t numLoops() const { return Loops.size(); }
  bool empty() const { return Loops.empty(); }

  /// The innermost loop holding \p B; null when it is in none.
  Loop *loopFor(const BasicBlock *B) const { return InnerMost.lookup(B); }
  /// How many loops hold \p B (0 outside every loop).
  unsigned loopDepth(const BasicBlock *B) const;
  bool isLoopHeader(const BasicBlock *B) const;
  /// B -> H is a back edge: H dominates B and H is a successor of B.
  bool isBackEdge(const BasicBlock *B, const BasicBlock *H) const;

  /// One line per loop: `loop <header> depth <d>: <blocks>`.
  void print(llvm::raw_ostream &OS) const;

private:
  std::vector<std::unique_ptr<Loop>> Loops; // headers in layout order
  std::vector<Loop *> TopLevel;
  llvm::DenseMap<const BasicBlock *, Loop *> InnerMost;
  llvm::DenseMap<std::pair<const BasicBlock *, const BasicBlock *>, bool> BackEdges;
};

/// The loops of a function: an error when its CFG is not valid.
struct LoopAnalysis {
  static AnalysisKey Key;
  using Result = LoopInfo;
  llvm::Expected<Result> run(Function &F, AnalysisManager &AM);
};

} // namespace stinkytofu

#endif
