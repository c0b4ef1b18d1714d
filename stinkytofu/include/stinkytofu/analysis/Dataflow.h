//===- Dataflow.h - Worklist dataflow over one function's CFG ----*- C++ -*-===//
//
// The one fixed-point solver the register analyses share. An analysis
// derives from DataflowAnalysis<Analysis, State, Direction> (CRTP: the hooks
// are bound at compile time, so there is no virtual call per instruction)
// and provides
//
//   State initialState() const;
//       the value every block starts from before anything is known; it must
//       be the identity of join (empty set for "may", full set for "must").
//   void join(State &Into, const State &From) const;
//       merges the state of one more path where control flow meets.
//   void transfer(const Instruction &I, State &S) const;
//       one instruction in the direction of the analysis: forward, S comes
//       in as the state before I and leaves as the state after it;
//       backward, the other way round.
//
// and, where the default (in parentheses) does not fit:
//
//   State entryState() const;                          (initialState())
//       forward: what holds when the function is entered; joined into the
//       state at the start of its first block with that block's
//       predecessors.
//   State exitState(const BasicBlock &BB) const;       (initialState())
//       backward: what holds at the end of a block with no successor in
//       the function (a program end, a return, a branch the CFG builder
//       could not follow).
//   State unreachedState(const BasicBlock &BB) const;  (initialState())
//       forward: where a block other than the first has no predecessor.
//   const State &transferEdge(const BasicBlock &From, const BasicBlock &To,
//                             const State &Out, State &Scratch) const;
//                                                      (Out)
//       forward: the state \p Out leaving From as it enters To along their
//       edge. Returns Out when the edge changes nothing, else fills and
//       returns Scratch (which run() may move from: fill it anew each
//       time): a path-sensitive analysis adds what the branch taken says
//       and drops the paths it contradicts.
//   void joinOutsideEdge(const BasicBlock &BB, const BasicBlock &Other,
//                        State &S) const;              (ignore the edge)
//       an edge between BB and a block of another function, in the
//       direction the states flow (forward: Other precedes BB; backward:
//       Other follows BB).
//   void transferCall(const Instruction &I, State &S) const;   (transfer)
//       an instruction with IF_Call: the callee runs before the next one.
//   void transferOpaque(const Instruction &I, State &S) const; (transfer)
//       an instruction MC did not describe (isOpaqueInstruction).
//   void transferBlock(const BasicBlock &BB, State &S) const;
//                                                (step() per instruction)
//       a whole block in run(), to the same state as step() would give: an
//       analysis may note what it sees on the way.
//   bool reuseTransfer(const BasicBlock &BB, const State &In,
//                      State &Out) const;                  (false)
//   void noteTransfer(const BasicBlock &BB, const State &In,
//                     const State &Out) const;             (nothing)
//       block transfers kept from earlier runs: reuseTransfer sets Out to
//       what transferring BB from In gives and returns true when it knows
//       that; noteTransfer sees every transfer made.
//
// State needs copy, move and ==. Only CFG edges count (run the CFG builder
// first); the function's first block is its entry.
//
// run() visits blocks from a worklist until no block's outgoing state
// changes. For monotone transfers over a lattice of finite height the
// result is the least fixed point above the initial states, whatever the
// order of the visits: a hand-written loop that starts from the same states
// and converges finds the same answer. run() can be given a limit on block
// visits; reaching it is an error, not an abort, and leaves the states of
// the last visits in place. A join that is not monotone (trace partitions
// merged at their cap, PathPartitions.h) can make a loop's states alternate
// forever; so once a block has been visited AccumulateAfterVisits times, the
// state flowing into it is joined into the one it had instead of replacing
// it. For a monotone analysis that changes nothing: its incoming states
// only grow.
//
// Only the block states are kept. The state around an instruction is
// recomputed from its block's state on request (stateBefore, stateAfter),
// or computed and kept for a whole block (blockStates), so a large kernel
// holds one state per instruction only where a client asks for it.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_ANALYSIS_DATAFLOW_H
#define STINKYTOFU_ANALYSIS_DATAFLOW_H

#include "stinkytofu/ir/Function.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"
#include <algorithm>
#include <cassert>
#include <memory>
#include <vector>

namespace stinkytofu {

enum class DataflowDirection { Forward, Backward };

/// A statement MC rejected (kept with --allow-unknown-instructions) or one
/// whose facts say nothing reliable: analyses must assume the worst of it.
inline bool isOpaqueInstruction(const Instruction &I) {
  return I.kind() == InstKind::Opaque || I.facts().has(IF_Opaque);
}

template <typename AnalysisT, typename StateT, DataflowDirection Direction>
class DataflowAnalysis {
public:
  using State = StateT;
  static constexpr bool IsForward = Direction == DataflowDirection::Forward;
  /// A visit limit of run() that means none.
  static constexpr unsigned Unlimited = 0;
  /// Visits of one block after which its incoming states accumulate (file
  /// comment): late enough that the outputs of the test and corpus kernels
  /// whose analyses converged without it stay byte-identical.
  static constexpr unsigned AccumulateAfterVisits = 32;

  /// Takes the blocks and the CFG edges of \p F as they are now; run()
  /// computes the states.
  explicit DataflowAnalysis(const Function &F) : Fn(&F) {
    for (const BasicBlock &BB : F.blocks()) {
      Numbers[&BB] = Blocks.size();
      Blocks.push_back(&BB);
    }
    const unsigned N = Blocks.size();
    Upstream.resize(N);
    Downstream.resize(N);
    OutsideUpstream.resize(N);
    for (unsigned B = 0; B < N; ++B) {
      for (const BasicBlock *Succ : Blocks[B]->successors()) {
        auto It = Numbers.find(Succ);
        if (It == Numbers.end()) {
          if (!IsForward)
            OutsideUpstream[B].push_back(Succ);
          continue;
        }
        unsigned From = IsForward ? B : It->second, To = IsForward ? It->second : B;
        Downstream[From].push_back(To);
        Upstream[To].push_back(From);
      }
      if (IsForward)
        for (const BasicBlock *Pred : Blocks[B]->predecessors())
          if (!Numbers.contains(Pred))
            OutsideUpstream[B].push_back(Pred);
    }
  }

  /// Iterates to the fixed point. With \p MaxBlockVisits (not Unlimited),
  /// fails once that many block transfers have not reached it.
  llvm::Error run(unsigned MaxBlockVisits = Unlimited) {
    const unsigned N = Blocks.size();
    Entering.assign(N, analysis().initialState());
    Leaving.assign(N, analysis().initialState());
    InstructionStates.clear();
    InstructionStates.resize(N);
    Visits = 0;
    std::vector<unsigned> BlockVisits(N, 0);
    // A stack popped from the back, filled so that the first block in the
    // direction of the analysis comes first: states then mostly flow the
    // way the blocks are visited, and few blocks need a second visit.
    std::vector<unsigned> Work;
    std::vector<bool> Queued(N, true);
    for (unsigned K = 0; K < N; ++K)
      Work.push_back(IsForward ? N - 1 - K : K);
    // Assigned, not constructed, in every visit: a state that owns memory
    // (a BitVector) keeps its buffer from one visit to the next.
    State S = analysis().initialState();
    while (!Work.empty()) {
      if (MaxBlockVisits != Unlimited && Visits == MaxBlockVisits)
        return llvm::createStringError(
            llvm::inconvertibleErrorCode(),
            "dataflow over function '" + Fn->name() + "' reached no fixed point in " +
                llvm::Twine(MaxBlockVisits) + " block visits");
      unsigned B = Work.back();
      Work.pop_back();
      Queued[B] = false;
      ++Visits;
      if (++BlockVisits[B] > AccumulateAfterVisits) {
        computeIncoming(B, S);
        analysis().join(Entering[B], S);
      } else {
        computeIncoming(B, Entering[B]);
      }
      if (!analysis().reuseTransfer(*Blocks[B], Entering[B], S)) {
        S = Entering[B];
        analysis().transferBlock(*Blocks[B], S);
        analysis().noteTransfer(*Blocks[B], Entering[B], S);
      }
      if (S == Leaving[B])
        continue;
      std::swap(S, Leaving[B]);
      for (unsigned Next : Downstream[B])
        if (!Queued[Next]) {
          Queued[Next] = true;
          Work.push_back(Next);
        }
    }
    return llvm::Error::success();
  }

  /// The blocks of the function in layout order.
  llvm::ArrayRef<const BasicBlock *> blocks() const { return Blocks; }
  bool contains(const BasicBlock &BB) const { return Numbers.contains(&BB); }
  /// Block transfers the last run() made.
  unsigned blockVisits() const { return Visits; }

  // The states below are in program order, whatever the direction: "in" is
  // at the start of a block, "before" is before an instruction. Blocks and
  // instructions must belong to the function.

  const State &stateIn(const BasicBlock &BB) const {
    return IsForward ? Entering[number(BB)] : Leaving[number(BB)];
  }
  const State &stateOut(const BasicBlock &BB) const {
    return IsForward ? Leaving[number(BB)] : Entering[number(BB)];
  }
  /// Recomputed from the block state at each call; nothing is kept.
  State stateBefore(const Instruction &I) const { return replayTo(I, /*Before=*/true); }
  State stateAfter(const Instruction &I) const { return replayTo(I, /*Before=*/false); }
  /// The state before each instruction of \p BB, then its state at the end
  /// (one more entry than instructions). Computed on the first request for
  /// the block and kept until the next run().
  const std::vector<State> &blockStates(const BasicBlock &BB) const {
    std::unique_ptr<std::vector<State>> &Kept = InstructionStates[number(BB)];
    if (!Kept) {
      auto States = std::make_unique<std::vector<State>>();
      // Growing would copy every state (llvm::BitVector's move may throw,
      // so std::vector does not move it).
      States->reserve(BB.instructions().size() + 1);
      State S = IsForward ? stateIn(BB) : stateOut(BB);
      States->push_back(S);
      forEachInDirection(BB, [&](const Instruction &I) {
        step(I, S);
        States->push_back(S);
        return false;
      });
      if (!IsForward)
        std::reverse(States->begin(), States->end());
      Kept = std::move(States);
    }
    return *Kept;
  }

  /// One instruction through the hook that fits it.
  void step(const Instruction &I, State &S) const {
    if (isOpaqueInstruction(I))
      analysis().transferOpaque(I, S);
    else if (I.facts().has(IF_Call))
      analysis().transferCall(I, S);
    else
      analysis().transfer(I, S);
  }

protected:
  // Defaults of the optional hooks (see the file comment); an analysis
  // hides the ones it needs with members of the same name.
  State entryState() const { return analysis().initialState(); }
  State exitState(const BasicBlock &) const { return analysis().initialState(); }
  State unreachedState(const BasicBlock &) const { return analysis().initialState(); }
  const State &transferEdge(const BasicBlock &, const BasicBlock &, const State &Out,
                            State &) const {
    return Out;
  }
  void joinOutsideEdge(const BasicBlock &, const BasicBlock &, State &) const {}
  void transferCall(const Instruction &I, State &S) const { analysis().transfer(I, S); }
  void transferOpaque(const Instruction &I, State &S) const { analysis().transfer(I, S); }
  bool reuseTransfer(const BasicBlock &, const State &, State &) const { return false; }
  void noteTransfer(const BasicBlock &, const State &, const State &) const {}
  void transferBlock(const BasicBlock &BB, State &S) const {
    forEachInDirection(BB, [&](const Instruction &I) {
      step(I, S);
      return false;
    });
  }

  const AnalysisT &analysis() const { return static_cast<const AnalysisT &>(*this); }

private:
  unsigned number(const BasicBlock &BB) const {
    auto It = Numbers.find(&BB);
    assert(It != Numbers.end() && "block of another function");
    return It->second;
  }

  /// Calls \p Visit on the instructions of \p BB in the direction of the
  /// analysis until it returns true.
  template <typename VisitT> static void forEachInDirection(const BasicBlock &BB, VisitT Visit) {
    if constexpr (IsForward) {
      for (const Instruction &I : BB.instructions())
        if (Visit(I))
          return;
    } else {
      for (const Instruction &I : llvm::reverse(BB.instructions()))
        if (Visit(I))
          return;
    }
  }

  /// Sets \p S to the state flowing into block \p B: the join of the
  /// blocks upstream (forward: predecessors; backward: successors), with
  /// the function's entry or exit where the block is one.
  void computeIncoming(unsigned B, State &S) const {
    const BasicBlock &BB = *Blocks[B];
    llvm::ArrayRef<unsigned> From = Upstream[B];
    auto Along = [&](unsigned Other) -> const State & {
      if constexpr (IsForward)
        return analysis().transferEdge(*Blocks[Other], BB, Leaving[Other], EdgeScratch);
      else
        return Leaving[Other];
    };
    if (IsForward && B == 0) {
      S = analysis().entryState();
    } else if (From.empty()) {
      S = IsForward ? analysis().unreachedState(BB) : analysis().exitState(BB);
    } else {
      // A state the edge changed is the scratch's, to be refilled: taken.
      const State &First = Along(From.front());
      if (&First == &EdgeScratch)
        S = std::move(EdgeScratch);
      else
        S = First;
      From = From.drop_front();
    }
    for (unsigned Other : From)
      analysis().join(S, Along(Other));
    for (const BasicBlock *Other : OutsideUpstream[B])
      analysis().joinOutsideEdge(BB, *Other, S);
  }

  /// The state before \p I or after it, replayed from its block's state.
  State replayTo(const Instruction &I, bool Before) const {
    const BasicBlock &BB = *I.parent();
    State S = IsForward ? stateIn(BB) : stateOut(BB);
    // The walk meets the side of I it starts from first: before I going
    // forward, after it going backward.
    const bool StopAhead = Before == IsForward;
    bool Found = false;
    forEachInDirection(BB, [&](const Instruction &J) {
      Found = &J == &I;
      if (!(Found && StopAhead))
        step(J, S);
      return Found;
    });
    assert(Found && "instruction not in its parent block");
    return S;
  }

  const Function *Fn;
  std::vector<const BasicBlock *> Blocks;
  llvm::DenseMap<const BasicBlock *, unsigned> Numbers;
  /// Per block, in the direction of the analysis: the blocks whose states
  /// flow into it and the blocks its state flows to (both of this
  /// function), and the blocks of other functions that flow into it.
  std::vector<llvm::SmallVector<unsigned, 2>> Upstream, Downstream;
  std::vector<llvm::SmallVector<const BasicBlock *, 1>> OutsideUpstream;
  /// Per block: the state where control enters it in the direction of the
  /// analysis (forward: at its start), and where it leaves.
  std::vector<State> Entering, Leaving;
  mutable std::vector<std::unique_ptr<std::vector<State>>> InstructionStates;
  /// Where transferEdge writes a state it changes (kept across visits).
  mutable State EdgeScratch;
  unsigned Visits = 0;
};

} // namespace stinkytofu

#endif
