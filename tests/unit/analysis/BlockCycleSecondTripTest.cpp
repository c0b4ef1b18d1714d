//===- BlockCycleSecondTripTest.cpp - A loop trip with the last one's work ===//
//
// BlockCycleModel::estimateSecondTrip: a loop body that reads at its top
// what its bottom loaded waits on the second trip (the load of the first
// is in flight), not on the block's own estimate, which starts idle; the
// wait insertion's staircase fold prices a loop's waits with it.
//
//===----------------------------------------------------------------------===//
#include "AnalysisTestModules.h"
#include "stinkytofu/analysis/BlockCycleModel.h"

using namespace stinkytofu;
using namespace stinkytofu::analysistest;

namespace {

TEST(BlockCycleSecondTripTest, PreviousTripsLoadIsInFlight) {
  std::unique_ptr<Module> M = readModule(R"(k:
  s_mov_b32 s0, 4
L_loop:
  s_waitcnt vmcnt(0)
  v_add_f32_e32 v4, v1, v1
  global_load_dword v1, v[10:11], off
  s_sub_u32 s0, s0, 1
  s_cmp_lg_u32 s0, 0
  s_cbranch_scc1 L_loop
  s_endpgm)");
  ASSERT_TRUE(M);
  BlockCycleModel Model(*M);
  const BasicBlock &Loop = *blockOf(*M, "L_loop");
  BlockCycles Alone = Model.estimate(Loop);
  BlockCycles Second = Model.estimateSecondTrip(Loop);
  EXPECT_EQ(Alone.Stalls[unsigned(StallCause::MemoryWait)], 0u);
  EXPECT_GT(Second.Stalls[unsigned(StallCause::MemoryWait)], 0u);
  EXPECT_GT(Second.Cycles, Alone.Cycles);
}

} // namespace
