//===- StirLivenessTest.cpp - Liveness of hand-written `.s` and `.stir` ----===//
//
// Each case is written twice: as assembly, whose CFG the builder makes, and
// as `.stir` in the reference's style (implicit registers as extra operands,
// `Successors:` lines, `mod.label` on a long branch, `mod.call_targets` on a
// call), whose CFG is the one the file states. Both must give the same,
// exact liveness: across a long branch, a loop back edge, a call and an
// s_cbranch_execz, with SCC and M0 tracked to the instruction.
//
//===----------------------------------------------------------------------===//
#include "TestModules.h"
#include "analysis/AnalysisTestModules.h"
#include "stinkytofu/analysis/Liveness.h"
#include "stinkytofu/ir/Modifier.h"
#include "stinkytofu/transforms/LongBranchLoweringPass.h"

#include "gtest/gtest.h"

using namespace stinkytofu;
using namespace stinkytofu::analysistest;
using llvm::MCRegister;

namespace {

enum class Form { Asm, Stir };

/// One case, written both ways.
struct Texts {
  const char *Asm;
  const char *Stir;
};

/// The successors of every block, by name, in layout order.
std::vector<std::string> edgesOf(const Module &M) {
  std::vector<std::string> Edges;
  for (const Function &F : M.functions())
    for (const BasicBlock &BB : F.blocks()) {
      std::string Line = BB.name().str() + " ->";
      for (const BasicBlock *S : BB.successors())
        Line += " " + S->name().str();
      Edges.push_back(Line);
    }
  return Edges;
}

class StirLivenessTest : public ::testing::TestWithParam<Form> {
protected:
  /// The case in the form under test, with its CFG. \p Opts.BeforeCFG
  /// applies to the assembly, which has no modifiers of its own.
  std::unique_ptr<Module> read(const Texts &T, ReadOptions Opts = {}) {
    if (GetParam() == Form::Asm)
      return readModule(T.Asm, Opts);
    auto M = test::readStirText(T.Stir, Opts.Arch);
    if (!M)
      return nullptr;
    // The edges the file states are the ones the builder would make.
    auto Rebuilt = test::readStirText(T.Stir, Opts.Arch);
    for (Function &F : Rebuilt->functions())
      buildCFG(F);
    EXPECT_EQ(edgesOf(*M), edgesOf(*Rebuilt));
    return M;
  }
  static MCRegister sgpr(const Module &M, unsigned I) {
    return M.target().reg32(RegClass::SGPR, I);
  }
  static MCRegister vgpr(const Module &M, unsigned I) {
    return M.target().reg32(RegClass::VGPR, I);
  }
  static std::string describe(const Liveness &L, const llvm::BitVector &BV) {
    return L.units().describe(BV);
  }
};

const Texts SCC = {R"(
k:
  s_mov_b32 s2, 0
  s_cmp_eq_u32 s0, 0
  s_cbranch_scc1 L_taken
L_fall:
  s_mov_b32 s3, s2
  s_endpgm
L_taken:
  s_cmp_eq_u32 s1, 0
  s_cbranch_scc0 L_done
L_mid:
  s_add_u32 s4, s4, 1
  s_addc_u32 s5, s5, 0
L_done:
  s_endpgm
)",
                   R"(
st.func @k() {
^k:
  s2 = "st.s_mov_b32"(0)
  SCC0 = "st.s_cmp_eq_u32"(s0, 0)
  "st.s_cbranch_scc1"("L_taken", SCC0)
  Successors: ^L_taken, ^L_fall
^L_fall:
  s3 = "st.s_mov_b32"(s2)
  "st.s_endpgm"()
^L_taken:
  SCC0 = "st.s_cmp_eq_u32"(s1, 0)
  "st.s_cbranch_scc0"("L_done", SCC0)
  Successors: ^L_done, ^L_mid
^L_mid:
  s4, SCC0 = "st.s_add_u32"(s4, 1)
  s5, SCC0 = "st.s_addc_u32"(s5, 0, SCC0)
  Successors: ^L_done
^L_done:
  "st.s_endpgm"()
}
)"};

TEST_P(StirLivenessTest, SCCExact) {
  auto M = read(SCC);
  ASSERT_TRUE(M);
  Liveness L(*M->entry());
  Instruction *Cmp = instOf(*M, "s_cmp_eq_u32"), *Br = instOf(*M, "s_cbranch_scc1");
  Instruction *Cmp2 = instOf(*M, "s_cmp_eq_u32", 1), *Br2 = instOf(*M, "s_cbranch_scc0");
  Instruction *Add = instOf(*M, "s_add_u32"), *AddC = instOf(*M, "s_addc_u32");
  EXPECT_FALSE(L.isLiveBefore(*Cmp, "SCC"));
  EXPECT_TRUE(L.isLiveAfter(*Cmp, "SCC"));
  EXPECT_TRUE(L.isLiveBefore(*Br, "scc")); // lower case works too
  EXPECT_EQ(describe(L, L.liveBefore(*Br)), "scc s1 s2 s4 s5");
  // Neither successor reads the first compare's SCC.
  EXPECT_EQ(describe(L, L.liveAfter(*Br)), "s1 s2 s4 s5");
  EXPECT_FALSE(L.isLiveBefore(*Cmp2, "SCC"));
  EXPECT_EQ(describe(L, L.liveBefore(*Br2)), "scc s4 s5");
  EXPECT_EQ(describe(L, L.liveAfter(*Br2)), "s4 s5");
  // The carry travels in SCC from s_add_u32 to s_addc_u32 and dies there.
  EXPECT_FALSE(L.isLiveBefore(*Add, "SCC"));
  EXPECT_EQ(describe(L, L.liveAfter(*Add)), "scc s5");
  EXPECT_TRUE(L.isLiveBefore(*AddC, "SCC"));
  EXPECT_TRUE(L.liveAfter(*AddC).none());
  EXPECT_EQ(describe(L, L.liveIn(*blockOf(*M, "k"))), "s0 s1 s4 s5");
  EXPECT_EQ(describe(L, L.liveIn(*blockOf(*M, "L_fall"))), "s2");
  EXPECT_EQ(describe(L, L.liveIn(*blockOf(*M, "L_taken"))), "s1 s4 s5");
  // s_endpgm: nothing is live after the wave ends.
  EXPECT_TRUE(L.liveOut(*blockOf(*M, "L_done")).none());
  EXPECT_TRUE(L.liveOut(*blockOf(*M, "L_fall")).none());
}

const Texts M0 = {R"(
k:
  s_mov_b32 m0, -1
  s_cmp_eq_u32 s0, 0
  s_cbranch_scc1 L_lds
L_other:
  v_mov_b32 v0, 0
  s_endpgm
L_lds:
  v_mov_b32 v0, 0
  ds_read_b32 v1, v0
  s_waitcnt lgkmcnt(0)
  global_store_dword v[2:3], v1, off
  s_endpgm
)",
                  R"(
st.func @k() {
^k:
  m0 = "st.s_mov_b32"(-1)
  SCC0 = "st.s_cmp_eq_u32"(s0, 0)
  "st.s_cbranch_scc1"("L_lds", SCC0)
  Successors: ^L_lds, ^L_other
^L_other:
  v0 = "st.v_mov_b32"(0, EXEC)
  "st.s_endpgm"()
^L_lds:
  v0 = "st.v_mov_b32"(0, EXEC)
  v1 = "st.ds_read_b32"(v0, M0, EXEC)
  "st.s_waitcnt"(lgkmcnt(0))
  "st.global_store_dword"(v[2:3], v1, off, EXEC)
  "st.s_endpgm"()
}
)"};

TEST_P(StirLivenessTest, M0Exact) {
  // gfx90a's ds_read_b32 is MC's DS_READ_B32_vi, whose descriptor lists
  // M0, but LLVM's M0-free twin (DS_READ_B32_gfx9) says gfx9 reads none:
  // the M0 set before it is dead, although the .stir form claims the read
  // (MC's list is a superset, no contradiction).
  auto M = read(M0);
  ASSERT_TRUE(M);
  Liveness L(*M->entry());
  Instruction *MovM0 = instOf(*M, "s_mov_b32");
  Instruction *Read = instOf(*M, "ds_read_b32");
  EXPECT_FALSE(L.isLiveBefore(*MovM0, "M0"));
  EXPECT_FALSE(L.isLiveAfter(*MovM0, "M0"));
  EXPECT_EQ(describe(L, L.liveBefore(*Read)), "exec_lo exec_hi v0 v2 v3");
  EXPECT_EQ(describe(L, L.liveAfter(*Read)), "exec_lo exec_hi v1 v2 v3");
  EXPECT_EQ(describe(L, L.liveIn(*blockOf(*M, "L_other"))), "exec_lo exec_hi");
  EXPECT_EQ(describe(L, L.liveIn(*blockOf(*M, "L_lds"))), "exec_lo exec_hi v2 v3");
  EXPECT_EQ(describe(L, L.liveIn(*blockOf(*M, "k"))), "exec_lo exec_hi s0 v2 v3");
}

const Texts Execz = {R"(
k:
  v_cmp_gt_u32 vcc, s0, v0
  s_and_saveexec_b64 s[4:5], vcc
  s_cbranch_execz L_skip
L_body:
  v_mov_b32 v1, s6
  global_store_dword v[2:3], v1, off
L_skip:
  s_or_b64 exec, exec, s[4:5]
  s_endpgm
)",
                     R"(
st.func @k() {
^k:
  vcc0 = "st.v_cmp_gt_u32"(s0, v0, EXEC)
  s[4:5], EXEC, SCC0 = "st.s_and_saveexec_b64"(vcc0, EXEC)
  "st.s_cbranch_execz"("L_skip", EXEC)
  Successors: ^L_skip, ^L_body
^L_body:
  v1 = "st.v_mov_b32"(s6, EXEC)
  "st.global_store_dword"(v[2:3], v1, off, EXEC)
  Successors: ^L_skip
^L_skip:
  exec, SCC0 = "st.s_or_b64"(exec, s[4:5])
  "st.s_endpgm"()
}
)"};

TEST_P(StirLivenessTest, AcrossExeczBranch) {
  auto M = read(Execz);
  ASSERT_TRUE(M);
  Liveness L(*M->entry());
  Instruction *Save = instOf(*M, "s_and_saveexec_b64");
  Instruction *Execz = instOf(*M, "s_cbranch_execz");
  EXPECT_EQ(describe(L, L.liveBefore(*Save)), "exec_lo exec_hi vcc_lo vcc_hi s6 v2 v3");
  EXPECT_FALSE(L.isLiveAfter(*Save, "VCC"));
  // The branch reads EXEC; s[4:5] is read after the join, s6 on one path.
  EXPECT_EQ(describe(L, L.liveBefore(*Execz)), "exec_lo exec_hi s4 s5 s6 v2 v3");
  EXPECT_EQ(describe(L, L.liveIn(*blockOf(*M, "L_body"))), "exec_lo exec_hi s4 s5 s6 v2 v3");
  EXPECT_EQ(describe(L, L.liveIn(*blockOf(*M, "L_skip"))), "exec_lo exec_hi s4 s5");
  // s_and_saveexec_b64 and s_or_b64 write SCC; nothing reads it.
  EXPECT_FALSE(L.isLiveAfter(*Save, "SCC"));
  EXPECT_TRUE(L.liveOut(*blockOf(*M, "L_skip")).none());
}

const Texts LoopTexts = {R"(
k:
  s_mov_b32 s0, 0
  s_mov_b32 s7, 5
L_loop:
  s_add_u32 s0, s0, 1
  s_mul_i32 s8, s7, 2
  s_cmp_lt_u32 s0, 10
  s_cbranch_scc1 L_loop
L_exit:
  s_mov_b32 s9, s8
  s_endpgm
)",
                         R"(
st.func @k() {
^k:
  s0 = "st.s_mov_b32"(0)
  s7 = "st.s_mov_b32"(5)
  Successors: ^L_loop
^L_loop:
  s0, SCC0 = "st.s_add_u32"(s0, 1)
  s8 = "st.s_mul_i32"(s7, 2)
  SCC0 = "st.s_cmp_lt_u32"(s0, 10)
  "st.s_cbranch_scc1"("L_loop", SCC0)
  Successors: ^L_loop, ^L_exit
^L_exit:
  s9 = "st.s_mov_b32"(s8)
  "st.s_endpgm"()
}
)"};

TEST_P(StirLivenessTest, AcrossLoopBackEdge) {
  auto M = read(LoopTexts);
  ASSERT_TRUE(M);
  Liveness L(*M->entry());
  BasicBlock *Body = blockOf(*M, "L_loop");
  // s0 and s7 come around the back edge; s8 leaves the loop.
  EXPECT_EQ(describe(L, L.liveIn(*Body)), "s0 s7");
  EXPECT_EQ(describe(L, L.liveOut(*Body)), "s0 s7 s8");
  Instruction *Add = instOf(*M, "s_add_u32"), *Cmp = instOf(*M, "s_cmp_lt_u32");
  Instruction *Br = instOf(*M, "s_cbranch_scc1");
  // The add's SCC is overwritten by the compare before any read.
  EXPECT_FALSE(L.isLiveAfter(*Add, "SCC"));
  EXPECT_FALSE(L.isLiveBefore(*Cmp, "SCC"));
  EXPECT_EQ(describe(L, L.liveBefore(*Br)), "scc s0 s7 s8");
  EXPECT_EQ(describe(L, L.liveAfter(*Br)), "s0 s7 s8");
  // s8 is redefined before any read inside the loop.
  EXPECT_FALSE(L.isLiveBefore(*instOf(*M, "s_mul_i32"), sgpr(*M, 8)));
  EXPECT_TRUE(L.isLiveAfter(*instOf(*M, "s_mul_i32"), sgpr(*M, 8)));
  EXPECT_TRUE(L.liveIn(*blockOf(*M, "k")).none());
}

// The long branch as the 004 document writes it in `.stir`: the getpc
// destination as a source, a bare label operand, `mod.label` on the setpc.
const Texts LongBranchTexts = {R"(
k:
  s_mov_b32 s20, 1
  s_mov_b32 s21, 1
  s_getpc_b64 s[62:63]
  s_add_i32 s64, label_PrefetchEnd, 4
  s_add_u32 s62, s62, s64
  s_addc_u32 s63, s63, 0
  s_setpc_b64 s[62:63]
L_skipped:
  s_mov_b32 s22, s21
  s_endpgm
label_PrefetchEnd:
  s_mov_b32 s23, s20
  s_endpgm
)",
                               R"(
st.module @k {
  st.func @entry() {
    ^k:
      s20 = "st.s_mov_b32"(1)
      s21 = "st.s_mov_b32"(1)
      "st.s_getpc_b64"(s[62:63]) { issueCycles = 1, latencyCycles = 1 }
      "st.s_add_i32"(s64, label_PrefetchEnd, 4) { issueCycles = 1, latencyCycles = 1 }
      "st.s_add_u32"(s62, s62, s64) { issueCycles = 1, latencyCycles = 1 }
      "st.s_addc_u32"(s63, s63, 0) { issueCycles = 1, latencyCycles = 1 }
      // Metadata only: the assembly is still s_setpc_b64 s[62:63]
      "st.s_setpc_b64"(s[62:63]) {
        issueCycles = 1, latencyCycles = 1,
        mod.label = { label = "label_PrefetchEnd", alignment = 1 }
      }
      Successors: ^label_PrefetchEnd
    ^L_skipped:
      s22 = "st.s_mov_b32"(s21)
      "st.s_endpgm"()
    ^label_PrefetchEnd:
      s23 = "st.s_mov_b32"(s20)
      "st.s_endpgm"()
  }
}
)"};

TEST_P(StirLivenessTest, AcrossLongBranch) {
  ReadOptions Opts;
  Opts.BeforeCFG = [](Module &M) { lowerLongBranches(M); };
  auto M = read(LongBranchTexts, Opts);
  ASSERT_TRUE(M);
  Liveness L(*M->entry());
  Instruction *SetPC = instOf(*M, "s_setpc_b64");
  ASSERT_NE(SetPC->getModifier<LabelData>(), nullptr);
  EXPECT_EQ(describe(L, L.liveAfter(*SetPC)), "s20");
  EXPECT_EQ(describe(L, L.liveBefore(*SetPC)), "s20 s62 s63");
  // The carry of the 64-bit add is live between its halves only.
  EXPECT_TRUE(L.isLiveBefore(*instOf(*M, "s_addc_u32"), "SCC"));
  EXPECT_FALSE(L.isLiveBefore(*instOf(*M, "s_add_u32"), "SCC"));
  EXPECT_FALSE(L.isLiveBefore(*SetPC, "SCC"));
  // s21 only feeds the block the long branch jumps over.
  EXPECT_FALSE(L.isLiveBefore(*instOf(*M, "s_getpc_b64"), sgpr(*M, 21)));
  EXPECT_EQ(describe(L, L.liveIn(*blockOf(*M, "L_skipped"))), "s21");
  EXPECT_EQ(describe(L, L.liveIn(*blockOf(*M, "k"))), "");
}

// A kernel calling f through s_swappc_b64, with the callee named on the
// call. M0 is set before the call; f compares (writing SCC), reads s12 and
// always writes v0.
const Texts Call = {R"(
.type k,@function
k:
  s_mov_b32 m0, -1
  s_getpc_b64 s[4:5]
  s_swappc_b64 s[30:31], s[4:5]
  ds_read_b32 v1, v0
  s_cmp_eq_u32 s7, 0
  s_cbranch_scc1 L_done
L_store:
  s_waitcnt lgkmcnt(0)
  global_store_dword v[2:3], v1, off
L_done:
  s_endpgm
.type f,@function
f:
  s_cmp_eq_u32 s12, 0
  s_cselect_b32 s13, 1, 0
  v_mov_b32 v0, s13
  s_setpc_b64 s[30:31]
)",
                    R"(
st.module @k {
  st.text ".type k,@function\n"
  st.func @entry() {
  ^k:
    m0 = "st.s_mov_b32"(-1)
    s[4:5] = "st.s_getpc_b64"
    s[30:31] = "st.s_swappc_b64"(s[4:5]) { mod.call_targets = { callees = ["f"] } }
    v1 = "st.ds_read_b32"(v0, M0, EXEC)
    SCC0 = "st.s_cmp_eq_u32"(s7, 0)
    "st.s_cbranch_scc1"("L_done", SCC0)
    Successors: ^L_done, ^L_store
  ^L_store:
    "st.s_waitcnt"(lgkmcnt(0))
    "st.global_store_dword"(v[2:3], v1, off, EXEC)
    Successors: ^L_done
  ^L_done:
    "st.s_endpgm"()
  }
  st.text ".type f,@function\n"
  st.func @f() {
  ^f:
    SCC0 = "st.s_cmp_eq_u32"(s12, 0)
    s13 = "st.s_cselect_b32"(1, 0, SCC0)
    v0 = "st.v_mov_b32"(s13, EXEC)
    "st.s_setpc_b64"(s[30:31])
  }
}
)"};

TEST_P(StirLivenessTest, AcrossCall) {
  ReadOptions Opts;
  Opts.BeforeCFG = [](Module &M) {
    instOf(M, "s_swappc_b64")->setModifier(std::make_unique<CallTargetData>(
        std::vector<std::string>{"f"}));
  };
  auto M = read(Call, Opts);
  ASSERT_TRUE(M);
  Liveness L(*functionOf(*M, "k"));
  Instruction *Call = instOf(*M, "s_swappc_b64");
  const CallEffect *E = L.callEffect(*Call);
  ASSERT_NE(E, nullptr);
  EXPECT_TRUE(E->Known);
  // The ds_read_b32 after the call reads no M0 on gfx9 (M0Exact).
  EXPECT_FALSE(L.isLiveBefore(*Call, "M0"));
  EXPECT_FALSE(L.isLiveAfter(*Call, "M0"));
  EXPECT_FALSE(L.isLiveBefore(*instOf(*M, "s_mov_b32"), "M0"));
  EXPECT_FALSE(L.isLiveAfter(*instOf(*M, "ds_read_b32"), "M0"));
  // f writes SCC before reading it, and always writes v0; it reads s12.
  EXPECT_FALSE(L.isLiveBefore(*Call, "SCC"));
  EXPECT_FALSE(L.isLiveAfter(*Call, "SCC"));
  EXPECT_FALSE(L.isLiveBefore(*Call, vgpr(*M, 0)));
  EXPECT_TRUE(L.isLiveAfter(*Call, vgpr(*M, 0)));
  EXPECT_TRUE(L.isLiveBefore(*Call, sgpr(*M, 12)));
  EXPECT_FALSE(L.isLiveAfter(*Call, sgpr(*M, 13)));
  // s7 goes past the call untouched; the call writes s[30:31] itself.
  EXPECT_TRUE(L.isLiveBefore(*Call, sgpr(*M, 7)));
  EXPECT_FALSE(L.isLiveBefore(*Call, "SGPR30_SGPR31"));
  EXPECT_EQ(describe(L, L.liveAfter(*Call)), "exec_lo exec_hi s7 v0 v2 v3");

  // Inside the callee, which returns to a caller that may read anything.
  Liveness LF(*functionOf(*M, "f"));
  Instruction *Cmp = instOf(*M, "s_cmp_eq_u32", 1);
  EXPECT_FALSE(LF.isLiveBefore(*Cmp, "SCC"));
  EXPECT_TRUE(LF.isLiveBefore(*instOf(*M, "s_cselect_b32"), "SCC"));
  EXPECT_TRUE(LF.liveAfter(*instOf(*M, "s_setpc_b64")).all());
}

INSTANTIATE_TEST_SUITE_P(BothForms, StirLivenessTest,
                         ::testing::Values(Form::Asm, Form::Stir),
                         [](const ::testing::TestParamInfo<Form> &Info) {
                           return Info.param == Form::Asm ? "Asm" : "Stir";
                         });

} // namespace
