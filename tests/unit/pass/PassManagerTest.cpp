//===- PassManagerTest.cpp - Analyses, invalidation, pipelines -------------===//
#include "TestModules.h"
#include "stinkytofu/analysis/AnalysisManager.h"
#include "stinkytofu/pass/PassManager.h"
#include "stinkytofu/stir/StirWriter.h"
#include "stinkytofu/transforms/CFGBuilderPass.h"
#include "gtest/gtest.h"

using namespace stinkytofu;

namespace {

// Two functions: the kernel `k` and a callable `f`.
const char *TwoFunctions = "\t.amdgcn_target \"amdgcn-amd-amdhsa--gfx1250\"\n"
                           "\t.text\n"
                           "\t.globl k\n"
                           "\t.type k,@function\n"
                           "k:\n"
                           "\ts_cmp_eq_u32 s0, 0\n"
                           "\ts_cbranch_scc1 label_End\n"
                           "\ts_nop 0\n"
                           "label_End:\n"
                           "\ts_endpgm\n"
                           ".Lfunc_end0:\n"
                           "\t.size k, .Lfunc_end0-k\n"
                           "\t.type f,@function\n"
                           "f:\n"
                           "\ts_nop 1\n"
                           "\ts_setpc_b64 s[30:31]\n"
                           ".Lfunc_end1:\n"
                           "\t.size f, .Lfunc_end1-f\n";

std::unique_ptr<Module> readPassInput(llvm::StringRef Text) { return test::readAsmText(Text); }

Function &fn(Module &M, llvm::StringRef Name) {
  Function *F = M.findFunction(Name);
  EXPECT_TRUE(F) << Name.str();
  return *F;
}

/// Counts instructions; how often it ran is what the tests look at.
struct InstCount {
  static AnalysisKey Key;
  using Result = size_t;
  Result run(Function &F, AnalysisManager &) { return F.instructionCount(); }
};
AnalysisKey InstCount::Key;

/// Counts blocks.
struct BlockCount {
  static AnalysisKey Key;
  using Result = size_t;
  Result run(Function &F, AnalysisManager &) { return F.blocks().size(); }
};
AnalysisKey BlockCount::Key;

// --- PreservedAnalyses -----------------------------------------------------

TEST(PreservedAnalysesTest, AllNoneAndSelected) {
  PreservedAnalyses All = PreservedAnalyses::all();
  EXPECT_TRUE(All.areAllPreserved());
  EXPECT_TRUE(All.isPreserved(&InstCount::Key));
  EXPECT_TRUE(All.isPreserved(&BlockCount::Key));

  PreservedAnalyses None = PreservedAnalyses::none();
  EXPECT_FALSE(None.areAllPreserved());
  EXPECT_FALSE(None.isPreserved(&InstCount::Key));

  PreservedAnalyses Some = PreservedAnalyses::none();
  Some.preserve<InstCount>();
  EXPECT_FALSE(Some.areAllPreserved());
  EXPECT_TRUE(Some.isPreserved(&InstCount::Key));
  EXPECT_FALSE(Some.isPreserved(&BlockCount::Key));
}

// --- AnalysisManager -------------------------------------------------------

TEST(AnalysisManagerTest, ResultsAreCachedPerFunctionAndAnalysis) {
  auto M = readPassInput(TwoFunctions);
  ASSERT_TRUE(M);
  Function &K = fn(*M, "k"), &F = fn(*M, "f");
  AnalysisManager AM;
  EXPECT_EQ(AM.getCachedResult<InstCount>(K), nullptr);
  EXPECT_EQ(AM.getResult<InstCount>(K), 4u);
  EXPECT_EQ(AM.computations(), 1u);
  EXPECT_EQ(AM.getResult<InstCount>(K), 4u);
  EXPECT_EQ(AM.computations(), 1u) << "second request must hit the cache";
  ASSERT_NE(AM.getCachedResult<InstCount>(K), nullptr);
  EXPECT_EQ(*AM.getCachedResult<InstCount>(K), 4u);

  // Another function, another analysis: computed separately.
  EXPECT_EQ(AM.getResult<InstCount>(F), 2u);
  EXPECT_EQ(AM.getResult<BlockCount>(K), 2u);
  EXPECT_EQ(AM.computations(), 3u);
  EXPECT_EQ(AM.getCachedResult<BlockCount>(F), nullptr) << "getCachedResult never computes";
  EXPECT_EQ(AM.computations(), 3u);
}

TEST(AnalysisManagerTest, InvalidateDropsWhatIsNotPreserved) {
  auto M = readPassInput(TwoFunctions);
  ASSERT_TRUE(M);
  Function &K = fn(*M, "k"), &F = fn(*M, "f");
  AnalysisManager AM;
  AM.getResult<InstCount>(K);
  AM.getResult<BlockCount>(K);
  AM.getResult<InstCount>(F);
  ASSERT_EQ(AM.computations(), 3u);

  // Preserving everything keeps everything.
  AM.invalidate(K, PreservedAnalyses::all());
  EXPECT_NE(AM.getCachedResult<InstCount>(K), nullptr);
  EXPECT_NE(AM.getCachedResult<BlockCount>(K), nullptr);

  // Only InstCount preserved on k: BlockCount of k goes, f is untouched.
  PreservedAnalyses PA = PreservedAnalyses::none();
  PA.preserve<InstCount>();
  AM.invalidate(K, PA);
  EXPECT_NE(AM.getCachedResult<InstCount>(K), nullptr);
  EXPECT_EQ(AM.getCachedResult<BlockCount>(K), nullptr);
  EXPECT_NE(AM.getCachedResult<InstCount>(F), nullptr);

  // Asking again recomputes it (once).
  AM.getResult<BlockCount>(K);
  AM.getResult<BlockCount>(K);
  EXPECT_EQ(AM.computations(), 4u);

  // invalidateAll acts on every function.
  AM.invalidateAll(PreservedAnalyses::none());
  EXPECT_EQ(AM.getCachedResult<InstCount>(K), nullptr);
  EXPECT_EQ(AM.getCachedResult<InstCount>(F), nullptr);
  EXPECT_EQ(AM.getCachedResult<BlockCount>(K), nullptr);
}

TEST(AnalysisManagerTest, ResultsFollowChangesAfterInvalidation) {
  auto M = readPassInput(TwoFunctions);
  ASSERT_TRUE(M);
  Function &K = fn(*M, "k");
  AnalysisManager AM;
  EXPECT_EQ(AM.getResult<BlockCount>(K), 2u);
  buildCFG(K); // splits after s_cbranch_scc1: k, bb1, label_End
  EXPECT_EQ(AM.getResult<BlockCount>(K), 2u) << "stale until invalidated";
  AM.invalidate(K, PreservedAnalyses::none());
  EXPECT_EQ(AM.getResult<BlockCount>(K), 3u);
}

// --- Passes and the pass manager ------------------------------------------

/// A module pass that logs its name, optionally asks for InstCount first,
/// and returns what it is told to.
class LoggingPass final : public Pass {
public:
  LoggingPass(std::string Name, std::vector<std::string> &Log, PreservedAnalyses PA,
              bool UsesInstCount = false, bool Fails = false)
      : Name(std::move(Name)), Log(Log), PA(std::move(PA)), UsesInstCount(UsesInstCount),
        Fails(Fails) {}
  llvm::StringRef name() const override { return Name; }
  llvm::Expected<PreservedAnalyses> run(Module &M, AnalysisManager &AM,
                                        const PassScope &Scope) override {
    Log.push_back(Name);
    LastScope = Scope;
    if (UsesInstCount)
      for (Function &F : M.functions())
        AM.getResult<InstCount>(F);
    if (Fails)
      return llvm::createStringError(llvm::inconvertibleErrorCode(), Name + " failed");
    return PA;
  }
  PassScope LastScope;

private:
  std::string Name;
  std::vector<std::string> &Log;
  PreservedAnalyses PA;
  bool UsesInstCount, Fails;
};

PreservedAnalyses preservingInstCount() {
  PreservedAnalyses PA = PreservedAnalyses::none();
  PA.preserve<InstCount>();
  return PA;
}

TEST(PassManagerTest, RunsInOrderAndInvalidatesBetweenPasses) {
  auto M = readPassInput(TwoFunctions);
  ASSERT_TRUE(M);
  std::vector<std::string> Log;
  StinkyTofuContext Ctx;
  PassManager PM(Ctx);
  // a computes InstCount (2 functions); b preserves it, so c reuses it; c
  // preserves nothing, so d computes it again.
  PM.add(std::make_unique<LoggingPass>("a", Log, PreservedAnalyses::all(), true));
  PM.add(std::make_unique<LoggingPass>("b", Log, preservingInstCount()));
  PM.add(std::make_unique<LoggingPass>("c", Log, PreservedAnalyses::none(), true));
  PM.add(std::make_unique<LoggingPass>("d", Log, PreservedAnalyses::all(), true));
  EXPECT_EQ(PM.size(), 4u);
  AnalysisManager AM;
  ASSERT_FALSE(static_cast<bool>(PM.run(*M, AM)));
  EXPECT_EQ(Log, (std::vector<std::string>{"a", "b", "c", "d"}));
  EXPECT_EQ(AM.computations(), 4u);
}

TEST(PassManagerTest, AnErrorStopsThePipeline) {
  auto M = readPassInput(TwoFunctions);
  ASSERT_TRUE(M);
  std::vector<std::string> Log;
  StinkyTofuContext Ctx;
  PassManager PM(Ctx);
  PM.add(std::make_unique<LoggingPass>("a", Log, PreservedAnalyses::all()));
  PM.add(std::make_unique<LoggingPass>("b", Log, PreservedAnalyses::all(), false, true));
  PM.add(std::make_unique<LoggingPass>("c", Log, PreservedAnalyses::all()));
  AnalysisManager AM;
  llvm::Error E = PM.run(*M, AM);
  ASSERT_TRUE(static_cast<bool>(E));
  EXPECT_EQ(toString(std::move(E)), "b failed");
  EXPECT_EQ(Log, (std::vector<std::string>{"a", "b"}));
}

TEST(PassManagerTest, ScopeReachesThePasses) {
  auto M = readPassInput(TwoFunctions);
  ASSERT_TRUE(M);
  std::vector<std::string> Log;
  auto P = std::make_unique<LoggingPass>("a", Log, PreservedAnalyses::all());
  LoggingPass *Raw = P.get();
  StinkyTofuContext Ctx;
  PassManager PM(Ctx);
  PM.add(std::move(P));
  PassScope Scope("label_End", "label_End");
  AnalysisManager AM;
  ASSERT_FALSE(static_cast<bool>(PM.run(*M, AM, Scope)));
  EXPECT_EQ(Raw->LastScope.FromLabel, "label_End");
  EXPECT_EQ(Raw->LastScope.ToLabel, "label_End");
}

TEST(PassManagerTest, VerifyEachRunsTheVerifierAfterEveryPass) {
  auto M = readPassInput(TwoFunctions);
  ASSERT_TRUE(M);
  std::vector<std::string> Log;
  PassManagerOptions Opts;
  Opts.VerifyEach = true;
  StinkyTofuContext Ctx;
  PassManager PM(Ctx, Opts);
  PM.add(std::make_unique<LoggingPass>("a", Log, PreservedAnalyses::all()));
  PM.add(std::make_unique<LoggingPass>("b", Log, PreservedAnalyses::all()));
  PM.add(std::make_unique<LoggingPass>("c", Log, PreservedAnalyses::all()));
  unsigned Calls = 0;
  PM.setVerifier([&](const Module &) -> llvm::Error {
    ++Calls;
    Log.push_back("verify");
    if (Calls == 2)
      return llvm::createStringError(llvm::inconvertibleErrorCode(), "broken");
    return llvm::Error::success();
  });
  AnalysisManager AM;
  llvm::Error E = PM.run(*M, AM);
  ASSERT_TRUE(static_cast<bool>(E));
  EXPECT_EQ(toString(std::move(E)), "verifier failed after b: broken");
  EXPECT_EQ(Log, (std::vector<std::string>{"a", "verify", "b", "verify"}));

  // Without VerifyEach the verifier is never called.
  PassManager Quiet(Ctx);
  Quiet.add(std::make_unique<LoggingPass>("a", Log, PreservedAnalyses::all()));
  Quiet.setVerifier([&](const Module &) -> llvm::Error {
    ADD_FAILURE() << "verifier called without VerifyEach";
    return llvm::Error::success();
  });
  EXPECT_FALSE(static_cast<bool>(Quiet.run(*M, AM)));
}

TEST(PassManagerTest, TimePassesAndPrintAfterAll) {
  auto M = readPassInput(TwoFunctions);
  ASSERT_TRUE(M);
  std::vector<std::string> Log;
  std::string Timing, Dump;
  llvm::raw_string_ostream TimingOS(Timing), DumpOS(Dump);
  PassManagerOptions Opts;
  Opts.TimePasses = true;
  Opts.PrintAfterAll = true;
  Opts.TimingStream = &TimingOS;
  StinkyTofuContext Ctx;
  Ctx.setDumpStream(DumpOS);
  PassManager PM(Ctx, Opts);
  PM.setPrinter(writeStir);
  PM.add(std::make_unique<LoggingPass>("first", Log, PreservedAnalyses::all()));
  PM.add(std::make_unique<LoggingPass>("second", Log, PreservedAnalyses::all()));
  AnalysisManager AM;
  ASSERT_FALSE(static_cast<bool>(PM.run(*M, AM)));

  EXPECT_NE(Timing.find("Pass execution timing report"), std::string::npos);
  size_t First = Timing.find("  first\n"), Second = Timing.find("  second\n"),
         Total = Timing.find("(100.0%)  Total\n");
  ASSERT_NE(First, std::string::npos);
  ASSERT_NE(Second, std::string::npos);
  ASSERT_NE(Total, std::string::npos);
  EXPECT_LT(First, Second);
  EXPECT_LT(Second, Total);

  size_t DumpFirst = Dump.find("# *** IR after first ***\nst.module @k {");
  size_t DumpSecond = Dump.find("# *** IR after second ***\nst.module @k {");
  ASSERT_NE(DumpFirst, std::string::npos);
  ASSERT_NE(DumpSecond, std::string::npos);
  EXPECT_LT(DumpFirst, DumpSecond);
}

/// A function pass that preserves nothing on function `k` only.
class ChangesK final : public FunctionPass {
public:
  llvm::StringRef name() const override { return "ChangesK"; }
  llvm::Expected<PreservedAnalyses> runOnFunction(Function &F, AnalysisManager &,
                                                  const PassScope &) override {
    Seen.push_back(F.name().str());
    return F.name() == "k" ? PreservedAnalyses::none() : PreservedAnalyses::all();
  }
  std::vector<std::string> Seen;
};

TEST(FunctionPassTest, InvalidatesPerFunction) {
  auto M = readPassInput(TwoFunctions);
  ASSERT_TRUE(M);
  Function &K = fn(*M, "k"), &F = fn(*M, "f");
  AnalysisManager AM;
  AM.getResult<InstCount>(K);
  AM.getResult<InstCount>(F);
  ChangesK P;
  llvm::Expected<PreservedAnalyses> PA = P.run(*M, AM, PassScope());
  ASSERT_TRUE(static_cast<bool>(PA));
  EXPECT_EQ(P.Seen, (std::vector<std::string>{"k", "f"}));
  EXPECT_TRUE(PA->areAllPreserved()) << "already invalidated function by function";
  EXPECT_EQ(AM.getCachedResult<InstCount>(K), nullptr);
  EXPECT_NE(AM.getCachedResult<InstCount>(F), nullptr);
}

TEST(PassScopeTest, InScopeIsInclusiveInModuleOrder) {
  auto M = readPassInput(TwoFunctions);
  ASSERT_TRUE(M);
  std::vector<const Instruction *> All;
  for (const Function &F : M->functions())
    for (const BasicBlock &BB : F.blocks())
      for (const Instruction &I : BB.instructions())
        All.push_back(&I);
  ASSERT_EQ(All.size(), 6u);
  PassScope Whole;
  EXPECT_TRUE(Whole.isWholeModule());
  for (const Instruction *I : All)
    EXPECT_TRUE(inScope(*M, Whole, *I));
  // label_End's block ends with its function.
  PassScope Block("label_End", "label_End");
  for (size_t I = 0; I < All.size(); ++I)
    EXPECT_EQ(inScope(*M, Block, *All[I]), I == 3) << I;
  PassScope Head("", "label_End");
  for (size_t I = 0; I < All.size(); ++I)
    EXPECT_EQ(inScope(*M, Head, *All[I]), I <= 3) << I;
  PassScope Tail("label_End", "");
  for (size_t I = 0; I < All.size(); ++I)
    EXPECT_EQ(inScope(*M, Tail, *All[I]), I >= 3) << I;
}

} // namespace
