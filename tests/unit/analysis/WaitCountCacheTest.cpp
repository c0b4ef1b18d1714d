//===- WaitCountCacheTest.cpp - The wait analysis reusing earlier runs ----===//
//
// WaitCountCache keeps each instruction's description and each block's
// transfers and replays between runs. Seeded random kernels (loads,
// stores, LDS, scalar loads, waits, barriers, loops) go through many random
// edits that move instructions within and between blocks, and through
// edits put back; after each, the analysis run with the cache must find
// exactly the missing waits (consumers and counts) and redundant waits of a
// run without it, path-insensitive as the scheduler's guard runs it and
// branch-correlated as the wait insertion does. The cache must also be
// used: blocks reused and blocks solved again. An instruction changed in
// place behind the cache's back (what no pass preserving it may do) is
// caught by the cache's debug mode.
//
//===----------------------------------------------------------------------===//
#include "analysis/AnalysisTestModules.h"
#include "stinkytofu/analysis/WaitCountAnalysis.h"
#include "stinkytofu/ir/BranchVocabulary.h"
#include "stinkytofu/mc/InstBuilder.h"

#include "llvm/Support/Error.h"
#include "gtest/gtest.h"

#include <optional>
#include <random>
#include <string>

using namespace stinkytofu;
using namespace stinkytofu::analysistest;

namespace {

/// A kernel of \p Blocks blocks drawn from \p Rng: memory operations of
/// every counter of gfx90a, their readers and writers, waits and barriers,
/// and branches forward and back (loops).
std::string randomKernel(std::mt19937_64 &Rng, unsigned Blocks) {
  // %v, %s and %n stand for a VGPR, an SGPR and a count; loads and VALU
  // reads twice as often as the others.
  static const char *const Statements[] = {
      "global_load_dword %v, v[0:1], off", "global_load_dword %v, v[0:1], off",
      "ds_read_b32 %v, v2", "s_load_dword %s, s[0:1], 0x0",
      "buffer_store_dword %v, v0, s[4:7], 0 offen", "ds_write_b32 v2, %v",
      "s_waitcnt vmcnt(%n)", "s_waitcnt lgkmcnt(%n)", "s_add_u32 %s, %s, %s", "s_barrier",
      "v_add_f32_e32 %v, %v, %v", "v_add_f32_e32 %v, %v, %v"};
  auto Pick = [&](unsigned N) { return unsigned(Rng() % N); };
  auto Fill = [&](llvm::StringRef Pattern) {
    std::string Out = "  ";
    for (size_t K = 0; K < Pattern.size(); ++K) {
      if (Pattern[K] != '%' || K + 1 == Pattern.size()) {
        Out += Pattern[K];
        continue;
      }
      char Kind = Pattern[++K];
      Out += Kind == 'v'   ? "v" + std::to_string(4 + Pick(12))
             : Kind == 's' ? "s" + std::to_string(10 + Pick(8))
                           : std::to_string(Pick(3));
    }
    return Out + "\n";
  };
  std::string Text = "k:\n";
  for (unsigned B = 0; B < Blocks; ++B) {
    if (B)
      Text += "L" + std::to_string(B) + ":\n";
    for (unsigned K = 0, N = 3 + Pick(10); K < N; ++K)
      Text += Fill(Statements[Pick(std::size(Statements))]);
    if (B + 1 == Blocks) {
      Text += "  s_endpgm\n";
      break;
    }
    // A conditional branch, a jump (not to the next block) or a fall
    // through.
    std::string Target = "L" + std::to_string(Pick(Blocks - 1) + 1);
    switch (Pick(3)) {
    case 0:
      Text += Fill("s_cmp_eq_u32 %s, 0") + "  s_cbranch_scc1 " + Target + "\n";
      break;
    case 1:
      if (Target != "L" + std::to_string(B + 1))
        Text += "  s_branch " + Target + "\n";
      break;
    }
  }
  return Text;
}

/// Every instruction that a move may take or land before (a block's
/// control transfer stays where it is).
std::vector<Instruction *> movable(Function &F) {
  std::vector<Instruction *> Insts;
  for (BasicBlock &BB : F.blocks())
    for (Instruction &I : BB.instructions())
      if (!endsBlock(I))
        Insts.push_back(&I);
  return Insts;
}

/// An error when \p A and \p B find different waits.
::testing::AssertionResult sameWaits(const WaitCountAnalysis &A, const WaitCountAnalysis &B) {
  if (A.missingWaits().size() != B.missingWaits().size())
    return ::testing::AssertionFailure()
           << A.missingWaits().size() << " missing waits against " << B.missingWaits().size();
  for (size_t K = 0; K < A.missingWaits().size(); ++K) {
    const MissingWait &X = A.missingWaits()[K], &Y = B.missingWaits()[K];
    if (X.Consumer != Y.Consumer || !(X.Needed == Y.Needed))
      return ::testing::AssertionFailure() << "missing wait " << K << " differs, at '"
                                           << X.Consumer->mnemonic().str() << "'";
  }
  if (A.redundantWaits() != B.redundantWaits())
    return ::testing::AssertionFailure() << "redundant waits differ";
  return ::testing::AssertionSuccess();
}

/// One seeded kernel through \p Edits rounds of random moves, comparing
/// after each the runs with \p Opts through one cache and without.
WaitCountCache::Counts editAndCompare(uint64_t Seed, unsigned Edits, WaitCountOptions Opts) {
  std::mt19937_64 Rng(Seed);
  std::unique_ptr<Module> M = readModule(randomKernel(Rng, 4 + Rng() % 8));
  EXPECT_TRUE(M);
  if (!M)
    return {};
  Function &F = *M->entry();
  CounterModel CM(M->target());
  WaitCountCache Cache;
  std::vector<std::pair<Instruction *, Instruction *>> Undo; // (moved, was before)
  for (unsigned Round = 0; Round <= Edits; ++Round) {
    if (Round) {
      std::vector<Instruction *> Insts = movable(F);
      if (Insts.size() < 2)
        break;
      if (!Undo.empty() && Rng() % 4 == 0) {
        // Put the last move back: the cache has the block's old order.
        auto [I, Next] = Undo.back();
        Undo.pop_back();
        if (Next)
          I->moveBefore(*Next);
      } else {
        for (unsigned K = 0, N = 1 + Rng() % 3; K < N; ++K) {
          Instruction *I = Insts[Rng() % Insts.size()];
          BasicBlock &BB = *I->parent();
          auto After = std::next(I->getIterator());
          Instruction *Next = After == BB.instructions().end() ? nullptr : &*After;
          // Anywhere in the function before a movable instruction or a
          // block's control transfer.
          BasicBlock &To = *std::next(F.blocks().begin(), Rng() % F.blocks().size());
          if (To.empty())
            continue;
          auto At = std::next(To.instructions().begin(), Rng() % To.instructions().size());
          if (&*At == I)
            continue;
          I->moveBefore(*At);
          Undo.emplace_back(I, Next);
        }
      }
      EXPECT_TRUE(F.hasValidCFG());
    }
    llvm::Expected<WaitCountAnalysis> Cached = WaitCountAnalysis::run(F, CM, Opts, Cache);
    llvm::Expected<WaitCountAnalysis> Full = WaitCountAnalysis::run(F, CM, Opts);
    EXPECT_TRUE(bool(Cached)) << (Cached ? "" : llvm::toString(Cached.takeError()));
    EXPECT_TRUE(bool(Full)) << (Full ? "" : llvm::toString(Full.takeError()));
    if (!Cached || !Full)
      return Cache.counts();
    EXPECT_TRUE(sameWaits(*Cached, *Full)) << "seed " << Seed << ", round " << Round;
  }
  return Cache.counts();
}

TEST(WaitCountCacheTest, PathInsensitiveRunsAfterEditsFindWhatFullRunsFind) {
  WaitCountOptions Guard{.CorrelateBranches = false, .DescribePaths = false};
  WaitCountCache::Counts Total;
  for (uint64_t Seed = 1; Seed <= 60; ++Seed) {
    WaitCountCache::Counts C = editAndCompare(Seed, 25, Guard);
    Total.TransfersReused += C.TransfersReused;
    Total.Transferred += C.Transferred;
    Total.ReplaysReused += C.ReplaysReused;
    Total.Replayed += C.Replayed;
  }
  // The cache is used, and blocks an edit changed are solved again.
  EXPECT_GT(Total.TransfersReused, Total.Transferred / 4);
  EXPECT_GT(Total.ReplaysReused, Total.Replayed / 4);
  EXPECT_GT(Total.Transferred, 60u * 4);
}

TEST(WaitCountCacheTest, CorrelatedRunsShareDescriptionsOnly) {
  // Branch correlation keeps no block results (BranchConditions reads the
  // whole function); the descriptions are shared, and the waits are those
  // of a run without the cache.
  WaitCountCache::Counts Total;
  for (uint64_t Seed = 100; Seed < 120; ++Seed) {
    WaitCountCache::Counts C = editAndCompare(Seed, 10, {.DescribePaths = false});
    Total.Described += C.Described;
    Total.TransfersReused += C.TransfersReused;
  }
  EXPECT_GT(Total.Described, 0u);
}

TEST(WaitCountCacheTest, DescribesEachInstructionOnce) {
  std::mt19937_64 Rng(7);
  std::unique_ptr<Module> M = readModule(randomKernel(Rng, 6));
  ASSERT_TRUE(M);
  Function &F = *M->entry();
  CounterModel CM(M->target());
  WaitCountCache Cache;
  size_t Insts = 0;
  for (const BasicBlock &BB : F.blocks())
    Insts += BB.instructions().size();
  // The first run describes each instruction, but for those whose
  // statements assembled alike (described once for all); the others none.
  std::optional<unsigned> First;
  for (bool Correlate : {false, true, false}) {
    llvm::Expected<WaitCountAnalysis> A =
        WaitCountAnalysis::run(F, CM, {.CorrelateBranches = Correlate}, Cache);
    ASSERT_TRUE(bool(A)) << llvm::toString(A.takeError());
    if (!First)
      First = Cache.counts().Described;
  }
  EXPECT_GT(*First, 0u);
  EXPECT_LE(*First, Insts);
  EXPECT_EQ(Cache.counts().Described, *First);
}

TEST(WaitCountCacheTest, DebugModeCatchesAnInstructionChangedBehindTheCache) {
  std::unique_ptr<Module> M = readModule(R"(k:
  global_load_dword v4, v[0:1], off
  global_load_dword v5, v[0:1], off
  s_waitcnt vmcnt(1)
  v_add_f32_e32 v6, v4, v4
  v_add_f32_e32 v7, v5, v5
  s_endpgm
)");
  ASSERT_TRUE(M);
  Function &F = *M->entry();
  CounterModel CM(M->target());
  WaitCountCache Cache;
  WaitCountOptions Opts{.CorrelateBranches = false, .DescribePaths = false, .CheckCache = true};
  llvm::Expected<WaitCountAnalysis> Before = WaitCountAnalysis::run(F, CM, Opts, Cache);
  ASSERT_TRUE(bool(Before)) << llvm::toString(Before.takeError());
  EXPECT_EQ(Before->missingWaits().size(), 1u); // v5
  // vmcnt(1) -> vmcnt(0): the cache still describes the old wait.
  Instruction *Wait = nullptr;
  for (Instruction &I : F.blocks().front().instructions())
    if (I.mnemonic() == "s_waitcnt")
      Wait = &I;
  ASSERT_TRUE(Wait);
  InstBuilder Builder(*M);
  ASSERT_FALSE(bool(Builder.rewrite(*Wait, {BuildOperand::waitcnt({.VmCnt = 0u})})));
  llvm::Expected<WaitCountAnalysis> After = WaitCountAnalysis::run(F, CM, Opts, Cache);
  ASSERT_FALSE(bool(After));
  EXPECT_EQ(llvm::toString(After.takeError()),
            "function 'k': the wait analysis with its cache finds more missing waits than a "
            "run without it at 'v_add_f32_e32' at line 6");
  // A new cache describes the wait as it is now: nothing is missing.
  WaitCountCache Fresh;
  llvm::Expected<WaitCountAnalysis> Again = WaitCountAnalysis::run(F, CM, Opts, Fresh);
  ASSERT_TRUE(bool(Again)) << llvm::toString(Again.takeError());
  EXPECT_TRUE(Again->missingWaits().empty());
}

} // namespace
