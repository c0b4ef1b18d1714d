//===- FindingReplayTest.cpp - Wait findings replayed along a path --------===//
//
// replayFinding follows a path from the entry through the producer to the
// consumer and counts the operations in flight on its own: it agrees with
// the analysis's count where a path decides it, keeps the producer among
// the survivors of a wait on a counter that is not in order, uses the
// branch facts from the entry on (a path that is feasible from the
// producer on but not from the entry is no evidence), and replays nothing
// in a block no path reaches.
//
//===----------------------------------------------------------------------===//
#include "AnalysisTestModules.h"
#include "stinkytofu/analysis/FindingReplay.h"
#include "stinkytofu/analysis/WaitCountAnalysis.h"

using namespace stinkytofu;
using namespace stinkytofu::analysistest;

namespace {

/// The replay of each finding of the first function of \p M, with the
/// analysis's count that is enough.
std::vector<std::pair<std::optional<FindingReplay>, int>> replays(Module &M) {
  Function &F = *M.functions().begin();
  CounterModel CM(M.target());
  llvm::Expected<WaitCountAnalysis> A = WaitCountAnalysis::run(F, CM);
  EXPECT_TRUE(bool(A));
  if (!A) {
    llvm::consumeError(A.takeError());
    return {};
  }
  BranchConditions BC(F, M.target());
  std::vector<std::pair<std::optional<FindingReplay>, int>> Result;
  for (const MissingWait &W : A->missingWaits())
    for (const WaitReason &R : W.Reasons)
      Result.emplace_back(replayFinding(BC, CM, F, *R.Producer, *W.Consumer, R.Counter),
                          R.Needed);
  return Result;
}

/// Replays the one finding of kernel \p Text: real, with \p Needed (the
/// analysis's count too) and \p Younger operations after the producer.
void expectRealReplay(llvm::StringRef Text, unsigned Needed, int Younger) {
  std::unique_ptr<Module> M = readModule(Text);
  ASSERT_TRUE(M);
  auto R = replays(*M);
  ASSERT_EQ(R.size(), 1u);
  ASSERT_TRUE(R[0].first);
  EXPECT_TRUE(R[0].first->Real);
  EXPECT_EQ(R[0].first->Needed, Needed);
  EXPECT_EQ(R[0].second, int(Needed));
  EXPECT_EQ(R[0].first->Steps.back().ProducerYounger, Younger);
}

TEST(FindingReplayTest, CountsWhatTheAnalysisCountsOnAStraightPath) {
  // Three loads issued, the wait leaves two: the second, one younger.
  expectRealReplay(R"(k:
  global_load_dword v1, v[2:3], off
  global_load_dword v4, v[2:3], off offset:4
  global_load_dword v7, v[2:3], off offset:8
  s_waitcnt vmcnt(2)
  v_add_f32 v6, v4, v4
  s_endpgm)",
                   1, 1);
}

TEST(FindingReplayTest, OutOfOrderCounterKeepsTheProducerAmongTheSurvivors) {
  // LDS and SMEM on lgkmcnt at once: lgkmcnt(1) may leave the LDS read in
  // flight, the newest; only lgkmcnt(0) is enough.
  expectRealReplay(R"(k:
  ds_read_b32 v1, v0
  s_load_dword s6, s[0:1], 0x0
  s_waitcnt lgkmcnt(1)
  v_add_f32 v2, v1, v1
  s_endpgm)",
                   0, 0);
}

TEST(FindingReplayTest, PathFromTheEntryAgreesWithTheBranchesBeforeTheProducer) {
  // The LDS read happens only when s5 != 0 and the use only when s5 == 0:
  // from the read on a path to the use exists (nothing is known there of
  // s5), from the entry none does.
  std::unique_ptr<Module> M = readModule(R"(k:
  s_cmp_eq_u32 s5, 0
  s_cbranch_scc1 L_a
  ds_read_b32 v1, v0
L_a:
  s_cmp_eq_u32 s5, 0
  s_cbranch_scc0 L_end
L_use:
  v_add_f32 v2, v1, v1
L_end:
  s_endpgm)");
  ASSERT_TRUE(M);
  Function &F = *M->functions().begin();
  BranchConditions BC(F, M->target());
  CounterModel CM(M->target());
  Instruction &Read = *instOf(*M, "ds_read_b32");
  EXPECT_TRUE(findFeasiblePath(BC, Read, *blockOf(*M, "L_use"), PathFacts()));
  EXPECT_FALSE(
      replayFinding(BC, CM, F, Read, *instOf(*M, "v_add_f32"), *CM.counterNamed("lgkmcnt")));
  // The analysis agrees: nothing is missing.
  EXPECT_TRUE(replays(*M).empty());
}

TEST(FindingReplayTest, NothingToReplayWhereNoPathFromTheEntryGoes) {
  // The block after s_endpgm is checked on its own; no path reaches it.
  std::unique_ptr<Module> M = readModule(R"(k:
  s_endpgm
L_dead:
  ds_read_b32 v1, v0
  v_add_f32 v2, v1, v1
  s_endpgm)");
  ASSERT_TRUE(M);
  auto R = replays(*M);
  ASSERT_EQ(R.size(), 1u);
  EXPECT_FALSE(R[0].first);
}

TEST(FindingReplayTest, LoopReplaysThePreviousTripsOperation) {
  std::unique_ptr<Module> M = readModule(R"(k:
  s_mov_b32 s4, 0
L_loop:
  v_add_f32 v2, v1, v1
  ds_read_b32 v1, v0
  s_add_u32 s4, s4, 1
  s_cmp_lt_u32 s4, 8
  s_cbranch_scc1 L_loop
  s_waitcnt lgkmcnt(0)
  s_endpgm)");
  ASSERT_TRUE(M);
  auto R = replays(*M);
  ASSERT_EQ(R.size(), 1u);
  ASSERT_TRUE(R[0].first);
  EXPECT_TRUE(R[0].first->Real);
  std::vector<std::string> Blocks;
  for (const BasicBlock *BB : R[0].first->Path.Blocks)
    Blocks.push_back(blockName(*BB));
  EXPECT_EQ(Blocks, (std::vector<std::string>{"k", "L_loop", "L_loop"}));
}

} // namespace
