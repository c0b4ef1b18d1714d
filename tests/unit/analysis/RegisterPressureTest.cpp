//===- RegisterPressureTest.cpp - Live register counts on small kernels ---===//
#include "analysis/AnalysisTestModules.h"
#include "stinkytofu/analysis/RegisterPressure.h"

#include "gtest/gtest.h"

using namespace stinkytofu;
using namespace stinkytofu::analysistest;

namespace {

PressureCounts counts(unsigned V, unsigned A, unsigned S) {
  PressureCounts C;
  C[PressureFile::VGPR] = V;
  C[PressureFile::AGPR] = A;
  C[PressureFile::SGPR] = S;
  return C;
}

std::string show(const PressureCounts &C) {
  return "v" + std::to_string(C[PressureFile::VGPR]) + " a" +
         std::to_string(C[PressureFile::AGPR]) + " s" + std::to_string(C[PressureFile::SGPR]);
}

TEST(RegisterPressureTest, StraightLineCountsEveryFileAndTuplesWhole) {
  // s[0:1] is a kernarg pointer live on entry (two SGPRs); the 128-bit load
  // writes four VGPRs at once; v_accvgpr_write puts one value in an AGPR.
  auto M = readModule(R"(
k:
  s_load_dwordx2 s[2:3], s[0:1], 0x0
  v_mov_b32 v0, 0
  s_waitcnt lgkmcnt(0)
  global_load_dwordx4 v[4:7], v0, s[2:3]
  s_waitcnt vmcnt(0)
  v_accvgpr_write_b32 a3, v5
  v_add_u32 v1, v4, v7
  global_store_dword v0, v1, s[2:3]
  s_endpgm
)");
  ASSERT_TRUE(M);
  Function &F = *M->entry();
  Liveness L(F);
  RegisterPressure P(L);
  // s_load: s[0:1] read, s[2:3] written.
  EXPECT_EQ(show(P.at(*instOf(*M, "s_load_dwordx2"))), show(counts(0, 0, 4)));
  // v_mov: s[2:3] live (the load's result), v0 written.
  EXPECT_EQ(show(P.at(*instOf(*M, "v_mov_b32"))), show(counts(1, 0, 2)));
  // The load: v0 and s[2:3] read, v[4:7] written whole.
  EXPECT_EQ(show(P.at(*instOf(*M, "global_load_dwordx4"))), show(counts(5, 0, 2)));
  // v_accvgpr_write: v0 v4 v5 v7 live before (v6 is dead), a3 written.
  EXPECT_EQ(show(P.at(*instOf(*M, "v_accvgpr_write_b32"))), show(counts(4, 1, 2)));
  // v_add: v0 v4 v7 read, v1 written; a3 is dead (never read).
  EXPECT_EQ(show(P.at(*instOf(*M, "v_add_u32"))), show(counts(4, 0, 2)));
  EXPECT_EQ(show(P.at(*instOf(*M, "global_store_dword"))), show(counts(2, 0, 2)));
  EXPECT_EQ(show(P.max()), show(counts(5, 1, 4)));
  ASSERT_EQ(P.maxPoints(PressureFile::VGPR).size(), 1u);
  EXPECT_EQ(P.maxPoints(PressureFile::VGPR)[0], instOf(*M, "global_load_dwordx4"));
  EXPECT_EQ(P.maxPoints(PressureFile::SGPR)[0], instOf(*M, "s_load_dwordx2"));
  // The allocation: v7, a3 and s3 are the highest registers named.
  EXPECT_EQ(show(P.highestUsed()), show(counts(8, 4, 4)));
  EXPECT_EQ(P.unitMap().registers(P.occupiedAt(*instOf(*M, "v_add_u32")), PressureFile::VGPR),
            (std::vector<unsigned>{0, 1, 4, 7}));
}

TEST(RegisterPressureTest, LoopMaximumAndBlockMaxima) {
  // The loop keeps v0..v3 and s4 live around the back edge; the exit block
  // only stores v0.
  auto M = readModule(R"(
k:
  v_mov_b32 v0, 0
  v_mov_b32 v1, 1
  v_mov_b32 v2, 2
  v_mov_b32 v3, 3
  s_mov_b32 s4, 8
L_loop:
  v_add_u32 v0, v0, v1
  v_add_u32 v1, v1, v2
  v_mul_lo_u32 v2, v2, v3
  s_sub_u32 s4, s4, 1
  s_cmp_lg_u32 s4, 0
  s_cbranch_scc1 L_loop
L_exit:
  global_store_dword v[8:9], v0, off
  s_endpgm
)");
  ASSERT_TRUE(M);
  Function &F = *M->entry();
  Liveness L(F);
  DominatorTree DT(F);
  LoopInfo LI(F, DT);
  RegisterPressure P(L);
  ASSERT_EQ(LI.topLevelLoops().size(), 1u);
  // In the loop: v0..v3 and v[8:9] (read after the loop) are live, s4.
  EXPECT_EQ(show(P.loopMax(*LI.topLevelLoops()[0])), show(counts(6, 0, 1)));
  EXPECT_EQ(show(P.blockMax(*blockOf(*M, "L_exit"))), show(counts(3, 0, 0)));
  EXPECT_EQ(show(P.blockMax(*blockOf(*M, "k"))), show(counts(6, 0, 1)));
  EXPECT_EQ(show(P.max()), show(counts(6, 0, 1)));
  // s_cmp reads s4 and writes SCC, which is not counted.
  EXPECT_EQ(show(P.at(*instOf(*M, "s_cmp_lg_u32"))), show(counts(6, 0, 1)));
  EXPECT_EQ(show(P.highestUsed()), show(counts(10, 0, 5)));
}

TEST(RegisterPressureTest, SixteenBitHalfCountsTheRegister) {
  // A 16-bit write of v1.h occupies v1 once, not twice; the v_pk_add reads
  // both halves of v1.
  auto M = readModule(R"(
k:
  v_mov_b32 v0, 0
  v_mov_b16 v1.l, 1
  v_mov_b16 v1.h, 2
  v_pk_add_u16 v2, v1, v0
  global_store_dword v[4:5], v2, off
  s_endpgm
)",
                      forArch("gfx1100"));
  ASSERT_TRUE(M);
  Liveness L(*M->entry());
  RegisterPressure P(L);
  // Before v_mov_b16 v1.h: v0, v1.l and v[4:5] live, v1.h written: v0 v1 v4 v5.
  EXPECT_EQ(show(P.at(*instOf(*M, "v_mov_b16", 1))), show(counts(4, 0, 0)));
  EXPECT_EQ(show(P.max()), show(counts(5, 0, 0)));
}

// f is a callable function (gfx942): its caller reads, after the return,
// the return address s[30:31], the stack pointer s32, the return value
// (v0: f writes v0 on every path, not v1) and the callee-saved registers f
// writes: v40, s34, a32. v41 (callee-saved, only read), v2 (written, but
// past the return value), v35, s4 and a0 (caller-saved) are dead once
// read; s33 (callee-saved, never named) holds the caller's value and is not
// f's.
const char *const CallableModule = R"(
.type k,@function
k:
  s_endpgm
.type f,@function
f:
  v_add_u32 v35, v1, v41
  v_mov_b32 v2, v35
  v_mov_b32 v40, v2
  s_mov_b32 s4, 1
  s_add_u32 s34, s4, 2
  v_accvgpr_write_b32 a0, v35
  v_accvgpr_write_b32 a32, v35
  v_mov_b32 v0, v35
  s_setpc_b64 s[30:31]
)";

TEST(RegisterPressureTest, CallableCountsWhatTheConventionKeepsAfterAReturn) {
  auto M = readModule(CallableModule, forArch("gfx942"));
  ASSERT_TRUE(M);
  AnalysisManager AM;
  Function &F = *functionOf(*M, "f");
  ASSERT_FALSE(F.isEntry());
  auto P = AM.getResult<RegisterPressureAnalysis>(F);
  ASSERT_TRUE(bool(P)) << llvm::toString(P.takeError());
  // At the return: v0 v40, a32, s30 s31 s32 s34.
  EXPECT_EQ(show(P->at(*instOf(*M, "s_setpc_b64"))), show(counts(2, 1, 4)));
  // On entry: v1 and v41 read, v35 written; s30 s31 s32.
  EXPECT_EQ(show(P->at(*instOf(*M, "v_add_u32"))), show(counts(3, 0, 3)));
  // v2 read, v35 live, v40 written.
  EXPECT_EQ(show(P->at(*instOf(*M, "v_mov_b32", 1))), show(counts(3, 0, 3)));
  // v35 v40 live, v0 written.
  EXPECT_EQ(show(P->at(*instOf(*M, "v_mov_b32", 2))), show(counts(3, 1, 4)));
  // s4 read, s34 written: five SGPRs.
  EXPECT_EQ(show(P->at(*instOf(*M, "s_add_u32"))), show(counts(2, 0, 5)));
  EXPECT_EQ(show(P->max()), show(counts(3, 1, 5)));
  // Without the convention, the caller may read any register after the
  // return: the whole file is live there.
  Liveness Everything(F);
  EXPECT_EQ(RegisterPressure(Everything).at(*instOf(*M, "s_setpc_b64"))[PressureFile::VGPR],
            256u);
}

TEST(RegisterPressureTest, AnalysisManagerNeedsACFG) {
  auto M = test::readAsmText("k:\n  s_endpgm\n", "gfx942", false);
  ASSERT_TRUE(M);
  AnalysisManager AM;
  auto P = AM.getResult<RegisterPressureAnalysis>(*M->entry());
  EXPECT_FALSE(bool(P));
  llvm::consumeError(P.takeError());
}

} // namespace
