//===- BranchCorrelationTest.cpp - Wait findings on feasible paths only ---===//
//
// The wait analysis with branch correlation (BranchConditions,
// PathPartitions): a load is waited for only when `s5 == 1`, and used only
// when a second, identical comparison says the same; the path that skips
// the wait and takes the use contradicts itself. Pruned when the condition
// is the same and unchanged (a `.set` constant too, around a loop too);
// kept when the branches test opposite outcomes, when the register, SCC or
// EXEC (which a v_cmp reads) changes in between, and when a loop changes
// the register.
//
//
// A finding's path is replayed: the instructions along it, from the
// producer to the consumer with the branches left out (the path says which
// way each went), make a straight-line kernel on which the analysis must
// find the same wait missing with the same counter state.
//
//===----------------------------------------------------------------------===//
#include "AnalysisTestModules.h"
#include "stinkytofu/analysis/BranchConditions.h"
#include "stinkytofu/analysis/FeasiblePath.h"
#include "stinkytofu/analysis/WaitCountAnalysis.h"
#include "stinkytofu/mc/InstructionFormatter.h"
#include "stinkytofu/ir/BranchVocabulary.h"

using namespace stinkytofu;
using namespace stinkytofu::analysistest;

namespace {

/// The messages of the missing waits of kernel \p Text (gfx90a).
std::vector<std::string> findingsOf(const std::string &Text) {
  std::unique_ptr<Module> M = readModule(Text);
  if (!M)
    return {"(does not assemble)"};
  CounterModel CM(M->target());
  std::vector<std::string> Messages;
  for (Function &F : M->functions()) {
    llvm::Expected<WaitCountAnalysis> A = WaitCountAnalysis::run(F, CM);
    if (!A)
      return {"(failed: " + llvm::toString(A.takeError()) + ")"};
    EXPECT_EQ(A->gaveUp(), "");
    for (const MissingWait &W : A->missingWaits())
      for (const WaitReason &R : W.Reasons)
        Messages.push_back(describeMissingWait(CM, W, R));
  }
  return Messages;
}

/// A load waited for on one side of a branch on \p First and used on one
/// side of a branch on \p Second; \p Between runs between the two.
std::string correlated(llvm::StringRef First, llvm::StringRef Second, llvm::StringRef Between = "",
                       llvm::StringRef UseBranch = "s_cbranch_scc0") {
  return (llvm::Twine(".set LIMIT, 1\n"
                      "k:\n"
                      "  global_load_dword v1, v[2:3], off\n") +
          First +
          "\n"
          "  s_cbranch_scc0 L_check\n" // s5 != 1: no wait
          "  s_waitcnt vmcnt(0)\n"
          "L_check:\n" +
          Between + "\n" + Second + "\n  " + UseBranch +
          " L_end\n" // scc0: used only when s5 == 1
          "  v_add_f32_e32 v4, v1, v1\n"
          "L_end:\n"
          "  s_endpgm\n")
      .str();
}

TEST(BranchCorrelationTest, SameUnchangedComparisonPrunesTheContradictingPath) {
  EXPECT_EQ(findingsOf(correlated("  s_cmp_eq_u32 s5, 1", "  s_cmp_eq_u32 s5, 1")),
            std::vector<std::string>());
}

TEST(BranchCorrelationTest, SetConstantIsTheSameComparison) {
  EXPECT_EQ(findingsOf(correlated("  s_cmp_eq_u32 s5, LIMIT", "  s_cmp_eq_u32 s5, 1")),
            std::vector<std::string>());
}

TEST(BranchCorrelationTest, OppositeOutcomeIsAFeasiblePathNamedWithItsCondition) {
  // The use is reached when s5 != 1, the side without the wait.
  std::vector<std::string> F = findingsOf(
      correlated("  s_cmp_eq_u32 s5, 1", "  s_cmp_eq_u32 s5, 1", "", "s_cbranch_scc1"));
  ASSERT_EQ(F.size(), 1u);
  EXPECT_NE(F[0].find("v1 read before the global_load_dword"), std::string::npos) << F[0];
  // The path is the one skipping the wait; the second branch falls
  // through on the same condition, also false.
  EXPECT_NE(F[0].find("; path k -> L_check -> line "), std::string::npos) << F[0];
  EXPECT_NE(F[0].find("at k: s_cmp_eq_u32 s5, 1 false"), std::string::npos) << F[0];
  EXPECT_NE(F[0].find("at L_check: s_cmp_eq_u32 s5, 1 false"), std::string::npos)
      << F[0];
}

TEST(BranchCorrelationTest, ChangedRegisterOrConditionKeepsThePath) {
  for (llvm::StringRef Between : {"  s_add_u32 s5, s5, 1", "  s_load_dword s5, s[0:1], 0x0\n"
                                                            "  s_waitcnt lgkmcnt(0)",
                                  "  v_readfirstlane_b32 s5, v0"}) {
    std::vector<std::string> F =
        findingsOf(correlated("  s_cmp_eq_u32 s5, 1", "  s_cmp_eq_u32 s5, 1", Between));
    EXPECT_EQ(F.size(), 1u) << Between.str();
  }
  // SCC rewritten between the comparison and the second branch.
  std::vector<std::string> F =
      findingsOf(correlated("  s_cmp_eq_u32 s5, 1", "  s_cmp_eq_u32 s5, 1\n  s_add_u32 s7, s7, 1"));
  EXPECT_EQ(F.size(), 1u);
  // A different comparison proves nothing about the first.
  F = findingsOf(correlated("  s_cmp_eq_u32 s5, 1", "  s_cmp_eq_u32 s5, 2"));
  EXPECT_EQ(F.size(), 1u);
  F = findingsOf(correlated("  s_cmp_eq_u32 s5, 1", "  s_cmp_eq_u32 s6, 1"));
  EXPECT_EQ(F.size(), 1u);
}

TEST(BranchCorrelationTest, PruningWouldBeUnsoundWhenExecChangesUnderAVectorCompare) {
  // The same v_cmp under another EXEC gives another VCC: the second branch
  // may go either way, so the use without the wait stays reachable.
  auto Kernel = [](llvm::StringRef Between) {
    return (llvm::Twine("k:\n"
                        "  global_load_dword v1, v[2:3], off\n"
                        "  v_cmp_eq_u32_e32 vcc, 1, v5\n"
                        "  s_cbranch_vccz L_check\n"
                        "  s_waitcnt vmcnt(0)\n"
                        "L_check:\n") +
            Between +
            "\n"
            "  v_cmp_eq_u32_e32 vcc, 1, v5\n"
            "  s_cbranch_vccz L_end\n"
            "  v_add_f32_e32 v4, v1, v1\n"
            "L_end:\n"
            "  s_endpgm\n")
        .str();
  };
  EXPECT_EQ(findingsOf(Kernel("")), std::vector<std::string>());
  EXPECT_EQ(findingsOf(Kernel("  s_mov_b64 exec, s[10:11]")).size(), 1u);
  EXPECT_EQ(findingsOf(Kernel("  v_mov_b32_e32 v5, 0")).size(), 1u);
}

std::string loopBetween(llvm::StringRef LoopBody) {
  return (llvm::Twine("L_loop:\n") + LoopBody +
          "\n"
          "  s_add_u32 s6, s6, 1\n"
          "  s_cmp_lt_u32 s6, 10\n"
          "  s_cbranch_scc1 L_loop")
      .str();
}

TEST(BranchCorrelationTest, FactsSurviveALoopThatKeepsTheRegister) {
  EXPECT_EQ(findingsOf(correlated("  s_cmp_eq_u32 s5, 1", "  s_cmp_eq_u32 s5, 1",
                                  loopBetween("  v_add_f32_e32 v7, v8, v8"))),
            std::vector<std::string>());
  EXPECT_EQ(findingsOf(correlated("  s_cmp_eq_u32 s5, 1", "  s_cmp_eq_u32 s5, 1",
                                  loopBetween("  s_add_u32 s5, s5, 2")))
                .size(),
            1u);
}

TEST(BranchCorrelationTest, LoopGuardTestedAgainInsideTheLoop) {
  // A counted loop whose exit test is repeated inside the body: the loads
  // issued on the iterations that continue are waited for on the path
  // that leaves, and the second test agrees with the first.
  EXPECT_EQ(findingsOf("k:\n"
                       "  s_mov_b32 s6, 0\n"
                       "L_loop:\n"
                       "  global_load_dword v1, v[2:3], off\n"
                       "  s_cmp_lt_u32 s6, 10\n"
                       "  s_cbranch_scc1 L_more\n"
                       "  s_waitcnt vmcnt(0)\n"
                       "L_more:\n"
                       "  s_cmp_lt_u32 s6, 10\n"
                       "  s_cbranch_scc1 L_next\n"
                       "  v_add_f32_e32 v4, v1, v1\n"
                       "L_next:\n"
                       "  s_add_u32 s6, s6, 1\n"
                       "  s_cmp_lt_u32 s6, 11\n"
                       "  s_cbranch_scc1 L_loop\n"
                       "  s_endpgm\n"),
            std::vector<std::string>());
}

TEST(BranchCorrelationTest, FeasiblePathAvoidsContradictingBranches) {
  // From the load, the shortest way to L_use goes through L_a and L_b,
  // which contradict each other; the path found goes around.
  std::unique_ptr<Module> M = readModule("k:\n"
                                         "  global_load_dword v1, v[2:3], off\n"
                                         "  s_cmp_eq_u32 s5, 1\n"
                                         "  s_cbranch_scc0 L_b\n"
                                         "L_a:\n"
                                         "  s_nop 0\n"
                                         "L_b:\n"
                                         "  s_cmp_eq_u32 s5, 1\n"
                                         "  s_cbranch_scc1 L_use\n"
                                         "  s_branch L_end\n"
                                         "L_use:\n"
                                         "  v_add_f32_e32 v4, v1, v1\n"
                                         "L_end:\n"
                                         "  s_endpgm\n");
  ASSERT_TRUE(M);
  BranchConditions BC(*M->functions().begin(), M->target());
  std::optional<FeasiblePath> P =
      findFeasiblePath(BC, *instOf(*M, "global_load_dword"), *blockOf(*M, "L_use"), PathFacts());
  ASSERT_TRUE(P);
  EXPECT_EQ(describePath(BC, *P), "k -> L_a -> L_b -> L_use (at k: s_cmp_eq_u32 s5, 1 true; "
                                  "at L_b: s_cmp_eq_u32 s5, 1 true)");
  // No path takes the use with s5 != 1.
  PathFacts NotOne;
  NotOne.Facts.push_back({0, false});
  EXPECT_FALSE(
      findFeasiblePath(BC, *instOf(*M, "global_load_dword"), *blockOf(*M, "L_use"), NotOne));
}

/// The straight-line kernel of \p P: from \p Producer to \p Consumer,
/// branches left out.
std::string replayKernel(const FeasiblePath &P, const Instruction &Producer,
                         const Instruction &Consumer) {
  std::string Text = "k:\n";
  for (auto [K, BB] : llvm::enumerate(P.Blocks)) {
    auto It = K == 0 ? Producer.getIterator() : BB->instructions().begin();
    for (; It != BB->instructions().end(); ++It) {
      if (!isBranch(*It))
        Text += "  " + llvm::StringRef(instructionText(*It)).trim().str() + "\n";
      if (&*It == &Consumer)
        return Text + "  s_endpgm\n";
    }
  }
  return "(the path does not reach the consumer)";
}

TEST(BranchCorrelationTest, FindingsPathReplaysToTheSameCounterState) {
  // Without a loop the path's counts are the finding's; through a loop the
  // finding joins every trip (63 loads in flight, the counter's limit)
  // while the path shown goes around once.
  for (auto [Kernel, SameCounts] :
       {std::pair{correlated("  s_cmp_eq_u32 s5, 1", "  s_cmp_eq_u32 s5, 1", "", "s_cbranch_scc1"),
                  true},
        std::pair{correlated("  s_cmp_eq_u32 s5, 1", "  s_cmp_eq_u32 s5, 1",
                             loopBetween("  global_load_dword v9, v[2:3], off\n"
                                         "  s_add_u32 s5, s5, 2")),
                  false}}) {
    std::unique_ptr<Module> M = readModule(Kernel);
    ASSERT_TRUE(M);
    Function &F = *M->functions().begin();
    CounterModel CM(M->target());
    llvm::Expected<WaitCountAnalysis> A = WaitCountAnalysis::run(F, CM);
    ASSERT_TRUE(bool(A)) << llvm::toString(A.takeError());
    ASSERT_FALSE(A->missingWaits().empty()) << Kernel;
    for (const MissingWait &W : A->missingWaits())
      for (const WaitReason &R : W.Reasons) {
        ASSERT_TRUE(R.Producer);
        BranchConditions BC(F, M->target());
        std::optional<FeasiblePath> P =
            findFeasiblePath(BC, *R.Producer, *W.Consumer->parent(), PathFacts());
        ASSERT_TRUE(P);
        EXPECT_EQ(R.Path, describePath(BC, *P));
        // The counter state the message gives, on the path alone.
        std::string Message = describeMissingWait(CM, W, R);
        std::string State = Message.substr(0, Message.find(';'));
        std::string Replayed = replayKernel(*P, *R.Producer, *W.Consumer);
        std::vector<std::string> Again = findingsOf(Replayed);
        ASSERT_EQ(Again.size(), 1u) << Replayed;
        // Lines differ in the replayed kernel; the register, the producer,
        // the counter and its counts do not.
        auto Counts = [](const std::string &T) {
          return T.substr(T.find(" ("), T.find(')') - T.find(" ("));
        };
        if (SameCounts)
          EXPECT_EQ(Counts(Again[0]), Counts(State)) << Replayed;
        else
          EXPECT_EQ(Counts(Again[0]), " (vmcnt needs <= 1 here, is 2") << Replayed;
        EXPECT_EQ(Again[0].substr(0, Again[0].find(" at line")),
                  State.substr(0, State.find(" at line")));
      }
  }
}

TEST(BranchCorrelationTest, PathStepsKeptAcrossSearchesFindEachSearchsPath) {
  // One PathSteps serves every search of a run: a search ending at a
  // consumer that does nothing to the counters or the facts (the kept
  // steps leave it out) still finds it, and each search finds the path a
  // search with steps of its own finds.
  for (const std::string &Kernel :
       {correlated("  s_cmp_eq_u32 s5, 1", "  s_cmp_eq_u32 s5, 1", "", "s_cbranch_scc1"),
        correlated("  s_cmp_eq_u32 s5, 1", "  s_cmp_eq_u32 s5, 1",
                   loopBetween("  global_load_dword v9, v[2:3], off\n"
                               "  s_add_u32 s5, s5, 2"))}) {
    std::unique_ptr<Module> M = readModule(Kernel);
    ASSERT_TRUE(M);
    Function &F = *M->functions().begin();
    CounterModel CM(M->target());
    BranchConditions BC(F, M->target());
    PathSteps Shared(BC, &CM);
    const Instruction &Load = *instOf(*M, "global_load_dword");
    const Instruction &Use = *instOf(*M, "v_add_f32_e32");
    PendingOperation Pending{&CM, *CM.counterOf(WaitEvent::VmemLoad)};
    for (int Round = 0; Round != 2; ++Round) {
      std::optional<FeasiblePath> Kept =
          findFeasiblePath(BC, Load, *Use.parent(), PathFacts(), Pending, &Shared);
      std::optional<FeasiblePath> Own =
          findFeasiblePath(BC, Load, *Use.parent(), PathFacts(), Pending);
      ASSERT_TRUE(Kept && Own) << Kernel;
      EXPECT_EQ(describePath(BC, *Kept), describePath(BC, *Own));
      Kept = findPathFromEntry(BC, F, Load, Use, Pending, &Shared);
      Own = findPathFromEntry(BC, F, Load, Use, Pending);
      ASSERT_TRUE(Kept && Own) << Kernel;
      EXPECT_EQ(describePath(BC, *Kept), describePath(BC, *Own));
      EXPECT_EQ(Kept->Blocks.back(), Use.parent());
    }
    PathFacts One;
    One.Facts.push_back({0, true});
    // Without the loop (s5 unchanged), a use reached with s5 == 1 passed
    // the wait: no path there.
    if (Kernel.find("L_loop") == std::string::npos)
      EXPECT_FALSE(findFeasiblePath(BC, Load, *Use.parent(), One, Pending, &Shared));
  }
}

} // namespace
