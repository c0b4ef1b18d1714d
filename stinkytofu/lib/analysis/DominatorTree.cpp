//===- DominatorTree.cpp - Dominators and post-dominators of blocks -------===//
#include "stinkytofu/analysis/DominatorTree.h"
#include <algorithm>

using namespace llvm;

namespace stinkytofu {

AnalysisKey DominatorTreeAnalysis::Key;
AnalysisKey PostDominatorTreeAnalysis::Key;

DominatorTreeBase::DominatorTreeBase(Function &F, bool PostDom) : Fn(&F), Post(PostDom) {
  for (BasicBlock &BB : F.blocks()) {
    Index[&BB] = Blocks.size();
    Blocks.push_back(&BB);
  }
  compute();
}

int DominatorTreeBase::indexOf(const BasicBlock *B) const {
  auto It = Index.find(B);
  return It == Index.end() ? None : int(It->second);
}

void DominatorTreeBase::compute() {
  const unsigned N = Blocks.size();
  // Node N is the virtual exit of the post-dominator tree.
  const unsigned Total = Post ? N + 1 : N;
  IDom.assign(N, None);
  Level.assign(N, Unreached);
  DFSIn.assign(N, Unreached);
  DFSOut.assign(N, Unreached);
  Children.assign(N, {});
  Roots.clear();
  if (N == 0)
    return;
  const unsigned Root = Post ? N : 0;

  // The graph in the direction of the analysis: forward edges for
  // dominators, reversed edges (plus the virtual exit) for post-dominators.
  std::vector<std::vector<unsigned>> Succ(Total), Pred(Total);
  auto AddEdge = [&](unsigned From, unsigned To) {
    Succ[From].push_back(To);
    Pred[To].push_back(From);
  };
  for (unsigned I = 0; I < N; ++I) {
    bool AnySucc = false;
    for (BasicBlock *S : Blocks[I]->successors()) {
      int J = indexOf(S);
      if (J == None)
        continue; // an edge out of the function: not part of this graph
      AnySucc = true;
      if (Post)
        AddEdge(unsigned(J), I);
      else
        AddEdge(I, unsigned(J));
    }
    if (Post && !AnySucc)
      AddEdge(Root, I);
  }

  // Post-order numbers of the nodes reachable from the root.
  std::vector<unsigned> PONum(Total, Unreached);
  std::vector<unsigned> RPO;
  RPO.reserve(Total);
  {
    std::vector<bool> Seen(Total, false);
    std::vector<std::pair<unsigned, unsigned>> Stack{{Root, 0}};
    Seen[Root] = true;
    unsigned Counter = 0;
    while (!Stack.empty()) {
      auto &[Node, Next] = Stack.back();
      if (Next < Succ[Node].size()) {
        unsigned S = Succ[Node][Next++];
        if (!Seen[S]) {
          Seen[S] = true;
          Stack.push_back({S, 0});
        }
        continue;
      }
      PONum[Node] = Counter++;
      RPO.push_back(Node);
      Stack.pop_back();
    }
    std::reverse(RPO.begin(), RPO.end());
  }

  // Cooper-Harvey-Kennedy: iterate to a fixed point in reverse post-order.
  std::vector<int> D(Total, None);
  D[Root] = int(Root);
  auto Intersect = [&](unsigned A, unsigned B) {
    while (A != B) {
      while (PONum[A] < PONum[B])
        A = unsigned(D[A]);
      while (PONum[B] < PONum[A])
        B = unsigned(D[B]);
    }
    return A;
  };
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (unsigned Node : RPO) {
      if (Node == Root)
        continue;
      int New = None;
      for (unsigned P : Pred[Node]) {
        if (D[P] == None)
          continue; // not processed yet (or unreachable)
        New = New == None ? int(P) : int(Intersect(P, unsigned(New)));
      }
      if (New != D[Node]) {
        D[Node] = New;
        Changed = true;
      }
    }
  }

  for (unsigned I = 0; I < N; ++I) {
    if (D[I] == None || I == Root)
      continue;
    IDom[I] = D[I] == int(N) && Post ? None : D[I];
  }
  auto InTree = [&](unsigned I) { return D[I] != None; };
  for (unsigned I = 0; I < N; ++I) {
    if (!InTree(I))
      continue;
    if (IDom[I] == None)
      Roots.push_back(Blocks[I]);
    else
      Children[IDom[I]].push_back(Blocks[I]);
  }

  // Levels and DFS intervals of the tree, for O(1) dominance queries.
  unsigned Clock = 0;
  for (BasicBlock *R : Roots) {
    unsigned RI = Index.lookup(R);
    Level[RI] = 0;
    std::vector<std::pair<unsigned, unsigned>> Stack{{RI, 0}};
    DFSIn[RI] = Clock++;
    while (!Stack.empty()) {
      auto &[Node, Next] = Stack.back();
      if (Next < Children[Node].size()) {
        unsigned C = Index.lookup(Children[Node][Next++]);
        Level[C] = Level[Node] + 1;
        DFSIn[C] = Clock++;
        Stack.push_back({C, 0});
        continue;
      }
      DFSOut[Node] = Clock++;
      Stack.pop_back();
    }
  }
}

bool DominatorTreeBase::isReachable(const BasicBlock *B) const {
  int I = indexOf(B);
  return I != None && DFSIn[I] != Unreached;
}

bool DominatorTreeBase::dominates(const BasicBlock *A, const BasicBlock *B) const {
  if (A == B)
    return true;
  int IA = indexOf(A), IB = indexOf(B);
  if (IA == None || IB == None || DFSIn[IA] == Unreached || DFSIn[IB] == Unreached)
    return false;
  return DFSIn[IA] <= DFSIn[IB] && DFSOut[IB] <= DFSOut[IA];
}

bool DominatorTreeBase::dominates(const Instruction &A, const Instruction &B) const {
  if (&A == &B)
    return true;
  const BasicBlock *BA = A.parent(), *BB = B.parent();
  if (BA != BB)
    return properlyDominates(BA, BB);
  if (!isReachable(BA))
    return false;
  // A first: A dominates B, B post-dominates A.
  return A.comesBefore(B) ? !Post : Post;
}

BasicBlock *DominatorTreeBase::immediateDominator(const BasicBlock *B) const {
  int I = indexOf(B);
  if (I == None || IDom[I] == None)
    return nullptr;
  return Blocks[IDom[I]];
}

const std::vector<BasicBlock *> &DominatorTreeBase::children(const BasicBlock *B) const {
  int I = indexOf(B);
  return I == None ? NoChildren : Children[I];
}

unsigned DominatorTreeBase::level(const BasicBlock *B) const {
  int I = indexOf(B);
  return I == None ? Unreached : Level[I];
}

BasicBlock *DominatorTreeBase::nearestCommonDominator(const BasicBlock *A,
                                                      const BasicBlock *B) const {
  if (!isReachable(A) || !isReachable(B))
    return nullptr;
  int IA = indexOf(A), IB = indexOf(B);
  while (IA != IB) {
    if (IA == None || IB == None)
      return nullptr;
    if (Level[IA] >= Level[IB])
      IA = IDom[IA];
    else
      IB = IDom[IB];
  }
  return Blocks[IA];
}

void DominatorTreeBase::print(raw_ostream &OS) const {
  auto Name = [&](unsigned I) -> std::string {
    const BasicBlock *B = Blocks[I];
    if (!B->name().empty())
      return B->name().str();
    if (B->hasLabel())
      return B->label().str();
    return "bb" + std::to_string(I);
  };
  for (unsigned I = 0; I < Blocks.size(); ++I) {
    OS << Name(I) << ": " << (Post ? "ipdom " : "idom ");
    if (DFSIn[I] == Unreached)
      OS << "<unreachable>";
    else if (IDom[I] != None)
      OS << Name(IDom[I]);
    else
      OS << (Post ? "<exit>" : "<root>");
    OS << "\n";
  }
}

PostDominatorTree::PostDominatorTree(Function &F) : DominatorTreeBase(F, /*PostDom=*/true) {
  for (BasicBlock *B : blocks()) {
    bool AnySucc = false;
    for (BasicBlock *S : B->successors())
      AnySucc |= S->parent() == &F;
    if (!AnySucc)
      Exits.push_back(B);
  }
}

Expected<DominatorTree> DominatorTreeAnalysis::run(Function &F, AnalysisManager &) {
  if (Error E = requireValidCFG(F, "the dominator tree"))
    return std::move(E);
  return DominatorTree(F);
}

Expected<PostDominatorTree> PostDominatorTreeAnalysis::run(Function &F, AnalysisManager &) {
  if (Error E = requireValidCFG(F, "the post-dominator tree"))
    return std::move(E);
  return PostDominatorTree(F);
}

} // namespace stinkytofu
