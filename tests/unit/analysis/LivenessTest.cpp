//===- LivenessTest.cpp - Register liveness over register units -----------===//
//
// SCC, s_cbranch_execz, loop and call cases, each in `.s` and `.stir`, are in
// StirLivenessTest.cpp.
//
//===----------------------------------------------------------------------===//
#include "analysis/AnalysisTestModules.h"
#include "stinkytofu/analysis/Liveness.h"
#include "stinkytofu/hw/HardwareModel.h"
#include "stinkytofu/ir/Modifier.h"

#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

using namespace stinkytofu;
using namespace stinkytofu::analysistest;
using llvm::MCRegister;

namespace {

/// `s5`, `v3`, `a7`, `s[4:5]` as an MC register of \p M's target.
MCRegister reg(const Module &M, llvm::StringRef Name) {
  const TargetInfo &TI = M.target();
  RegClass C = Name.front() == 's'   ? RegClass::SGPR
               : Name.front() == 'v' ? RegClass::VGPR
                                     : RegClass::AGPR;
  Name = Name.drop_front();
  unsigned First, Last;
  if (Name.consume_front("[")) {
    auto [A, B] = Name.drop_back().split(':');
    A.getAsInteger(10, First);
    B.getAsInteger(10, Last);
    RegisterUnits RU(TI);
    return C == RegClass::SGPR ? RU.sgprTuple(First, Last - First + 1) : MCRegister();
  }
  Name.getAsInteger(10, First);
  return TI.reg32(C, First);
}

std::string describeLive(const Liveness &L, const llvm::BitVector &BV) {
  return L.units().describe(BV);
}

TEST(LivenessTest, M0BeforeLDS) {
  // On gfx90a, ds_append reads M0 implicitly; `s_mov_b32 m0` is encoded
  // as M0_gfxpre11, which must meet it on the same units.
  auto M = readModule(R"(
k:
  s_mov_b32 m0, -1
  v_mov_b32 v0, 0
  ds_append v1
  s_waitcnt lgkmcnt(0)
  global_store_dword v[2:3], v1, off
  s_endpgm
)");
  ASSERT_TRUE(M);
  Liveness L(*M->entry());
  Instruction *MovM0 = instOf(*M, "s_mov_b32"), *VMov = instOf(*M, "v_mov_b32");
  Instruction *Read = instOf(*M, "ds_append");
  EXPECT_FALSE(L.isLiveBefore(*MovM0, "M0"));
  EXPECT_TRUE(L.isLiveAfter(*MovM0, "M0"));
  EXPECT_TRUE(L.isLiveBefore(*VMov, "M0"));
  EXPECT_TRUE(L.isLiveBefore(*Read, "m0"));
  EXPECT_FALSE(L.isLiveAfter(*Read, "M0"));
  EXPECT_TRUE(L.isLiveBefore(*Read, "EXEC"));
  EXPECT_TRUE(L.isLiveAfter(*Read, reg(*M, "v1")));
  EXPECT_FALSE(L.isLiveBefore(*Read, reg(*M, "v1")));
  // The def of m0, as MC encodes it, is the M0 register for liveness.
  MCRegister Def = MovM0->facts().Defs.front();
  EXPECT_EQ(L.units().canonical(Def), L.units().byName("M0"));
  EXPECT_TRUE(L.isLiveAfter(*MovM0, Def));
}

TEST(LivenessTest, M0OnGfx11) {
  auto M = readModule(R"(
k:
  s_mov_b32 m0, s0
  s_movrels_b32 s1, s2
  s_endpgm
)",
                      forArch("gfx1100"));
  ASSERT_TRUE(M);
  Liveness L(*M->entry());
  Instruction *Rels = instOf(*M, "s_movrels_b32");
  EXPECT_TRUE(L.isLiveBefore(*Rels, "M0"));
  EXPECT_FALSE(L.isLiveBefore(*instOf(*M, "s_mov_b32"), "M0"));
}

const char *const LongBranch = R"(
k:
  s_mov_b32 s20, 1
  s_mov_b32 s21, 1
  s_getpc_b64 s[60:61]
  s_add_u32 s60, s60, 0x100
  s_addc_u32 s61, s61, 0
  s_setpc_b64 s[60:61]
L_skipped:
  s_mov_b32 s22, s21
  s_endpgm
L_far:
  s_mov_b32 s23, s20
  s_endpgm
)";

TEST(LivenessTest, AcrossLongBranch) {
  ReadOptions Opts;
  Opts.BeforeCFG = [](Module &M) {
    instOf(M, "s_setpc_b64")->setModifier(std::make_unique<LabelData>("L_far"));
  };
  auto M = readModule(LongBranch, Opts);
  ASSERT_TRUE(M);
  Liveness L(*M->entry());
  Instruction *SetPC = instOf(*M, "s_setpc_b64");
  EXPECT_EQ(describeLive(L, L.liveAfter(*SetPC)), "s20");
  EXPECT_EQ(describeLive(L, L.liveBefore(*SetPC)), "s20 s60 s61");
  // s21 feeds only the block the long branch jumps over.
  EXPECT_FALSE(L.isLiveBefore(*instOf(*M, "s_getpc_b64"), reg(*M, "s21")));
  EXPECT_EQ(describeLive(L, L.liveIn(*blockOf(*M, "L_skipped"))), "s21");
}

TEST(LivenessTest, UnknownIndirectJumpKeepsEverythingLive) {
  auto M = readModule(LongBranch); // no LabelData: the target is unknown
  ASSERT_TRUE(M);
  Liveness L(*M->entry());
  Instruction *SetPC = instOf(*M, "s_setpc_b64");
  EXPECT_TRUE(L.liveAfter(*SetPC).all());
  EXPECT_TRUE(L.isLiveBefore(*instOf(*M, "s_getpc_b64"), reg(*M, "s21")));
  EXPECT_TRUE(L.isLiveBefore(*SetPC, "SCC"));
}

TEST(LivenessTest, ReturnOfCallableKeepsEverythingLive) {
  auto M = readModule(R"(
.type k,@function
k:
  s_endpgm
.type f,@function
f:
  v_mov_b32 v0, 1
  s_setpc_b64 s[30:31]
)");
  ASSERT_TRUE(M);
  Function &F = *functionOf(*M, "f");
  EXPECT_FALSE(F.isEntry());
  Liveness L(F);
  Instruction *Ret = instOf(*M, "s_setpc_b64");
  EXPECT_TRUE(L.liveAfter(*Ret).all());
  // The caller may read v0: a return is no s_endpgm.
  EXPECT_TRUE(L.isLiveAfter(*instOf(*M, "v_mov_b32"), reg(*M, "v0")));
  EXPECT_FALSE(L.isLiveBefore(*instOf(*M, "v_mov_b32"), reg(*M, "v0")));
}

TEST(LivenessTest, OpaqueInstructionIsConservative) {
  ReadOptions Opts;
  Opts.AllowUnknown = true;
  auto M = readModule(R"(
k:
  s_mov_b32 s3, 0
  s_mov_b32 s4, 1
  s_frobnicate_b32 s5, s6
  s_mov_b32 s7, s4
  s_endpgm
)",
                      Opts);
  ASSERT_TRUE(M);
  Liveness L(*M->entry());
  BasicBlock &K = *blockOf(*M, "k");
  auto It = K.instructions().begin();
  Instruction &Mov3 = *It++, &Mov4 = *It++, &Opaque = *It++, &Mov7 = *It++;
  ASSERT_EQ(Opaque.kind(), InstKind::Opaque);
  EXPECT_TRUE(L.liveBefore(Opaque).all());
  EXPECT_TRUE(L.writesOf(Opaque).all());
  EXPECT_TRUE(L.readsOf(Opaque).all());
  llvm::BitVector Accessed = L.units().none();
  L.addAccessesOf(Opaque, Accessed);
  EXPECT_TRUE(Accessed.all());
  // It may read what came before it...
  EXPECT_TRUE(L.isLiveAfter(Mov3, reg(*M, "s3")));
  EXPECT_TRUE(L.isLiveBefore(Mov3, reg(*M, "s9")));
  // ...but what comes after it is exact again.
  EXPECT_EQ(describeLive(L, L.liveAfter(Opaque)), "s4");
  EXPECT_EQ(describeLive(L, L.liveBefore(Mov7)), "s4");
  EXPECT_FALSE(L.findFreeSGPR(Mov4, Opaque).has_value());
  EXPECT_TRUE(L.findFreeSGPR(Mov7, Mov7).has_value());
}

TEST(LivenessTest, FreeSGPRSearch) {
  auto M = readModule(R"(
k:
  s_mov_b32 s0, 1
  s_mov_b32 s1, 2
  s_add_u32 s4, s0, s1
  s_mov_b32 s2, s4
  s_mov_b32 s6, s5
  s_mov_b32 s3, s7
  s_mov_b32 s10, s2
  s_mov_b32 s11, s6
  s_endpgm
)");
  ASSERT_TRUE(M);
  Liveness L(*M->entry());
  BasicBlock &K = *blockOf(*M, "k");
  std::vector<Instruction *> I;
  for (Instruction &X : K.instructions())
    I.push_back(&X);
  Instruction &First = *I[1], &Last = *I[4];
  // In [First, Last]: s0 and s5 are live, s1, s2, s4, s6 written, s7 live
  // after the range. s3 is written only after it and never read.
  EXPECT_EQ(L.findFreeSGPR(First, Last), reg(*M, "s3"));
  EXPECT_EQ(L.findFreeSGPR(First, Last, 2), reg(*M, "s[8:9]"));
  EXPECT_EQ(L.findFreeSGPR(First, Last, 4), reg(*M, "s[8:11]"));
  // Without alignment any start MC has a tuple for; s[3:5] holds busy s4.
  EXPECT_EQ(L.findFreeSGPR(First, Last, 3, /*Aligned=*/false), reg(*M, "s[8:10]"));
  // A register live past Last is busy too.
  EXPECT_NE(L.findFreeSGPR(*I[0], *I[5]), reg(*M, "s3"));
  EXPECT_EQ(L.findFreeSGPR(*I[0], *I[5]), reg(*M, "s8"));
  // Reversed range.
  EXPECT_FALSE(L.findFreeSGPR(Last, First).has_value());

  std::vector<MCRegister> Dead = L.deadSGPRsBefore(First);
  auto IsDead = [&](llvm::StringRef R) { return llvm::is_contained(Dead, reg(*M, R)); };
  EXPECT_TRUE(IsDead("s1")); // First writes it
  EXPECT_TRUE(IsDead("s3"));
  EXPECT_TRUE(IsDead("s8"));
  EXPECT_FALSE(IsDead("s0"));
  EXPECT_FALSE(IsDead("s5"));
  EXPECT_FALSE(IsDead("s7"));
  EXPECT_EQ(Dead.size(), M->target().hardware().maxSGPRs() - 3);
  EXPECT_EQ(Dead.back(), reg(*M, "s101")); // gfx90a addresses s0..s101
}

TEST(LivenessTest, FreeSGPRAcrossBlocksAndLimit) {
  // Every addressable SGPR of gfx90a (s0..s101) is written in k and read in
  // L_next: nothing is free in between.
  std::string Text = "k:\n";
  for (unsigned S = 0; S < 102; ++S)
    Text += "  s_mov_b32 s" + std::to_string(S) + ", 0\n";
  Text += "L_next:\n  s_nop 0\n";
  for (unsigned S = 0; S < 102; ++S)
    Text += "  v_mov_b32 v" + std::to_string(S % 8) + ", s" + std::to_string(S) + "\n";
  Text += "  s_endpgm\n";
  auto M = readModule(Text);
  ASSERT_TRUE(M);
  Liveness L(*M->entry());
  Instruction *Nop = instOf(*M, "s_nop");
  EXPECT_TRUE(L.deadSGPRsBefore(*Nop).empty());
  EXPECT_FALSE(L.findFreeSGPR(*Nop, *Nop).has_value());
  // From the first s_mov in k to the s_nop in L_next, a range over two
  // blocks: every SGPR is written or live.
  Instruction *FirstMov = instOf(*M, "s_mov_b32");
  EXPECT_FALSE(L.findFreeSGPR(*FirstMov, *Nop).has_value());
  // After the last read everything is dead again.
  Instruction *End = instOf(*M, "s_endpgm");
  EXPECT_EQ(L.findFreeSGPR(*End, *End, 2), reg(*M, "s[0:1]"));
}

TEST(LivenessTest, PrintAndAnalysisManager) {
  auto M = readModule(R"(
k:
  s_cmp_eq_u32 s0, 0
  s_cbranch_scc1 L_b
L_a:
  s_endpgm
L_b:
  s_mov_b32 s1, s2
  s_endpgm
)");
  ASSERT_TRUE(M);
  Function &F = *M->entry();
  AnalysisManager AM;
  Liveness &L = llvm::cantFail(AM.getResult<LivenessAnalysis>(F));
  EXPECT_EQ(&llvm::cantFail(AM.getResult<LivenessAnalysis>(F)), &L);
  std::string Dump;
  llvm::raw_string_ostream OS(Dump);
  L.print(OS);
  EXPECT_EQ(Dump, "k:\n  live-in:  s0 s2\n  live-out: s2\n"
                  "L_a:\n  live-in:  \n  live-out: \n"
                  "L_b:\n  live-in:  s2\n  live-out: \n");
}

} // namespace
