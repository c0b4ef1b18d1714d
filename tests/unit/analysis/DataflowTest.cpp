//===- DataflowTest.cpp - The worklist dataflow framework -----------------===//
//
// Small analyses written against Dataflow.h, run over parsed kernels with
// loops, joins, calls and opaque statements: the block states they reach,
// the hooks, the visit limit, and per-instruction states recomputed on
// request against the ones kept per block.
//
//===----------------------------------------------------------------------===//
#include "analysis/AnalysisTestModules.h"
#include "stinkytofu/analysis/Dataflow.h"
#include "stinkytofu/analysis/RegisterUnits.h"
#include "stinkytofu/ir/BranchVocabulary.h"

#include "llvm/Support/Error.h"
#include "gtest/gtest.h"

#include <algorithm>
#include <climits>
#include <string>

using namespace stinkytofu;
using namespace stinkytofu::analysistest;
using llvm::BitVector;
using llvm::MCRegister;

namespace {

/// Backward: the fewest instructions from a point to the end of the wave, a
/// call counting 10 and an opaque statement 100. Min where paths meet. The
/// end of the program is 0 away, a return 1000 (the caller's code), and an
/// edge into another function 50.
class DistanceToExit
    : public DataflowAnalysis<DistanceToExit, unsigned, DataflowDirection::Backward> {
public:
  static constexpr unsigned Never = UINT_MAX;
  using DataflowAnalysis::DataflowAnalysis;

  unsigned initialState() const { return Never; }
  void join(unsigned &Into, unsigned From) const { Into = std::min(Into, From); }
  void transfer(const Instruction &, unsigned &D) const { add(D, 1); }
  void transferCall(const Instruction &, unsigned &D) const { add(D, 10); }
  void transferOpaque(const Instruction &, unsigned &D) const { add(D, 100); }
  unsigned exitState(const BasicBlock &BB) const {
    return !BB.empty() && isProgramEnd(BB.instructions().back()) ? 0 : 1000;
  }
  void joinOutsideEdge(const BasicBlock &, const BasicBlock &, unsigned &D) const {
    join(D, 50);
  }

private:
  static void add(unsigned &D, unsigned N) { D = D == Never ? Never : D + N; }
};

/// Forward must-analysis: the register units written on every path from
/// the entry. A call also writes s40 (standing in for its callee); an
/// opaque statement makes everything unknown again.
class SurelyWritten
    : public DataflowAnalysis<SurelyWritten, BitVector, DataflowDirection::Forward> {
public:
  SurelyWritten(const Function &F, const RegisterUnits &RU) : DataflowAnalysis(F), RU(RU) {}

  BitVector initialState() const { return RU.all(); }
  BitVector entryState() const { return RU.none(); }
  void join(BitVector &Into, const BitVector &From) const { Into &= From; }
  void transfer(const Instruction &I, BitVector &W) const {
    for (MCRegister R : I.facts().Defs)
      RU.set(W, R);
  }
  void transferCall(const Instruction &I, BitVector &W) const {
    transfer(I, W);
    RU.set(W, RU.target().reg32(RegClass::SGPR, 40));
  }
  void transferOpaque(const Instruction &, BitVector &W) const { W.reset(); }

private:
  const RegisterUnits &RU;
};

/// Forward: the most instructions on a path from the entry. It has no
/// fixed point when the function has a loop.
class LongestPath
    : public DataflowAnalysis<LongestPath, unsigned, DataflowDirection::Forward> {
public:
  using DataflowAnalysis::DataflowAnalysis;
  unsigned initialState() const { return 0; }
  void join(unsigned &Into, unsigned From) const { Into = std::max(Into, From); }
  void transfer(const Instruction &, unsigned &N) const { ++N; }
};

/// A diamond whose arms write s1, one of them s2 too.
const char *const DiamondKernel = R"(
k:
  s_mov_b32 s0, 0
  s_cmp_eq_u32 s4, 0
  s_cbranch_scc1 L_else
L_then:
  s_mov_b32 s1, 1
  s_mov_b32 s2, 2
  s_branch L_join
L_else:
  s_mov_b32 s1, 3
L_join:
  s_add_u32 s3, s1, s0
  s_endpgm
)";

/// A loop around a call, skipped when s4 is zero.
const char *const LoopCallKernel = R"(
k:
  s_mov_b32 s0, 0
  s_cmp_eq_u32 s4, 0
  s_cbranch_scc1 L_skip
L_loop:
  s_add_u32 s0, s0, 1
  s_getpc_b64 s[6:7]
  s_swappc_b64 s[30:31], s[6:7]
  s_cmp_lt_u32 s0, 10
  s_cbranch_scc1 L_loop
L_skip:
  s_nop 0
  s_endpgm
)";

std::string describe(const RegisterUnits &RU, const BitVector &BV) { return RU.describe(BV); }

/// stateBefore/stateAfter of every instruction, recomputed each time, are
/// the states blockStates() keeps, and those start and end at the block's.
template <typename AnalysisT> void expectLazyEqualsKept(const AnalysisT &A) {
  for (const BasicBlock *BB : A.blocks()) {
    const auto &Kept = A.blockStates(*BB);
    ASSERT_EQ(Kept.size(), BB->instructions().size() + 1);
    EXPECT_TRUE(Kept.front() == A.stateIn(*BB));
    EXPECT_TRUE(Kept.back() == A.stateOut(*BB));
    size_t K = 0;
    for (const Instruction &I : BB->instructions()) {
      EXPECT_TRUE(A.stateBefore(I) == Kept[K]) << "before instruction " << K;
      EXPECT_TRUE(A.stateAfter(I) == Kept[K + 1]) << "after instruction " << K;
      ++K;
    }
  }
}

TEST(DataflowTest, ForwardMustAnalysisMeetsAtJoin) {
  auto M = readModule(DiamondKernel);
  ASSERT_TRUE(M);
  RegisterUnits RU(M->target());
  SurelyWritten A(*M->entry(), RU);
  ASSERT_FALSE(llvm::errorToBool(A.run()));
  EXPECT_EQ(describe(RU, A.stateIn(*blockOf(*M, "k"))), "");
  EXPECT_EQ(describe(RU, A.stateIn(*blockOf(*M, "L_then"))), "scc s0");
  EXPECT_EQ(describe(RU, A.stateOut(*blockOf(*M, "L_then"))), "scc s0 s1 s2");
  EXPECT_EQ(describe(RU, A.stateOut(*blockOf(*M, "L_else"))), "scc s0 s1");
  // s2 is written on one arm only.
  EXPECT_EQ(describe(RU, A.stateIn(*blockOf(*M, "L_join"))), "scc s0 s1");
  EXPECT_EQ(describe(RU, A.stateOut(*blockOf(*M, "L_join"))), "scc s0 s1 s3");
  // Per instruction, recomputed from the block state.
  Instruction *Add = instOf(*M, "s_add_u32");
  EXPECT_EQ(describe(RU, A.stateBefore(*Add)), "scc s0 s1");
  EXPECT_EQ(describe(RU, A.stateAfter(*Add)), "scc s0 s1 s3");
  EXPECT_EQ(describe(RU, A.stateAfter(*instOf(*M, "s_mov_b32", 1))), "scc s0 s1");
  expectLazyEqualsKept(A);
}

TEST(DataflowTest, ForwardOverLoopAndCall) {
  auto M = readModule(LoopCallKernel);
  ASSERT_TRUE(M);
  RegisterUnits RU(M->target());
  SurelyWritten A(*M->entry(), RU);
  ASSERT_FALSE(llvm::errorToBool(A.run()));
  // The loop header is entered from k and from its own back edge: only
  // what k wrote is sure there.
  EXPECT_EQ(describe(RU, A.stateIn(*blockOf(*M, "L_loop"))), "scc s0");
  // The call hook adds s40 to the call's own defs.
  Instruction *Call = instOf(*M, "s_swappc_b64");
  EXPECT_EQ(describe(RU, A.stateBefore(*Call)), "scc s0 s6 s7");
  EXPECT_EQ(describe(RU, A.stateAfter(*Call)), "scc s0 s6 s7 s30 s31 s40");
  // L_skip is reached from k too, past the loop.
  EXPECT_EQ(describe(RU, A.stateIn(*blockOf(*M, "L_skip"))), "scc s0");
  expectLazyEqualsKept(A);
}

TEST(DataflowTest, OpaqueHook) {
  ReadOptions Opts;
  Opts.AllowUnknown = true;
  auto M = readModule(R"(
k:
  s_mov_b32 s0, 0
  v_not_an_instruction v1
  s_mov_b32 s1, 0
  s_endpgm
)",
                      Opts);
  ASSERT_TRUE(M);
  RegisterUnits RU(M->target());
  SurelyWritten A(*M->entry(), RU);
  ASSERT_FALSE(llvm::errorToBool(A.run()));
  EXPECT_EQ(describe(RU, A.stateOut(*blockOf(*M, "k"))), "s1");
  EXPECT_EQ(describe(RU, A.stateAfter(*instOf(*M, "s_mov_b32"))), "s0");

  DistanceToExit D(*M->entry());
  ASSERT_FALSE(llvm::errorToBool(D.run()));
  EXPECT_EQ(D.stateIn(*blockOf(*M, "k")), 103u); // 1 + 100 + 1 + 1
}

TEST(DataflowTest, BackwardOverLoopAndCall) {
  auto M = readModule(LoopCallKernel);
  ASSERT_TRUE(M);
  DistanceToExit A(*M->entry());
  ASSERT_FALSE(llvm::errorToBool(A.run()));
  EXPECT_EQ(A.stateIn(*blockOf(*M, "L_skip")), 2u);
  // Around the loop once: s_add, s_getpc, the call (10), s_cmp, s_cbranch,
  // then L_skip.
  EXPECT_EQ(A.stateIn(*blockOf(*M, "L_loop")), 16u);
  // Both ways out of k lead to L_skip; the shorter one goes straight there.
  EXPECT_EQ(A.stateOut(*blockOf(*M, "k")), 2u);
  EXPECT_EQ(A.stateIn(*blockOf(*M, "k")), 5u);
  Instruction *Call = instOf(*M, "s_swappc_b64");
  EXPECT_EQ(A.stateAfter(*Call), 4u);
  EXPECT_EQ(A.stateBefore(*Call), 14u);
  expectLazyEqualsKept(A);
}

TEST(DataflowTest, BackwardEdgeIntoAnotherFunction) {
  auto M = readModule(R"(
.type k,@function
k:
  s_mov_b32 s0, 0
  s_mov_b32 s1, 0
  s_setpc_b64 s[30:31]
.type f,@function
f:
  s_endpgm
)");
  ASSERT_TRUE(M);
  Function *K = functionOf(*M, "k");
  DistanceToExit Before(*K);
  ASSERT_FALSE(llvm::errorToBool(Before.run()));
  EXPECT_EQ(Before.stateIn(*blockOf(*M, "k")), 1003u); // three, then the return
  // An edge to f's block (say the s_setpc_b64 target were known) reaches
  // the hook: at most 50 from there.
  blockOf(*M, "k")->addSuccessor(blockOf(*M, "f"), EdgeKind::LongBranch);
  DistanceToExit After(*K);
  ASSERT_FALSE(llvm::errorToBool(After.run()));
  EXPECT_EQ(After.stateOut(*blockOf(*M, "k")), 50u);
  EXPECT_EQ(After.stateIn(*blockOf(*M, "k")), 53u);
}

TEST(DataflowTest, VisitLimitIsAnError) {
  auto M = readModule(CountedLoopKernel);
  ASSERT_TRUE(M);
  LongestPath A(*M->entry());
  llvm::Error E = A.run(/*MaxBlockVisits=*/40);
  ASSERT_TRUE(bool(E));
  EXPECT_EQ(llvm::toString(std::move(E)),
            "dataflow over function 'k' reached no fixed point in 40 block visits");
  EXPECT_EQ(A.blockVisits(), 40u);
}

/// Not monotone: every instruction flips the state (0 or 1), so a loop
/// body with an odd number of instructions turns what enters it around.
class Flip : public DataflowAnalysis<Flip, unsigned, DataflowDirection::Forward> {
public:
  using DataflowAnalysis::DataflowAnalysis;
  unsigned initialState() const { return 0; }
  unsigned entryState() const { return 1; }
  void join(unsigned &Into, unsigned From) const { Into = std::max(Into, From); }
  void transfer(const Instruction &, unsigned &N) const { N = 1 - N; }
};

TEST(DataflowTest, AlternatingStatesAccumulateAndConverge) {
  auto M = readModule(CountedLoopKernel);
  ASSERT_TRUE(M);
  // k leaves 0; the loop's three flips send back 1 for 0 and 0 for 1, so
  // recomputing the loop's incoming state alternates forever. Past the
  // accumulation point the 1 it once had stays, and its back edge brings
  // 0 from then on.
  Flip A(*M->entry());
  ASSERT_FALSE(llvm::errorToBool(A.run(/*MaxBlockVisits=*/1000)));
  EXPECT_GT(A.blockVisits(), Flip::AccumulateAfterVisits);
  EXPECT_LT(A.blockVisits(), Flip::AccumulateAfterVisits + 6);
  EXPECT_EQ(A.stateIn(*blockOf(*M, "L_loop")), 1u);
  EXPECT_EQ(A.stateOut(*blockOf(*M, "L_loop")), 0u);
  EXPECT_EQ(A.stateIn(*blockOf(*M, "L_exit")), 0u);
}

TEST(DataflowTest, VisitLimitNotReached) {
  auto M = readModule(DiamondKernel);
  ASSERT_TRUE(M);
  LongestPath A(*M->entry());
  ASSERT_FALSE(llvm::errorToBool(A.run(/*MaxBlockVisits=*/4)));
  // Blocks laid out in CFG order are each visited once.
  EXPECT_EQ(A.blockVisits(), 4u);
  EXPECT_EQ(A.stateIn(*blockOf(*M, "L_join")), 6u); // k, then L_then's three
  EXPECT_EQ(A.stateOut(*blockOf(*M, "L_join")), 8u);
}

TEST(DataflowTest, LoopConvergesWithinLimit) {
  auto M = readModule(CountedLoopKernel);
  ASSERT_TRUE(M);
  RegisterUnits RU(M->target());
  SurelyWritten A(*M->entry(), RU);
  ASSERT_FALSE(llvm::errorToBool(A.run(/*MaxBlockVisits=*/10)));
  EXPECT_EQ(describe(RU, A.stateIn(*blockOf(*M, "L_loop"))), "s0");
  EXPECT_EQ(describe(RU, A.stateIn(*blockOf(*M, "L_exit"))), "scc s0");
  // The header twice (its back edge changes its state once), the rest once.
  EXPECT_EQ(A.blockVisits(), 4u);
}

} // namespace
