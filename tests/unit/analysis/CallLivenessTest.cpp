//===- CallLivenessTest.cpp - Liveness across calls, calling convention ---===//
#include "analysis/AnalysisTestModules.h"
#include "stinkytofu/analysis/CallEffects.h"
#include "stinkytofu/analysis/CallingConvention.h"
#include "stinkytofu/analysis/Liveness.h"
#include "stinkytofu/analysis/RegisterUnits.h"
#include "stinkytofu/ir/BranchVocabulary.h"
#include "stinkytofu/ir/Modifier.h"

#include "gtest/gtest.h"

using namespace stinkytofu;
using namespace stinkytofu::analysistest;
using llvm::MCRegister;

namespace {

ReadOptions withCallees(std::vector<std::string> Callees, unsigned Nth = 0) {
  ReadOptions Opts;
  Opts.BeforeCFG = [Callees, Nth](Module &M) {
    instOf(M, "s_swappc_b64", Nth)->setModifier(std::make_unique<CallTargetData>(Callees));
  };
  return Opts;
}

// The caller sets up registers around one call; the callee f reads v5 and
// s12, writes v0 on every path and v6 on one path only.
const char *const CallKernel = R"(
.type k,@function
k:
  s_mov_b32 s10, 2
  s_mov_b32 s48, 3
  v_mov_b32 v5, 1
  v_mov_b32 v0, 7
  v_mov_b32 v6, 8
  s_getpc_b64 s[4:5]
  s_swappc_b64 s[30:31], s[4:5]
  v_add_f32 v2, v0, v0
  v_mov_b32 v3, v6
  s_mov_b32 s11, s48
  s_endpgm
.type f,@function
f:
  v_mul_f32 v0, v5, v5
  s_cmp_eq_u32 s12, 0
  s_cbranch_scc1 L_f_ret
L_f_mid:
  v_mov_b32 v6, 0
L_f_ret:
  s_setpc_b64 s[30:31]
)";

TEST(CallLivenessTest, CallWithoutTargetsIsUnknown) {
  auto M = readModule(CallKernel);
  ASSERT_TRUE(M);
  Liveness L(*functionOf(*M, "k"));
  Instruction *Call = instOf(*M, "s_swappc_b64");
  const CallEffect *E = L.callEffect(*Call);
  ASSERT_NE(E, nullptr);
  EXPECT_FALSE(E->Known);
  // The callee may read anything: everything is live before the call but
  // the return address the call itself writes.
  EXPECT_TRUE(L.isLiveBefore(*Call, sgpr(*M, 10)));
  EXPECT_TRUE(L.isLiveBefore(*Call, vgpr(*M, 0)));
  EXPECT_TRUE(L.isLiveBefore(*Call, "SCC"));
  EXPECT_TRUE(L.isLiveBefore(*Call, "SGPR4_SGPR5"));
  EXPECT_FALSE(L.isLiveBefore(*Call, "SGPR30_SGPR31"));
  EXPECT_FALSE(L.isLiveBefore(*Call, sgpr(*M, 31)));
  // It may clobber what the calling convention lets it: s0-s29, s40-s47,
  // v0-v39, SCC, VCC, but not s33, s48 or v40.
  llvm::BitVector W = L.writesOf(*Call);
  const RegisterUnits &RU = L.units();
  EXPECT_TRUE(RU.any(W, sgpr(*M, 10)));
  EXPECT_TRUE(RU.any(W, sgpr(*M, 30)));
  EXPECT_TRUE(RU.any(W, vgpr(*M, 0)));
  EXPECT_TRUE(RU.any(W, RU.byName("SCC")));
  EXPECT_TRUE(RU.any(W, RU.byName("VCC")));
  EXPECT_TRUE(RU.any(W, sgpr(*M, 40)));
  EXPECT_FALSE(RU.any(W, sgpr(*M, 48)));
  EXPECT_FALSE(RU.any(W, sgpr(*M, 33)));
  EXPECT_FALSE(RU.any(W, vgpr(*M, 40)));
  // Nothing is surely written: s48 (callee-saved) stays live across.
  EXPECT_TRUE(L.isLiveAfter(*Call, sgpr(*M, 48)));
  EXPECT_TRUE(L.isLiveBefore(*Call, sgpr(*M, 48)));
  // A range holding the call has no free SGPR: everything is live before it.
  EXPECT_FALSE(L.findFreeSGPR(*Call, *Call).has_value());
  // After the call, s10 is dead again (nothing reads it).
  EXPECT_FALSE(L.isLiveAfter(*Call, sgpr(*M, 10)));
}

TEST(CallLivenessTest, AccessesAreReadsAndWrites) {
  auto M = readModule(CallKernel);
  ASSERT_TRUE(M);
  Liveness L(*functionOf(*M, "k"));
  for (const BasicBlock &BB : functionOf(*M, "k")->blocks())
    for (const Instruction &I : BB.instructions()) {
      llvm::BitVector Expected = L.readsOf(I);
      Expected |= L.writesOf(I);
      llvm::BitVector Got = L.units().none();
      L.addAccessesOf(I, Got);
      EXPECT_TRUE(Got == Expected) << I.sourceText().str();
    }
}

TEST(CallLivenessTest, CallWithTargetsUsesCalleeBody) {
  auto M = readModule(CallKernel, withCallees({"f"}));
  ASSERT_TRUE(M);
  Liveness L(*functionOf(*M, "k"));
  Instruction *Call = instOf(*M, "s_swappc_b64");
  const CallEffect *E = L.callEffect(*Call);
  ASSERT_NE(E, nullptr);
  EXPECT_TRUE(E->Known);
  const RegisterUnits &RU = L.units();
  EXPECT_TRUE(RU.any(E->Reads, vgpr(*M, 5)));
  EXPECT_TRUE(RU.any(E->Reads, sgpr(*M, 12)));
  EXPECT_TRUE(RU.any(E->Reads, RU.byName("SGPR30_SGPR31")));
  EXPECT_FALSE(RU.any(E->Reads, sgpr(*M, 10)));
  EXPECT_TRUE(RU.any(E->MustWrite, vgpr(*M, 0)));
  EXPECT_FALSE(RU.any(E->MustWrite, vgpr(*M, 6)));
  EXPECT_TRUE(RU.any(E->MayWrite, vgpr(*M, 6)));
  EXPECT_TRUE(RU.any(E->MayWrite, RU.byName("SCC")));

  EXPECT_TRUE(L.isLiveBefore(*Call, vgpr(*M, 5)));   // the callee reads it
  EXPECT_TRUE(L.isLiveBefore(*Call, sgpr(*M, 12)));  // the callee reads it
  EXPECT_FALSE(L.isLiveBefore(*Call, sgpr(*M, 10))); // nobody reads it
  // v0 is read after the call but the callee always writes it first.
  EXPECT_TRUE(L.isLiveAfter(*Call, vgpr(*M, 0)));
  EXPECT_FALSE(L.isLiveBefore(*Call, vgpr(*M, 0)));
  // v6 is written on one path only: the caller's value may survive.
  EXPECT_TRUE(L.isLiveBefore(*Call, vgpr(*M, 6)));
  // The return address comes from the call itself.
  EXPECT_FALSE(L.isLiveBefore(*Call, "SGPR30_SGPR31"));
  EXPECT_TRUE(L.isLiveBefore(*Call, "SGPR4_SGPR5"));
  EXPECT_TRUE(L.isLiveBefore(*Call, sgpr(*M, 48)));
  // The callee writes SCC before reading it: SCC is dead before the call.
  EXPECT_FALSE(L.isLiveBefore(*Call, "SCC"));
  EXPECT_TRUE(L.isLiveBefore(*Call, "EXEC"));

  // s0 is dead around the call and the callee does not write it.
  Instruction *GetPC = instOf(*M, "s_getpc_b64");
  std::optional<MCRegister> Free = L.findFreeSGPR(*GetPC, *Call);
  ASSERT_TRUE(Free.has_value());
  EXPECT_EQ(*Free, sgpr(*M, 0));
  EXPECT_FALSE(RU.any(L.writesOf(*Call), sgpr(*M, 0)));
  EXPECT_TRUE(RU.any(L.writesOf(*Call), sgpr(*M, 30)));
}

TEST(CallLivenessTest, SeveralCalleesAndMissingCallee) {
  std::string Text = std::string(CallKernel) + R"(
.type g,@function
g:
  v_mov_b32 v0, 0
  v_mov_b32 v6, 0
  s_setpc_b64 s[30:31]
)";
  {
    // Either f or g: reads and may-writes unite, sure writes intersect.
    auto M = readModule(Text, withCallees({"f", "g"}));
    ASSERT_TRUE(M);
    Liveness L(*functionOf(*M, "k"));
    const CallEffect *E = L.callEffect(*instOf(*M, "s_swappc_b64"));
    ASSERT_TRUE(E && E->Known);
    EXPECT_TRUE(L.units().any(E->MustWrite, vgpr(*M, 0)));
    EXPECT_FALSE(L.units().any(E->MustWrite, vgpr(*M, 6)));
    EXPECT_TRUE(L.units().any(E->Reads, vgpr(*M, 5)));
  }
  {
    // g alone writes v6 on its only path.
    auto M = readModule(Text, withCallees({"g"}));
    ASSERT_TRUE(M);
    Liveness L(*functionOf(*M, "k"));
    Instruction *Call = instOf(*M, "s_swappc_b64");
    EXPECT_FALSE(L.isLiveBefore(*Call, vgpr(*M, 6)));
    EXPECT_FALSE(L.isLiveBefore(*Call, vgpr(*M, 5)));
  }
  {
    // A callee the module does not have: unknown.
    auto M = readModule(Text, withCallees({"f", "nowhere"}));
    ASSERT_TRUE(M);
    Liveness L(*functionOf(*M, "k"));
    Instruction *Call = instOf(*M, "s_swappc_b64");
    EXPECT_FALSE(L.callEffect(*Call)->Known);
    EXPECT_TRUE(L.isLiveBefore(*Call, sgpr(*M, 10)));
  }
}

TEST(CallLivenessTest, NestedAndRecursiveCalls) {
  auto M = readModule(R"(
.type k,@function
k:
  s_getpc_b64 s[4:5]
  s_swappc_b64 s[30:31], s[4:5]
  v_mov_b32 v1, v0
  s_endpgm
.type outer,@function
outer:
  s_mov_b64 s[34:35], s[30:31]
  s_getpc_b64 s[6:7]
  s_swappc_b64 s[30:31], s[6:7]
  s_mov_b64 s[30:31], s[34:35]
  s_setpc_b64 s[30:31]
.type inner,@function
inner:
  v_mov_b32 v0, s20
  s_setpc_b64 s[30:31]
)");
  ASSERT_TRUE(M);
  instOf(*M, "s_swappc_b64", 0)->setModifier(std::make_unique<CallTargetData>(
      std::vector<std::string>{"outer"}));
  instOf(*M, "s_swappc_b64", 1)->setModifier(std::make_unique<CallTargetData>(
      std::vector<std::string>{"inner"}));
  {
    Liveness L(*functionOf(*M, "k"));
    Instruction *Call = instOf(*M, "s_swappc_b64", 0);
    const CallEffect *E = L.callEffect(*Call);
    ASSERT_TRUE(E && E->Known);
    // outer -> inner: s20 read, v0 surely written, s[34:35] written.
    EXPECT_TRUE(L.isLiveBefore(*Call, sgpr(*M, 20)));
    EXPECT_FALSE(L.isLiveBefore(*Call, vgpr(*M, 0)));
    EXPECT_TRUE(L.units().any(E->MustWrite, sgpr(*M, 34)));
    EXPECT_FALSE(L.isLiveBefore(*Call, sgpr(*M, 21)));
  }
  // f calls itself: the cycle makes the inner call unknown, never a hang.
  auto Rec = readModule(R"(
.type k,@function
k:
  s_getpc_b64 s[4:5]
  s_swappc_b64 s[30:31], s[4:5]
  s_endpgm
.type f,@function
f:
  s_getpc_b64 s[6:7]
  s_swappc_b64 s[30:31], s[6:7]
  s_setpc_b64 s[30:31]
)",
                        withCallees({"f"}, 0));
  ASSERT_TRUE(Rec);
  instOf(*Rec, "s_swappc_b64", 1)->setModifier(std::make_unique<CallTargetData>(
      std::vector<std::string>{"f"}));
  Liveness L(*functionOf(*Rec, "k"));
  Instruction *Call = instOf(*Rec, "s_swappc_b64", 0);
  const CallEffect *E = L.callEffect(*Call);
  ASSERT_NE(E, nullptr);
  EXPECT_TRUE(E->Known);
  // f's own call is unknown: f may read everything.
  EXPECT_TRUE(L.isLiveBefore(*Call, sgpr(*Rec, 50)));
}

TEST(CallLivenessTest, CallingConventionSets) {
  for (unsigned I : {0u, 4u, 29u, 40u, 47u, 56u, 63u, 72u, 88u, 95u, 106u})
    EXPECT_FALSE(isCalleeSavedSGPR(I)) << I;
  for (unsigned I : {30u, 31u, 32u, 33u, 34u, 39u, 48u, 55u, 64u, 71u, 80u, 87u, 96u, 105u})
    EXPECT_TRUE(isCalleeSavedSGPR(I)) << I;
  for (unsigned I : {0u, 31u, 39u, 48u, 55u, 64u, 256u, 300u})
    EXPECT_FALSE(isCalleeSavedVGPR(I)) << I;
  for (unsigned I : {40u, 47u, 56u, 63u, 72u, 248u, 255u})
    EXPECT_TRUE(isCalleeSavedVGPR(I)) << I;
  EXPECT_TRUE(isCalleeSavedAGPR(32, true));
  EXPECT_FALSE(isCalleeSavedAGPR(31, true));
  EXPECT_FALSE(isCalleeSavedAGPR(32, false));

  auto Check = [](const char *Arch, bool AGPR32Saved) {
    auto TI = TargetInfo::get(Arch);
    ASSERT_TRUE(bool(TI)) << llvm::toString(TI.takeError());
    RegisterUnits RU(**TI);
    llvm::BitVector Saved = calleeSavedUnits(RU), Clobbered = callClobberedUnits(RU);
    EXPECT_TRUE(RU.any(Saved, (*TI)->reg32(RegClass::SGPR, 33))) << Arch;
    EXPECT_FALSE(RU.any(Saved, (*TI)->reg32(RegClass::SGPR, 0))) << Arch;
    EXPECT_TRUE(RU.any(Clobbered, RU.byName("SCC"))) << Arch;
    EXPECT_TRUE(RU.any(Clobbered, RU.byName("M0"))) << Arch;
    EXPECT_FALSE(RU.any(Clobbered, (*TI)->reg32(RegClass::VGPR, 40))) << Arch;
    EXPECT_EQ(RU.any(Saved, (*TI)->reg32(RegClass::AGPR, 32)), AGPR32Saved) << Arch;
    EXPECT_EQ(Saved.count() + Clobbered.count(), RU.numUnits());
  };
  Check("gfx908", false);
  Check("gfx90a", true);
  Check("gfx942", true);
  Check("gfx950", true);
  Check("gfx1100", false);
  Check("gfx1250", false);
}

TEST(CallLivenessTest, ReturnValueVGPRsAreTheRunFromV0WrittenOnEveryPath) {
  auto M = readModule(R"(
.type k,@function
k:
  s_endpgm
.type one,@function
one:
  s_cmp_eq_u32 s4, 0
  s_cbranch_scc1 L_join
  v_mov_b32 v1, 2
L_join:
  v_mov_b32 v0, 1
  s_setpc_b64 s[30:31]
.type none,@function
none:
  v_add_u32 v1, v0, v0
  global_store_dword v[2:3], v1, off
  s_setpc_b64 s[30:31]
.type pair,@function
pair:
  v_mov_b32 v1, 0
  v_mov_b32 v0, 1
  v_mov_b32 v3, 1
  s_setpc_b64 s[30:31]
)");
  ASSERT_TRUE(M);
  // v1 is written on one path only.
  EXPECT_EQ(returnValueVGPRs(*functionOf(*M, "one")), 1u);
  // v0 is its argument, unchanged; v1 is written but does not follow v0.
  EXPECT_EQ(returnValueVGPRs(*functionOf(*M, "none")), 0u);
  // v0 and v1; v3 does not follow them.
  EXPECT_EQ(returnValueVGPRs(*functionOf(*M, "pair")), 2u);
}

TEST(CallLivenessTest, RegisterUnitsCanonicalEncodings) {
  auto TI = TargetInfo::get("gfx90a");
  ASSERT_TRUE(bool(TI));
  RegisterUnits RU(**TI);
  EXPECT_EQ(RU.canonical(RU.byName("M0_gfxpre11")), RU.byName("M0"));
  EXPECT_EQ(RU.canonical(RU.byName("M0_gfx11plus")), RU.byName("M0"));
  EXPECT_EQ(RU.canonical(RU.byName("TTMP0_gfx9plus")), RU.byName("TTMP0"));
  EXPECT_EQ(RU.canonical(RU.byName("TTMP2_TTMP3_gfx9plus")), RU.byName("TTMP2_TTMP3"));
  EXPECT_EQ(RU.canonical(RU.byName("FLAT_SCR_vi")), RU.byName("FLAT_SCR"));
  EXPECT_EQ(RU.canonical(RU.byName("SGPR_NULL_gfx11plus")), RU.byName("SGPR_NULL"));
  EXPECT_EQ(RU.canonical(RU.byName("SGPR7")), RU.byName("SGPR7"));
  EXPECT_EQ(RU.units(RU.byName("M0_gfxpre11")), RU.units(RU.byName("M0")));
  EXPECT_EQ(RU.units(RU.byName("VCC")).size(), 4u); // vcc_lo, vcc_hi halves
  EXPECT_EQ(RU.sgprTuple(4, 2), RU.byName("SGPR4_SGPR5"));
  EXPECT_EQ(RU.sgprTuple(8, 4), RU.byName("SGPR8_SGPR9_SGPR10_SGPR11"));
  EXPECT_FALSE(RU.sgprTuple(5, 2).isValid());
  EXPECT_EQ(RU.sgprTuple(7, 1), RU.byName("SGPR7"));
  llvm::BitVector BV = RU.none();
  RU.set(BV, RU.byName("SGPR4_SGPR5"));
  RU.set(BV, RU.byName("SCC"));
  EXPECT_EQ(RU.describe(BV), "scc s4 s5");
  RU.reset(BV, RU.byName("SGPR5"));
  EXPECT_EQ(RU.describe(BV), "scc s4");
  EXPECT_TRUE(RU.any(BV, RU.byName("SGPR4_SGPR5")));
  EXPECT_FALSE(RU.byName("NOT_A_REGISTER").isValid());
}

// g ends in a tail call to f, which reads v5 and s12 and returns to g's
// caller through s[30:31].
const char *const TailCallModule = R"(
.type k,@function
k:
  s_endpgm
.type g,@function
g:
  v_mov_b32 v5, 1
  s_getpc_b64 s[4:5]
  s_add_u32 s4, s4, f@rel32@lo+4
  s_addc_u32 s5, s5, f@rel32@hi+12
  s_setpc_b64 s[4:5]
.type f,@function
f:
  v_mul_f32 v0, v5, v5
  s_cmp_eq_u32 s12, 0
  s_setpc_b64 s[30:31]
)";

TEST(CallLivenessTest, TailCallReadsWhatItsCalleeReads) {
  for (bool Tail : {false, true}) {
    SCOPED_TRACE(Tail ? "tail call" : "taken for a return");
    ReadOptions Opts;
    Opts.BeforeCFG = [Tail](Module &M) {
      if (Tail)
        instOf(M, "s_setpc_b64", 0)
            ->setModifier(std::make_unique<CallTargetData>(std::vector<std::string>{"f"}, true));
    };
    auto M = readModule(TailCallModule, Opts);
    ASSERT_TRUE(M);
    Instruction *Jump = instOf(*M, "s_setpc_b64", 0);
    EXPECT_EQ(isTailCall(*Jump), Tail);
    EXPECT_TRUE(isReturn(*Jump)); // it leaves g either way
    RegisterUnits RU(M->target());
    LivenessOptions O;
    O.LiveAfterReturn = RU.none(); // g's caller reads nothing afterwards
    Liveness L(*functionOf(*M, "g"), O);
    // f's reads are live at the jump only when it is known as a tail call.
    EXPECT_EQ(L.isLiveBefore(*Jump, sgpr(*M, 12)), Tail);
    EXPECT_EQ(L.isLiveBefore(*Jump, "SGPR30_SGPR31"), Tail);
    EXPECT_EQ(L.isLiveBefore(*instOf(*M, "s_getpc_b64"), vgpr(*M, 5)), Tail);
    EXPECT_TRUE(L.isLiveBefore(*Jump, "SGPR4_SGPR5")); // the jump's own operand
    EXPECT_FALSE(L.isLiveBefore(*Jump, sgpr(*M, 20)));
  }
}

} // namespace
