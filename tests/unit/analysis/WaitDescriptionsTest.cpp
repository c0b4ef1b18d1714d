//===- WaitDescriptionsTest.cpp - Wait descriptions kept by edit stamp ----===//
//
// The wait analyses keep each instruction's description under its edit
// stamp (Instruction::stamp), shared across runs, passes and analysis
// managers (WaitDescriptions). Every change of an instruction must give it
// a new stamp, or a later run reads the description of what it was: the
// tests change a wait, a load and the code around them between runs sharing
// one WaitDescriptions and require the waits of a run that describes
// everything anew.
//
//===----------------------------------------------------------------------===//
#include "analysis/AnalysisTestModules.h"
#include "stinkytofu/analysis/AnalysisManager.h"
#include "stinkytofu/analysis/WaitCountAnalysis.h"
#include "stinkytofu/mc/InstBuilder.h"

#include "llvm/Support/Error.h"
#include "gtest/gtest.h"

#include <set>

using namespace stinkytofu;
using namespace stinkytofu::analysistest;

namespace {

constexpr const char *TwoLoads = R"(
k:
  global_load_dword v8, v[2:3], off
  global_load_dword v9, v[2:3], off
  s_waitcnt vmcnt(1)
  v_mul_f32_e32 v10, v8, v8
  s_nop 0
  v_mul_f32_e32 v11, v9, v9
  s_endpgm
)";

/// The lines of the consumers that lack a wait, with \p Opts.
std::vector<unsigned> missingLines(const Function &F, const CounterModel &CM,
                                   WaitCountOptions Opts) {
  llvm::Expected<WaitCountAnalysis> A = WaitCountAnalysis::run(F, CM, Opts);
  EXPECT_TRUE(bool(A)) << llvm::toString(A.takeError());
  std::vector<unsigned> Lines;
  if (A)
    for (const MissingWait &W : A->missingWaits())
      Lines.push_back(W.Consumer->location().Line);
  return Lines;
}

Instruction *nthInFunction(Function &F, llvm::StringRef Mnemonic, unsigned N = 0) {
  for (BasicBlock &BB : F.blocks())
    for (Instruction &I : BB.instructions())
      if (I.mnemonic() == Mnemonic && N-- == 0)
        return &I;
  return nullptr;
}

TEST(InstructionStamp, EveryChangeTakesANewStamp) {
  std::unique_ptr<Module> M = readModule(TwoLoads);
  ASSERT_TRUE(M);
  Function &F = *M->entry();
  Instruction *Wait = nthInFunction(F, "s_waitcnt");
  ASSERT_TRUE(Wait);
  std::set<uint64_t> Seen;
  for (BasicBlock &BB : F.blocks())
    for (Instruction &I : BB.instructions())
      EXPECT_TRUE(Seen.insert(I.stamp()).second) << "two instructions share a stamp";
  auto Changes = [&](llvm::StringRef What, auto Change) {
    uint64_t Before = Wait->stamp();
    Change(*Wait);
    EXPECT_NE(Wait->stamp(), Before) << What.str() << " kept the stamp";
    EXPECT_TRUE(Seen.insert(Wait->stamp()).second) << What.str() << " reused a stamp";
  };
  Changes("setLocation", [](Instruction &I) { I.setLocation({9, 1}); });
  Changes("setTrailingComment", [](Instruction &I) { I.setTrailingComment("// c"); });
  Changes("setMnemonicSpelling", [](Instruction &I) { I.setMnemonicSpelling("S_WAITCNT"); });
  Changes("setCycleOverrides", [](Instruction &I) { I.setCycleOverrides(2, 3); });
  Changes("setSourceText", [](Instruction &I) { I.setSourceText("  s_waitcnt vmcnt(0)\n"); });
  Changes("setMC", [&](Instruction &I) {
    llvm::SmallVector<llvm::MCInst, 1> MC(I.mcInsts().begin(), I.mcInsts().end());
    I.setMC(std::move(MC), M->target());
  });
  Changes("setModifier", [](Instruction &I) {
    I.setModifier(std::make_unique<MemTokenData>(std::vector<int64_t>{1}));
  });
  Changes("removeModifier", [](Instruction &I) { I.removeModifier(ModifierKind::MemTokenData); });
  Changes("setOperands", [](Instruction &I) { I.setOperands(I.operands()); });
  // A clone is another instruction; a move leaves neither side's stamp.
  Instruction Copy = Wait->clone();
  EXPECT_TRUE(Seen.insert(Copy.stamp()).second) << "a clone kept a stamp";
  uint64_t CopyStamp = Copy.stamp();
  Instruction Moved(std::move(Copy));
  EXPECT_NE(Moved.stamp(), CopyStamp);
  EXPECT_NE(Copy.stamp(), CopyStamp);
  EXPECT_NE(Moved.stamp(), Copy.stamp());
}

TEST(WaitDescriptions, SharedRunsSeeEveryChange) {
  std::unique_ptr<Module> M = readModule(TwoLoads);
  ASSERT_TRUE(M);
  Function &F = *M->entry();
  CounterModel CM(M->target());
  WaitDescriptions Shared;
  WaitCountOptions Opts{.Descriptions = &Shared};
  EXPECT_EQ(missingLines(F, CM, Opts), std::vector<unsigned>{8}); // v9
  EXPECT_EQ(Shared.described(), 7u);
  // Described once: a second run adds nothing.
  EXPECT_EQ(missingLines(F, CM, Opts), std::vector<unsigned>{8});
  EXPECT_EQ(Shared.described(), 7u);

  // vmcnt(1) -> vmcnt(0): described again, nothing missing (with the old
  // description, v5 would still lack its wait).
  InstBuilder Builder(*M);
  ASSERT_FALSE(bool(
      Builder.rewrite(*nthInFunction(F, "s_waitcnt"), {BuildOperand::waitcnt({.VmCnt = 0u})})));
  EXPECT_EQ(missingLines(F, CM, Opts), std::vector<unsigned>{});
  EXPECT_EQ(Shared.described(), 8u);

  // The wait erased and a copy of the second load put in its place, likely
  // at the erased wait's address: both loads' readers now lack waits.
  Instruction *Wait = nthInFunction(F, "s_waitcnt");
  Instruction Load = nthInFunction(F, "global_load_dword", 1)->clone();
  BasicBlock &BB = *Wait->parent();
  auto Pos = std::next(Wait->getIterator());
  Wait->removeFromParent(); // destroyed here
  BB.insert(Pos, std::move(Load));
  WaitCountOptions Fresh;
  EXPECT_EQ(missingLines(F, CM, Opts), missingLines(F, CM, Fresh));
  EXPECT_EQ(missingLines(F, CM, Opts).size(), 2u);
}

TEST(WaitDescriptions, LastAcrossInvalidationAndManagers) {
  std::unique_ptr<Module> M = readModule(TwoLoads);
  ASSERT_TRUE(M);
  AnalysisManager Pipeline;
  WaitDescriptions &D = Pipeline.getLastingResult<WaitDescriptionsAnalysis>(*M);
  Pipeline.invalidateAll(PreservedAnalyses::none());
  Pipeline.invalidate(*M->entry(), PreservedAnalyses::none());
  EXPECT_EQ(&Pipeline.getLastingResult<WaitDescriptionsAnalysis>(*M), &D);
  AnalysisManager InputCheck;
  InputCheck.shareLastingResults(Pipeline);
  EXPECT_EQ(&InputCheck.getLastingResult<WaitDescriptionsAnalysis>(*M), &D);
  // The function caches of the scheduler and the wait insertion describe
  // through the same descriptions.
  WaitCountCache &Cache = Pipeline.getResult<WaitCountCacheAnalysis>(*M->entry());
  CounterModel CM(M->target());
  ASSERT_TRUE(bool(WaitCountAnalysis::run(*M->entry(), CM, {}, Cache)));
  EXPECT_EQ(D.described(), 7u);
  WaitCountOptions Opts{.Descriptions = &InputCheck.getLastingResult<WaitDescriptionsAnalysis>(*M)};
  EXPECT_EQ(missingLines(*M->entry(), CM, Opts), std::vector<unsigned>{8});
  EXPECT_EQ(D.described(), 7u);
}

} // namespace
