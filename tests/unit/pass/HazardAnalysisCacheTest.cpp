//===- HazardAnalysisCacheTest.cpp - One hazard analysis for repair and verifier -===//
#include "TestModules.h"
#include "stinkytofu/analysis/HazardAnalysis.h"
#include "stinkytofu/ir/Module.h"
#include "stinkytofu/passes/PassPipeline.h"
#include "stinkytofu/passes/PassRegistry.h"
#include "stinkytofu/transforms/CFGBuilderPass.h"
#include "gtest/gtest.h"

using namespace stinkytofu;

namespace {

// Line 8 reads the carry pair the VALU of line 7 wrote with no wait state
// between (gfx942 needs 2): the repair inserts an s_nop.
constexpr const char *CarryHazardKernel = R"(	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.text
	.globl k
	.p2align 8
	.type k,@function
k:
	v_add_co_u32_e64 v2, s[16:17], v0, v1
	v_addc_co_u32_e64 v3, s[18:19], v4, v5, s[16:17]
	s_endpgm
)";

llvm::Error runPasses(Module &M, AnalysisManager &AM, StinkyTofuContext &Ctx,
                      llvm::ArrayRef<std::string> Specs) {
  PassManager PM(Ctx);
  if (llvm::Error E = addPasses(PM, Specs, passRegistry(Ctx)))
    return E;
  return PM.run(M, AM);
}

TEST(HazardAnalysisCacheTest, TheVerifierReadsTheAnalysisTheRepairKeptCurrent) {
  StinkyTofuContext Ctx;
  std::unique_ptr<Module> M = test::readAsmText(CarryHazardKernel, "", false, "k.s", &Ctx);
  ASSERT_TRUE(M);
  AnalysisManager AM;
  ASSERT_FALSE(errorToBool(runPasses(*M, AM, Ctx, {"HazardRecognizerPass"})));
  Function &F = M->functions().front();
  HazardAnalysis *Cached = AM.getCachedResult<CachedHazardAnalysis>(F);
  ASSERT_NE(Cached, nullptr) << "the repair must leave its analysis in the cache";
  ASSERT_EQ(F.blocks().front().instructions().size(), 4u) << "one s_nop inserted";

  // The refreshed analysis says what a new one says: nothing is missing.
  HazardAnalysis Fresh(F, HazardModel::of(M->target()));
  for (const Instruction &I : F.blocks().front().instructions()) {
    EXPECT_EQ(Cached->needs(I).States, Fresh.needs(I).States) << I.mnemonic().str();
    EXPECT_TRUE(Cached->needs(I).empty()) << I.mnemonic().str();
  }

  // The verifier builds no analysis of its own.
  unsigned Before = AM.computations();
  EXPECT_FALSE(errorToBool(runPasses(*M, AM, Ctx, {"HazardVerifier"})));
  EXPECT_EQ(AM.computations(), Before);
  EXPECT_EQ(AM.getCachedResult<CachedHazardAnalysis>(F), Cached);
}

TEST(HazardAnalysisCacheTest, TheRepairReusesTheVerifiersAnalysisAndKeepsItCurrent) {
  StinkyTofuContext Ctx;
  std::unique_ptr<Module> M = test::readAsmText(CarryHazardKernel, "", false, "k.s", &Ctx);
  ASSERT_TRUE(M);
  AnalysisManager AM;
  // The verifier caches the analysis of the input, which has the hazard.
  llvm::Error Found = runPasses(*M, AM, Ctx, {"HazardVerifier"});
  EXPECT_TRUE(errorToBool(std::move(Found)));
  Function &F = M->functions().front();
  ASSERT_NE(AM.getCachedResult<CachedHazardAnalysis>(F), nullptr);
  // The repair starts from it and reads the block it inserts into again: the
  // verifier after it finds nothing.
  ASSERT_FALSE(errorToBool(runPasses(*M, AM, Ctx, {"HazardRecognizerPass", "HazardVerifier"})));
}

TEST(HazardAnalysisCacheTest, TraitsRecordedByStampServeAnotherAnalysisUntilTheInstructionChanges) {
  StinkyTofuContext Ctx;
  std::unique_ptr<Module> M = test::readAsmText(CarryHazardKernel, "", false, "k.s", &Ctx);
  ASSERT_TRUE(M);
  Function &F = M->functions().front();
  buildCFG(F);
  const HazardModel &Model = HazardModel::of(M->target());
  Instruction &Producer = F.blocks().front().instructions().front();
  Instruction &Reader = *std::next(F.blocks().front().instructions().begin());
  HazardTraitsCache Cache;
  HazardAnalysis Recording(F, Model, &Cache, /*RecordStamps=*/true);
  EXPECT_FALSE(Recording.needs(Reader).empty());
  // Another analysis reading the same instructions through the cache.
  HazardAnalysis Again(F, Model, &Cache);
  EXPECT_EQ(Again.needs(Reader).States, Recording.needs(Reader).States);

  // The reader takes its own carry-out as carry-in: a new stamp, so its
  // traits are computed again and the hazard is gone, as a new analysis says.
  llvm::MCRegister Written = Producer.mcInsts().front().getOperand(1).getReg();
  llvm::MCRegister Own = Reader.mcInsts().front().getOperand(1).getReg();
  llvm::MCInst Changed = Reader.mcInsts().front();
  for (llvm::MCOperand &Op : Changed)
    if (Op.isReg() && Op.getReg() == Written)
      Op.setReg(Own);
  Reader.setMC({Changed}, M->target());
  HazardAnalysis AfterEdit(F, Model, &Cache);
  HazardAnalysis Fresh(F, Model);
  EXPECT_TRUE(Fresh.needs(Reader).empty());
  EXPECT_TRUE(AfterEdit.needs(Reader).empty());
}

TEST(HazardAnalysisCacheTest, AnAnswerWhoseSearchesLeaveTheBlockIsRecomputedAfterAnotherBlockIsRead) {
  // Block .LB's first carry reader searches back into k's block; the second
  // has wait states enough before it in .LB. A producer appended to k's
  // block gives the first a hazard, not the second.
  StinkyTofuContext Ctx;
  std::unique_ptr<Module> M = test::readAsmText(R"(	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.text
	.globl k
	.p2align 8
	.type k,@function
k:
	v_add_co_u32_e64 v2, s[16:17], v0, v1
	s_nop 7
.LB:
	v_addc_co_u32_e64 v3, s[18:19], v4, v5, s[16:17]
	s_nop 7
	v_addc_co_u32_e64 v7, s[20:21], v4, v5, s[16:17]
	s_endpgm
)",
                                                "", false, "k.s", &Ctx);
  ASSERT_TRUE(M);
  Function &F = M->functions().front();
  buildCFG(F);
  ASSERT_EQ(F.blocks().size(), 2u);
  BasicBlock &Entry = F.blocks().front();
  BasicBlock &Next = *std::next(F.blocks().begin());
  const HazardModel &Model = HazardModel::of(M->target());
  HazardAnalysis Kept(F, Model);
  for (const Instruction &I : Next.instructions())
    EXPECT_TRUE(Kept.needs(I).empty()) << I.mnemonic().str();

  Entry.append(Entry.instructions().front().clone());
  Kept.refresh(Entry);
  HazardAnalysis Fresh(F, Model);
  const Instruction &Near = Next.instructions().front();
  EXPECT_EQ(Fresh.needs(Near).States, 2u);
  for (const Instruction &I : Next.instructions())
    EXPECT_EQ(Kept.needs(I).States, Fresh.needs(I).States) << I.mnemonic().str();
}

} // namespace
