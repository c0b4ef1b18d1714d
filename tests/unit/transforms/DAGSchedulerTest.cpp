//===- DAGSchedulerTest.cpp - List scheduling on the dependence DAG -------===//
#include "analysis/AnalysisTestModules.h"
#include "stinkytofu/analysis/BlockCycleModel.h"
#include "stinkytofu/hw/WaitCounters.h"
#include "stinkytofu/transforms/DAGSchedulerPass.h"

#include "gtest/gtest.h"

using namespace stinkytofu;
using namespace stinkytofu::analysistest;

namespace {

std::vector<unsigned> scheduleOf(Module &M) {
  FunctionDependences Deps(M.functions().front());
  BlockCycleModel Timing(M);
  std::vector<unsigned> Order = listSchedule(Deps.dag(0), Timing);
  EXPECT_TRUE(Deps.dag(0).isTopologicalOrder(Order));
  return Order;
}

TEST(DAGSchedulerTest, LongLatencyWorkIssuesFirst) {
  auto M = readModule(R"(
k:
  v_mov_b32 v5, 1
  v_mov_b32 v6, 2
  global_load_dword v1, v[2:3], off
  v_add_f32 v4, v1, v1
  s_endpgm
)");
  ASSERT_TRUE(M);
  // The load heads the longest path; the moves fill its latency.
  EXPECT_EQ(scheduleOf(*M), (std::vector<unsigned>{2, 0, 1, 3, 4}));
}

TEST(DAGSchedulerTest, MatrixProductsInterleaveWithIndependentWork) {
  auto M = readModule(R"(
k:
  global_load_dword v10, v[8:9], off
  v_mfma_f32_32x32x8f16 a[0:15], v[0:1], v[2:3], a[0:15]
  v_mfma_f32_32x32x8f16 a[16:31], v[0:1], v[2:3], a[16:31]
  v_mov_b32 v11, 1
  v_add_f32_e32 v4, v10, v10
  s_endpgm
)");
  ASSERT_TRUE(M);
  // The load heads the longest path, but the matrix pipe is the busier
  // resource: the first product goes first, the load and the move issue in
  // its passes, the second product when the pipe is free.
  EXPECT_EQ(scheduleOf(*M), (std::vector<unsigned>{1, 0, 3, 2, 4, 5}));
}

TEST(DAGSchedulerTest, AReaderOfAnUndrainedLoadGetsTheInsertersWait) {
  auto M = readModule(R"(
k:
  global_load_dword v1, v[8:9], off
  global_load_dword v4, v[8:9], off offset:4
  v_add_f32_e32 v5, v4, v4
  s_endpgm
)");
  ASSERT_TRUE(M);
  const BasicBlock &BB = M->functions().front().blocks().front();
  BlockCycleModel Timing(*M);
  IssueState State(Timing);
  for (const Instruction &I : BB.instructions())
    State.issue(I);
  // The inserter puts vmcnt(0) in front of the add (the counter drains in
  // order): the scheduler's state costs what the guard's estimate with
  // that wait does, one issue cycle more than the block without it.
  const Instruction &Add = *std::next(BB.instructions().begin(), 2);
  ExpectedWaits Waits;
  CounterModel Counters(M->target());
  WaitCounts Vmcnt;
  std::optional<unsigned> Loads = Counters.counterOf(WaitEvent::VmemLoad);
  ASSERT_TRUE(Loads);
  Vmcnt.require(*Loads, 0);
  Waits.Memory[&Add] = Vmcnt;
  EXPECT_EQ(State.cycles(), Timing.estimate(BB, Waits).Cycles);
  EXPECT_EQ(State.cycles(), Timing.estimate(BB).Cycles + 1);
}

TEST(DAGSchedulerTest, ADependenceChainKeepsItsOrder) {
  auto M = readModule(R"(
k:
  v_mov_b32 v1, 1
  v_add_f32 v2, v1, v1
  v_add_f32 v3, v2, v2
  s_endpgm
)");
  ASSERT_TRUE(M);
  EXPECT_EQ(scheduleOf(*M), (std::vector<unsigned>{0, 1, 2, 3}));
}


TEST(DAGSchedulerTest, ExpectedWaitsCostTheirIssueCycleAndTheMemoryStall) {
  auto M = readModule(R"(
k:
  global_load_dword v1, v[2:3], off
  v_mov_b32 v5, 1
  v_add_f32 v4, v1, v1
  s_endpgm
)");
  ASSERT_TRUE(M);
  const BasicBlock &BB = M->functions().front().blocks().front();
  const Instruction &Add = *std::next(BB.instructions().begin(), 2);
  BlockCycleModel Timing(*M);
  BlockCycles Without = Timing.estimate(BB);
  // The add waits for the load's register either way; with the wait the
  // inserter would put in front of it, the stall is the wait's and the
  // wait costs its issue cycle.
  ExpectedWaits Waits;
  WaitCounts All;
  for (unsigned C = 0; C != MaxWaitCounters; ++C)
    All.require(C, 0);
  Waits.Memory[&Add] = All;
  BlockCycles With = Timing.estimate(BB, Waits);
  EXPECT_GT(Without.Stalls[unsigned(StallCause::Dependency)], 0u);
  EXPECT_EQ(With.Stalls[unsigned(StallCause::Dependency)], 0u);
  EXPECT_EQ(With.Stalls[unsigned(StallCause::MemoryWait)],
            Without.Stalls[unsigned(StallCause::Dependency)]);
  EXPECT_EQ(With.Cycles, Without.Cycles + 1);
  EXPECT_EQ(With.Issue, Without.Issue + 1);
}

} // namespace
