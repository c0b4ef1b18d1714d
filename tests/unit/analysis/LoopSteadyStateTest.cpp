//===- LoopSteadyStateTest.cpp - A loop's trip with the previous one's work ===//
//
// EstimateAsmCycles' steady state of a loop (LoopCycles::SteadyBody, the
// `loop-steady` column of --stats): the second of two trips along the
// loop's longest path. A rotated loop (the next trip's load issued at the
// end of this one, its wait at the top of the next) looks free from
// nothing in flight; in steady state its wait is paid. The measure a
// software-pipelined loop is judged by (docs/scheduler.md).
//
//===----------------------------------------------------------------------===//
#include "AnalysisTestModules.h"
#include "stinkytofu/analysis/CycleEstimate.h"

using namespace stinkytofu;
using namespace stinkytofu::analysistest;

namespace {

const LoopCycles &onlyLoop(const CycleEstimate &E) {
  EXPECT_EQ(E.loops().size(), 1u);
  return E.loops().front();
}

TEST(LoopSteadyStateTest, RotatedTwoBlockLoopPaysTheLoadsWait) {
  std::unique_ptr<Module> M = readModule(R"(k:
  s_mov_b32 s0, 4
  global_load_dword v1, v[10:11], off
L_head:
  s_sub_u32 s0, s0, 1
  s_cmp_lg_u32 s0, 0
  s_cbranch_scc0 L_exit
L_body:
  s_waitcnt vmcnt(0)
  v_add_f32_e32 v4, v1, v1
  global_load_dword v1, v[10:11], off
  s_branch L_head
L_exit:
  s_endpgm)");
  ASSERT_TRUE(M);
  Function &F = *M->entry();
  AnalysisManager AM;
  CycleEstimate &E = llvm::cantFail(AM.getResult<EstimateAsmCycles>(F));
  const LoopCycles &L = onlyLoop(E);
  EXPECT_EQ(L.Header, blockOf(*M, "L_head"));
  EXPECT_EQ(L.Body, E.block(*blockOf(*M, "L_head")).Cycles +
                        E.block(*blockOf(*M, "L_body")).Cycles);
  // The load of the first trip is in flight when the second one's wait
  // issues two cycles later: the trip takes the load's latency, most of
  // it a stall the nothing-in-flight body does not see.
  BlockCycleModel Model(*M);
  unsigned LoadLatency = Model.timesOf(*instOf(*M, "global_load_dword", 1)).Latency;
  EXPECT_GT(LoadLatency, 2 * L.Body);
  EXPECT_GE(L.SteadyBody, LoadLatency);
  // The same trip through the model directly.
  const BasicBlock *Trip[] = {blockOf(*M, "L_head"), blockOf(*M, "L_body")};
  EXPECT_EQ(Model.estimateSecondTrip(Trip).Cycles, L.SteadyBody);
}

TEST(LoopSteadyStateTest, SingleBlockLoopIsTheBlocksSecondTrip) {
  // An LDS read at the bottom, its wait at the top of the next trip.
  std::unique_ptr<Module> M = readModule(R"(k:
  v_mov_b32_e32 v3, 0
L_loop:
  s_add_u32 s2, s2, -1
  s_waitcnt lgkmcnt(0)
  v_mul_f32_e32 v5, v2, v2
  s_cmp_eq_u32 s2, 0
  ds_read_b32 v2, v3
  s_cbranch_scc0 L_loop
  s_endpgm)");
  ASSERT_TRUE(M);
  AnalysisManager AM;
  CycleEstimate &E = llvm::cantFail(AM.getResult<EstimateAsmCycles>(*M->entry()));
  const LoopCycles &L = onlyLoop(E);
  BlockCycleModel Model(*M);
  const BasicBlock &Loop = *blockOf(*M, "L_loop");
  EXPECT_EQ(L.Body, Model.estimate(Loop).Cycles);
  EXPECT_EQ(L.SteadyBody, Model.estimateSecondTrip(Loop).Cycles);
  EXPECT_GT(L.SteadyBody, L.Body);
}

TEST(LoopSteadyStateTest, LoopWithNothingInFlightIsUnchanged) {
  std::unique_ptr<Module> M = readModule(CountedLoopKernel);
  ASSERT_TRUE(M);
  AnalysisManager AM;
  CycleEstimate &E = llvm::cantFail(AM.getResult<EstimateAsmCycles>(*M->entry()));
  const LoopCycles &L = onlyLoop(E);
  EXPECT_GT(L.Body, 0u);
  EXPECT_EQ(L.SteadyBody, L.Body);
}

} // namespace
