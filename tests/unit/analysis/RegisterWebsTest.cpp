//===- RegisterWebsTest.cpp - Values of registers and the renaming check --===//
#include "analysis/AnalysisTestModules.h"
#include "stinkytofu/analysis/LaneLiveness.h"
#include "stinkytofu/analysis/RegisterWebs.h"
#include "stinkytofu/mc/InstBuilder.h"

#include "gtest/gtest.h"

using namespace stinkytofu;
using namespace stinkytofu::analysistest;

namespace {

constexpr WebFiles AllFiles{true, true, true};

RegisterWebs websOf(Function &F) {
  Liveness L(F);
  LaneLiveness LL(L);
  llvm::Expected<RegisterWebs> W = RegisterWebs::build(F, L, LL, AllFiles);
  EXPECT_TRUE(bool(W)) << (W ? "" : llvm::toString(W.takeError()));
  return std::move(*W);
}

/// Respells operand \p K of \p I as VGPR \p Reg (through MC).
void respell(Module &M, Instruction &I, unsigned K, unsigned Reg) {
  std::vector<Operand> Ops = I.operands();
  Ops[K] = Operand(OperandKind::Register, "v" + std::to_string(Reg));
  Ops[K].setRegister(RegFile::VGPR, Reg, 1, false);
  InstBuilder B(M);
  ASSERT_FALSE(bool(B.setOperands(I, std::move(Ops))));
}

constexpr const char *RewrittenV5Kernel = R"(
k:
  v_mov_b32 v5, 1.0
  v_add_f32 v6, v5, v0
  v_mov_b32 v5, 2.0
  v_add_f32 v7, v5, v6
  global_store_dword v0, v7, s[0:1]
  s_endpgm
)";

TEST(RegisterWebsTest, EachWriteStartsAValueAndReadsJoinIt) {
  auto M = readModule(RewrittenV5Kernel);
  ASSERT_TRUE(M);
  RegisterWebs W = websOf(*M->entry());
  // v5 twice, v6, v7; v0 and s[0:1] from outside.
  EXPECT_EQ(W.webs().size(), 7u);
  EXPECT_EQ(W.entryWebs(), 3u);
  EXPECT_EQ(W.registersNamed(PressureFile::VGPR), 8u);
  EXPECT_EQ(W.registersNamed(PressureFile::SGPR), 2u);
  // The two values of v5 are not live at once; v6 and the second v5 are.
  std::vector<unsigned> V5;
  for (unsigned I = 0; I != W.webs().size(); ++I)
    if (W.webs()[I].File == PressureFile::VGPR && W.webs()[I].Reg == 5)
      V5.push_back(I);
  ASSERT_EQ(V5.size(), 2u);
  EXPECT_FALSE(W.interfere(V5[0], V5[1]));
  unsigned V6 = 0;
  for (unsigned I = 0; I != W.webs().size(); ++I)
    if (W.webs()[I].File == PressureFile::VGPR && W.webs()[I].Reg == 6)
      V6 = I;
  EXPECT_TRUE(W.interfere(V5[1], V6));
}

TEST(RegisterWebsTest, TheValidatorAcceptsAConsistentRenaming) {
  auto M = readModule(RewrittenV5Kernel);
  ASSERT_TRUE(M);
  Function &F = *M->entry();
  RegisterWebs Before = websOf(F);
  // The second value of v5 moves to v9, its write and its read.
  respell(*M, *instOf(*M, "v_mov_b32", 1), 0, 9);
  respell(*M, *instOf(*M, "v_add_f32", 1), 1, 9);
  EXPECT_EQ(Before.differingOccurrence(websOf(F)), std::nullopt);
}

TEST(RegisterWebsTest, TheValidatorRefusesAReadOfAnotherValue) {
  auto M = readModule(RewrittenV5Kernel);
  ASSERT_TRUE(M);
  Function &F = *M->entry();
  RegisterWebs Before = websOf(F);
  // v6 moved onto v5: the second write of v5 now overwrites it before the
  // second add reads it.
  respell(*M, *instOf(*M, "v_add_f32", 0), 0, 5);
  respell(*M, *instOf(*M, "v_add_f32", 1), 2, 5);
  std::optional<std::string> Why = Before.differingOccurrence(websOf(F));
  ASSERT_TRUE(Why);
  EXPECT_NE(Why->find("reads another value than before"), std::string::npos) << *Why;
}

TEST(RegisterWebsTest, TheValidatorRefusesMovingARegisterFromOutside) {
  auto M = readModule(RewrittenV5Kernel);
  ASSERT_TRUE(M);
  Function &F = *M->entry();
  RegisterWebs Before = websOf(F);
  // v0 (the work-item ID) read from v3 instead, everywhere: the reads still
  // form one value, but it is not the one the kernel starts with.
  respell(*M, *instOf(*M, "v_add_f32", 0), 2, 3);
  respell(*M, *instOf(*M, "global_store_dword"), 0, 3);
  std::optional<std::string> Why = Before.differingOccurrence(websOf(F));
  ASSERT_TRUE(Why);
  EXPECT_NE(Why->find("moves a register that must stay"), std::string::npos) << *Why;
}

TEST(RegisterWebsTest, AWriteUnderExecWhoseOtherLanesAreReadContinuesTheValue) {
  // v5's second write leaves the lanes EXEC excludes, which the store reads
  // once EXEC is restored: one value, not two.
  auto M = readModule(R"(
k:
  v_mov_b32 v5, 1.0
  v_cmp_gt_u32 vcc, 4, v0
  s_and_saveexec_b64 s[2:3], vcc
  v_mov_b32 v5, 2.0
  s_or_b64 exec, exec, s[2:3]
  global_store_dword v0, v5, s[0:1]
  s_endpgm
)");
  ASSERT_TRUE(M);
  RegisterWebs W = websOf(*M->entry());
  unsigned V5 = 0;
  for (const RegisterWebs::Web &Web : W.webs())
    V5 += Web.File == PressureFile::VGPR && Web.Reg == 5;
  EXPECT_EQ(V5, 1u);
  // Both writes of v5 keep lanes read later (the first precedes an EXEC
  // change, after which the store may read lanes it did not write); the
  // store and the compare write no VGPR.
  ASSERT_EQ(W.laneKeepingWrites().size(), 2u);
  EXPECT_EQ(W.laneKeepingWrites()[0]->location().Line, 3u);
  EXPECT_EQ(W.laneKeepingWrites()[1]->location().Line, 6u);
}

} // namespace
