//===- VgprMsbCloneTest.cpp - Raised VGPR MSB switches and clones ---------===//
//
// RaiseVgprMsbPass keeps each s_set_vgpr_msb it takes out on the
// instruction it was raised off; InsertVgprMsbPass writes it back there.
// A clone of that instruction is another instruction: it carries none, so
// a switch is never written back twice, and one that takes the original's
// place (even at the original's address) gets a switch of its own.
//
//===----------------------------------------------------------------------===//
#include "TransformTestUtil.h"

#include "stinkytofu/ir/StinkyTofuContext.h"
#include "stinkytofu/passes/PassRegistry.h"
#include "stinkytofu/transforms/VgprMsbPasses.h"

using namespace stinkytofu;
using namespace stinkytofu::transformtest;

namespace {

constexpr llvm::StringLiteral UserMsbSwitchKernel = "k:\n"
                                                    "  s_set_vgpr_msb 1 // the user's switch\n"
                                                    "  v_mov_b32 v0, v44\n"
                                                    "  s_endpgm\n";

void runPass(StinkyTofuContext &Ctx, Module &M, llvm::StringRef Name) {
  llvm::Expected<std::unique_ptr<Pass>> P = passRegistry(Ctx).create(Name);
  ASSERT_TRUE(bool(P)) << llvm::toString(P.takeError());
  AnalysisManager AM;
  llvm::Expected<PreservedAnalyses> PA = (*P)->run(M, AM, PassScope{});
  ASSERT_TRUE(bool(PA)) << llvm::toString(PA.takeError());
}

/// The kernel after RaiseVgprMsbPass: its v_mov_b32 holds the switch.
class ClonedInstructionAfterVgprMsbRaising : public ::testing::Test {
protected:
  void SetUp() override {
    M = read(UserMsbSwitchKernel, "gfx1250");
    ASSERT_TRUE(M);
    runPass(Ctx, *M, "RaiseVgprMsbPass");
    Anchor = nth(*M, "v_mov_b32");
    ASSERT_TRUE(Anchor);
  }
  StinkyTofuContext Ctx;
  std::unique_ptr<Module> M;
  Instruction *Anchor = nullptr;
};

TEST_F(ClonedInstructionAfterVgprMsbRaising, ACloneTakingTheAnchorsPlaceGetsASwitchOfItsOwn) {
  // Replaced by its clone: the clone is made first and placed right after
  // the original is freed, so it may well live at the original's address.
  BasicBlock &BB = *Anchor->parent();
  ASSERT_TRUE(Anchor->getModifier<RaisedVgprMsbData>());
  Instruction Copy = Anchor->clone();
  EXPECT_FALSE(Copy.getModifier<RaisedVgprMsbData>());
  EXPECT_TRUE(Anchor->getModifier<RaisedVgprMsbData>());
  auto Next = std::next(Anchor->getIterator());
  Anchor->eraseFromParent();
  BB.insert(Next, std::move(Copy));
  runPass(Ctx, *M, "InsertVgprMsbPass");
  std::string Out = asmOf(*M);
  EXPECT_EQ(llvm::StringRef(Out).count("// the user's switch"), 0u) << Out;
  EXPECT_EQ(llvm::StringRef(Out).count("s_set_vgpr_msb 1 ; msbs: dst=0 src0=1 src1=0 src2=0\n"),
            1u)
      << Out;
  EXPECT_EQ(llvm::StringRef(Out).count("s_set_vgpr_msb"), 1u) << Out;
}

TEST_F(ClonedInstructionAfterVgprMsbRaising, ACloneBesideTheAnchorDoesNotWriteItsSwitchAgain) {
  Anchor->parent()->insert(std::next(Anchor->getIterator()), Anchor->clone());
  runPass(Ctx, *M, "InsertVgprMsbPass");
  // Written back, the switches are done with. The original keeps its
  // spelling; the clone, new code, is spelled as LLVM prints it.
  EXPECT_FALSE(Anchor->getModifier<RaisedVgprMsbData>());
  std::string Out = asmOf(*M);
  llvm::StringRef Expected = "s_set_vgpr_msb 1 // the user's switch\n"
                             "  v_mov_b32 v0, v44\n"
                             "  v_mov_b32 v0, v44 /*v300*/\n";
  EXPECT_EQ(llvm::StringRef(Out).count(Expected), 1u) << Out;
  EXPECT_EQ(llvm::StringRef(Out).count("s_set_vgpr_msb"), 1u) << Out;
}

} // namespace
