//===- InstrFactsTest.cpp - ISA facts derived from LLVM MC ----------------===//
//
// Reads small kernels with stinkytofu::readAsm and checks what
// Instruction::facts() says, as LLVM 22's AMDGPU MC layer describes it:
// explicit and implicit defs/uses (SCC, VCC, EXEC, M0), the control-flow and
// memory flags, and register spellings through TargetInfo::asmName. The last
// tests run over the local corpus (corpus-local/, git-ignored) when present.
//
//===----------------------------------------------------------------------===//
#include "stinkytofu/hw/HardwareModel.h"
#include "stinkytofu/hw/InstrFacts.h"
#include "stinkytofu/hw/TargetInfo.h"
#include "TestModules.h"
#include "stinkytofu/ir/Module.h"
#include "stinkytofu/asm/AsmReader.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/Support/MemoryBuffer.h"
#include "gtest/gtest.h"

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

using namespace stinkytofu;
using llvm::MCRegister;
using llvm::StringRef;

namespace {

/// Reads \p Text as a `.s` file for \p Arch; fails the test on error.
std::unique_ptr<Module> readKernel(StringRef Text, StringRef Arch,
                                   bool AllowUnknown = false) {
  SCOPED_TRACE(Arch.str());
  return test::readAsmText(Text, Arch, AllowUnknown, "kernel.s");
}

/// The \p Nth instruction whose mnemonic is \p Mnemonic.
const Instruction &findInst(const Module &M, StringRef Mnemonic, unsigned Nth = 0) {
  for (const Instruction *I : test::allInstructions(M))
    if (I->mnemonic() == Mnemonic && Nth-- == 0)
      return *I;
  ADD_FAILURE() << "no instruction " << Mnemonic.str();
  static const Instruction None(InstKind::Machine, "", {});
  return None;
}

/// The registers as assembly spellings, in MC's order.
std::vector<std::string> names(const Module &M, llvm::ArrayRef<MCRegister> Regs) {
  std::vector<std::string> Out;
  for (MCRegister R : Regs)
    Out.push_back(M.target().asmName(R));
  return Out;
}

bool contains(const std::vector<std::string> &V, StringRef S) {
  return std::find(V.begin(), V.end(), S.str()) != V.end();
}

std::string commaList(const std::vector<std::string> &V) { return llvm::join(V, ","); }

std::vector<std::string> defs(const Module &M, const Instruction &I) {
  return names(M, I.facts().Defs);
}
std::vector<std::string> uses(const Module &M, const Instruction &I) {
  return names(M, I.facts().Uses);
}

/// Whether two registers share a register unit (overlap in hardware).
bool overlaps(const TargetInfo &TI, MCRegister A, MCRegister B) {
  for (auto UA : TI.regInfo().regunits(A))
    for (auto UB : TI.regInfo().regunits(B))
      if (UA == UB)
        return true;
  return false;
}

constexpr uint32_t ControlFlags = IF_Branch | IF_ConditionalBranch |
                                  IF_IndirectBranch | IF_Call | IF_Return;

// --- Scalar carry through SCC ----------------------------------------------

// gfx12 renamed s_add_u32 / s_addc_u32 (s_add_co_u32 / s_add_co_ci_u32);
// LLVM still accepts the old names there.
const char *const ScalarKernel = R"(k:
	s_add_u32 s0, s1, s2
	s_addc_u32 s3, s4, s5
	s_cmp_eq_u32 s0, 0
	s_cbranch_scc1 k
	s_endpgm
)";

class ScalarSCC : public testing::TestWithParam<const char *> {};

TEST_P(ScalarSCC, AddDefinesAndAddcReadsSCC) {
  auto M = readKernel(ScalarKernel, GetParam());
  ASSERT_TRUE(M);
  EXPECT_EQ(M->target().processor(), GetParam());

  const Instruction &Add = findInst(*M, "s_add_u32");
  EXPECT_EQ(Add.kind(), InstKind::Machine);
  EXPECT_EQ(defs(*M, Add), (std::vector<std::string>{"s0", "scc"}));
  EXPECT_EQ(uses(*M, Add), (std::vector<std::string>{"s1", "s2"}));
  EXPECT_EQ(Add.facts().Flags & ControlFlags, 0u);
  EXPECT_FALSE(Add.facts().has(IF_MayLoad));

  const Instruction &Addc = findInst(*M, "s_addc_u32");
  EXPECT_TRUE(contains(uses(*M, Addc), "scc")) << commaList(uses(*M, Addc));
  EXPECT_TRUE(contains(defs(*M, Addc), "scc")) << commaList(defs(*M, Addc));
  EXPECT_TRUE(contains(defs(*M, Addc), "s3"));

  const Instruction &Cmp = findInst(*M, "s_cmp_eq_u32");
  EXPECT_EQ(defs(*M, Cmp), (std::vector<std::string>{"scc"}));
  EXPECT_FALSE(contains(uses(*M, Cmp), "scc"));

  const Instruction &Br = findInst(*M, "s_cbranch_scc1");
  EXPECT_EQ(uses(*M, Br), (std::vector<std::string>{"scc"}));
  EXPECT_TRUE(Br.facts().Defs.empty()) << commaList(defs(*M, Br));
  EXPECT_TRUE(Br.facts().has(IF_Branch));
  EXPECT_TRUE(Br.facts().has(IF_ConditionalBranch));
  EXPECT_TRUE(Br.facts().has(IF_Terminator));
  EXPECT_FALSE(Br.facts().has(IF_IndirectBranch));
  EXPECT_FALSE(Br.facts().has(IF_Barrier)); // falls through
  EXPECT_FALSE(Br.facts().has(IF_Call));
}

INSTANTIATE_TEST_SUITE_P(Targets, ScalarSCC,
                         testing::Values("gfx900", "gfx90a", "gfx942", "gfx1100",
                                         "gfx1250"));

// --- Control flow: s_setpc_b64, s_swappc_b64, s_branch, s_endpgm -----------

const char *const ControlKernel = R"(k:
	s_getpc_b64 s[4:5]
	s_swappc_b64 s[30:31], s[4:5]
	s_branch k
	s_setpc_b64 s[30:31]
	s_endpgm
)";

class ControlFlow : public testing::TestWithParam<const char *> {};

TEST_P(ControlFlow, Flags) {
  auto M = readKernel(ControlKernel, GetParam());
  ASSERT_TRUE(M);

  // A return through a register: an indirect branch, not a call.
  const InstrFacts &SetPC = findInst(*M, "s_setpc_b64").facts();
  EXPECT_TRUE(SetPC.has(IF_Branch));
  EXPECT_TRUE(SetPC.has(IF_IndirectBranch));
  EXPECT_TRUE(SetPC.has(IF_Terminator));
  EXPECT_TRUE(SetPC.has(IF_Barrier));
  EXPECT_FALSE(SetPC.has(IF_Call));
  EXPECT_FALSE(SetPC.has(IF_ConditionalBranch));
  EXPECT_FALSE(SetPC.has(IF_Return));
  EXPECT_EQ(names(*M, SetPC.Uses), (std::vector<std::string>{"s[30:31]"}));

  // A call: never a branch, defines the return address.
  const InstrFacts &SwapPC = findInst(*M, "s_swappc_b64").facts();
  EXPECT_TRUE(SwapPC.has(IF_Call));
  EXPECT_FALSE(SwapPC.has(IF_Branch));
  EXPECT_FALSE(SwapPC.has(IF_IndirectBranch));
  EXPECT_FALSE(SwapPC.has(IF_Terminator));
  EXPECT_EQ(names(*M, SwapPC.Defs), (std::vector<std::string>{"s[30:31]"}));
  EXPECT_EQ(names(*M, SwapPC.Uses), (std::vector<std::string>{"s[4:5]"}));

  const InstrFacts &GetPC = findInst(*M, "s_getpc_b64").facts();
  EXPECT_EQ(GetPC.Flags & ControlFlags, 0u);
  EXPECT_EQ(names(*M, GetPC.Defs), (std::vector<std::string>{"s[4:5]"}));

  // A direct unconditional branch to a label.
  const InstrFacts &Branch = findInst(*M, "s_branch").facts();
  EXPECT_TRUE(Branch.has(IF_Branch));
  EXPECT_TRUE(Branch.has(IF_Barrier));
  EXPECT_FALSE(Branch.has(IF_IndirectBranch));
  EXPECT_FALSE(Branch.has(IF_ConditionalBranch));

  const InstrFacts &End = findInst(*M, "s_endpgm").facts();
  EXPECT_TRUE(End.has(IF_Return));
  EXPECT_TRUE(End.has(IF_Terminator));
  EXPECT_FALSE(End.has(IF_Branch));
  EXPECT_FALSE(End.has(IF_Call));
}

INSTANTIATE_TEST_SUITE_P(Targets, ControlFlow,
                         testing::Values("gfx900", "gfx90a", "gfx942", "gfx1100",
                                         "gfx1250"));

// s_barrier synchronizes the work-group: a side effect, not control flow.
TEST(InstrFacts, BarrierIsNotControlFlow) {
  for (const char *Arch : {"gfx900", "gfx90a", "gfx942", "gfx1100"}) {
    auto M = readKernel("k:\n\ts_barrier\n\ts_endpgm\n", Arch);
    ASSERT_TRUE(M);
    const InstrFacts &F = findInst(*M, "s_barrier").facts();
    EXPECT_TRUE(F.has(IF_SideEffects)) << Arch;
    EXPECT_EQ(F.Flags & (ControlFlags | IF_Terminator | IF_Barrier), 0u) << Arch;
    EXPECT_FALSE(F.has(IF_MayLoad) || F.has(IF_MayStore)) << Arch;
  }
  // gfx12 splits it into signal and wait; s_barrier itself is gone.
  auto M = readKernel("k:\n\ts_barrier_signal -1\n\ts_barrier_wait -1\n\ts_endpgm\n",
                      "gfx1250");
  ASSERT_TRUE(M);
  for (StringRef Mn : {"s_barrier_signal", "s_barrier_wait"}) {
    const InstrFacts &F = findInst(*M, Mn).facts();
    EXPECT_TRUE(F.has(IF_SideEffects)) << Mn.str();
    EXPECT_EQ(F.Flags & (ControlFlags | IF_Terminator), 0u) << Mn.str();
  }
}

// An expression operand (a label, label arithmetic) is flagged: passes that
// look for address-taken labels read the MC operands of those only.
TEST(InstrFacts, ExpressionOperandsAreFlagged) {
  for (const char *Arch : {"gfx900", "gfx90a", "gfx1100", "gfx1250"}) {
    auto M = readKernel("k:\n\ts_getpc_b64 s[4:5]\n.Lpc:\n"
                        "\ts_add_u32 s4, s4, (k-.Lpc)&4294967295\n"
                        "\ts_add_u32 s5, s5, 4\n\ts_branch k\n\ts_endpgm\n",
                        Arch);
    ASSERT_TRUE(M);
    EXPECT_TRUE(findInst(*M, "s_add_u32", 0).facts().has(IF_ExprOperand)) << Arch;
    EXPECT_FALSE(findInst(*M, "s_add_u32", 1).facts().has(IF_ExprOperand)) << Arch;
    EXPECT_TRUE(findInst(*M, "s_branch").facts().has(IF_ExprOperand)) << Arch;
    EXPECT_FALSE(findInst(*M, "s_getpc_b64").facts().has(IF_ExprOperand)) << Arch;
  }
}

// --- Vector carry through VCC, EXEC ------------------------------------------

TEST(InstrFacts, VectorCarryDefinesVCCAndReadsEXEC) {
  for (const char *Arch : {"gfx900", "gfx90a", "gfx942"}) {
    auto M = readKernel("k:\n\tv_add_co_u32 v1, vcc, v2, v3\n"
                        "\tv_addc_co_u32 v4, vcc, v5, v6, vcc\n"
                        "\tv_cmp_gt_u32 vcc, 64, v0\n"
                        "\ts_and_saveexec_b64 s[2:3], vcc\n\ts_endpgm\n",
                        Arch);
    ASSERT_TRUE(M);
    const Instruction &Add = findInst(*M, "v_add_co_u32");
    EXPECT_EQ(defs(*M, Add), (std::vector<std::string>{"v1", "vcc"})) << Arch;
    EXPECT_EQ(uses(*M, Add), (std::vector<std::string>{"v2", "v3", "exec"})) << Arch;
    const Instruction &Addc = findInst(*M, "v_addc_co_u32");
    EXPECT_TRUE(contains(uses(*M, Addc), "vcc")) << commaList(uses(*M, Addc));
    EXPECT_TRUE(contains(defs(*M, Addc), "vcc")) << commaList(defs(*M, Addc));
    // VOPC e32 writes VCC implicitly.
    const Instruction &Cmp = findInst(*M, "v_cmp_gt_u32");
    EXPECT_EQ(defs(*M, Cmp), (std::vector<std::string>{"vcc"})) << Arch;
    EXPECT_TRUE(contains(uses(*M, Cmp), "exec"));
    const Instruction &Save = findInst(*M, "s_and_saveexec_b64");
    EXPECT_EQ(defs(*M, Save), (std::vector<std::string>{"s[2:3]", "exec", "scc"}));
    EXPECT_EQ(uses(*M, Save), (std::vector<std::string>{"vcc", "exec"}));
  }
  // Wave32: the carry is vcc_lo.
  auto M = readKernel("k:\n\tv_add_co_u32 v1, vcc_lo, v2, v3\n\ts_endpgm\n", "gfx1100");
  ASSERT_TRUE(M);
  const Instruction &Add = findInst(*M, "v_add_co_u32");
  EXPECT_EQ(defs(*M, Add), (std::vector<std::string>{"v1", "vcc_lo"}));
  EXPECT_TRUE(contains(uses(*M, Add), "exec"));
}

// --- Memory ---------------------------------------------------------------

TEST(InstrFacts, Gfx9Memory) {
  for (const char *Arch : {"gfx900", "gfx90a", "gfx942"}) {
    auto M = readKernel("k:\n"
                        "\tglobal_load_dword v1, v[2:3], off\n"
                        "\tglobal_store_dword v[2:3], v1, off offset:16\n"
                        "\tbuffer_load_dword v4, v5, s[4:7], 0 offen\n"
                        "\tbuffer_store_dword v1, v2, s[4:7], 0 offen\n"
                        "\tds_read_b32 v1, v2\n"
                        "\tds_write_b32 v1, v2 offset:64\n"
                        "\ts_load_dwordx2 s[0:1], s[2:3], 0x0\n"
                        "\ts_waitcnt vmcnt(0) lgkmcnt(0)\n"
                        "\ts_endpgm\n",
                        Arch);
    ASSERT_TRUE(M);
    const Instruction &GL = findInst(*M, "global_load_dword");
    EXPECT_TRUE(GL.facts().has(IF_MayLoad)) << Arch;
    EXPECT_FALSE(GL.facts().has(IF_MayStore)) << Arch;
    EXPECT_EQ(defs(*M, GL), (std::vector<std::string>{"v1"}));
    EXPECT_EQ(uses(*M, GL), (std::vector<std::string>{"v[2:3]", "exec"}));

    const Instruction &GS = findInst(*M, "global_store_dword");
    EXPECT_TRUE(GS.facts().has(IF_MayStore));
    EXPECT_FALSE(GS.facts().has(IF_MayLoad));
    EXPECT_TRUE(GS.facts().Defs.empty()) << commaList(defs(*M, GS));

    const Instruction &BL = findInst(*M, "buffer_load_dword");
    EXPECT_TRUE(BL.facts().has(IF_MayLoad));
    EXPECT_EQ(defs(*M, BL), (std::vector<std::string>{"v4"}));
    EXPECT_EQ(uses(*M, BL), (std::vector<std::string>{"v5", "s[4:7]", "exec"}));

    const Instruction &BS = findInst(*M, "buffer_store_dword");
    EXPECT_TRUE(BS.facts().has(IF_MayStore)) << Arch;
    EXPECT_FALSE(BS.facts().has(IF_MayLoad)) << Arch;
    EXPECT_TRUE(BS.facts().Defs.empty());
    EXPECT_EQ(uses(*M, BS), (std::vector<std::string>{"v1", "v2", "s[4:7]", "exec"}));

    // MC's gfx9 LDS encodings list M0, but LLVM's M0-free twins of their
    // pseudos (DS_READ_B32_gfx9) say the hardware reads none.
    const Instruction &DR = findInst(*M, "ds_read_b32");
    EXPECT_TRUE(DR.facts().has(IF_MayLoad));
    EXPECT_EQ(defs(*M, DR), (std::vector<std::string>{"v1"}));
    EXPECT_EQ(uses(*M, DR), (std::vector<std::string>{"v2", "exec"})) << Arch;
    const Instruction &DW = findInst(*M, "ds_write_b32");
    EXPECT_TRUE(DW.facts().has(IF_MayStore));
    EXPECT_FALSE(contains(uses(*M, DW), "m0"));

    const Instruction &SL = findInst(*M, "s_load_dwordx2");
    EXPECT_TRUE(SL.facts().has(IF_MayLoad));
    EXPECT_EQ(defs(*M, SL), (std::vector<std::string>{"s[0:1]"}));
    EXPECT_FALSE(contains(uses(*M, SL), "exec")); // scalar memory

    const Instruction &Wait = findInst(*M, "s_waitcnt");
    EXPECT_FALSE(Wait.facts().has(IF_MayLoad) || Wait.facts().has(IF_MayStore));
    EXPECT_EQ(Wait.facts().Flags & ControlFlags, 0u);
  }
}

TEST(InstrFacts, Gfx11AndGfx12Memory) {
  // gfx11: the gfx9 spellings are still accepted; LDS no longer reads M0.
  auto M11 = readKernel("k:\n\tds_read_b32 v1, v2\n\tds_load_b32 v3, v2\n"
                        "\tglobal_load_dword v1, v[2:3], off\n"
                        "\tbuffer_store_dword v1, v2, s[4:7], 0 offen\n\ts_endpgm\n",
                        "gfx1100");
  ASSERT_TRUE(M11);
  for (StringRef Mn : {"ds_read_b32", "ds_load_b32"}) {
    const Instruction &DR = findInst(*M11, Mn);
    EXPECT_TRUE(DR.facts().has(IF_MayLoad));
    EXPECT_EQ(uses(*M11, DR), (std::vector<std::string>{"v2", "exec"})) << Mn.str();
  }
  EXPECT_TRUE(findInst(*M11, "global_load_dword").facts().has(IF_MayLoad));
  EXPECT_TRUE(findInst(*M11, "buffer_store_dword").facts().has(IF_MayStore));

  auto M12 = readKernel("k:\n\tds_load_b32 v1, v2\n"
                        "\tglobal_load_b32 v1, v[2:3], off\n"
                        "\tbuffer_store_b32 v1, v2, s[4:7], null offen\n"
                        "\ts_load_b64 s[0:1], s[2:3], 0x0\n\ts_endpgm\n",
                        "gfx1250");
  ASSERT_TRUE(M12);
  EXPECT_EQ(uses(*M12, findInst(*M12, "ds_load_b32")),
            (std::vector<std::string>{"v2", "exec"}));
  const Instruction &GL = findInst(*M12, "global_load_b32");
  EXPECT_TRUE(GL.facts().has(IF_MayLoad));
  EXPECT_EQ(defs(*M12, GL), (std::vector<std::string>{"v1"}));
  const Instruction &BS = findInst(*M12, "buffer_store_b32");
  EXPECT_TRUE(BS.facts().has(IF_MayStore));
  EXPECT_TRUE(contains(uses(*M12, BS), "s[4:7]"));
  EXPECT_TRUE(findInst(*M12, "s_load_b64").facts().has(IF_MayLoad));
}

// --- Matrix instructions ------------------------------------------------------

TEST(InstrFacts, MfmaDefinesItsTuple) {
  // gfx90a: accumulators in AGPRs or in VGPRs.
  auto M = readKernel("k:\n"
                      "\tv_mfma_f32_32x32x8f16 a[0:15], v[0:1], v[2:3], a[0:15]\n"
                      "\tv_mfma_f32_16x16x4f32 v[4:7], v1, v2, v[4:7]\n"
                      "\tv_accvgpr_read_b32 v8, a3\n\ts_endpgm\n",
                      "gfx90a");
  ASSERT_TRUE(M);
  const TargetInfo &TI = M->target();
  const Instruction &A = findInst(*M, "v_mfma_f32_32x32x8f16");
  ASSERT_EQ(A.facts().Defs.size(), 1u) << commaList(defs(*M, A));
  MCRegister Acc = A.facts().Defs[0];
  EXPECT_EQ(TI.classOf(Acc), RegClass::AGPR);
  EXPECT_EQ(TI.covered32(Acc).size(), 16u);
  EXPECT_EQ(TI.asmName(Acc), "a[0:15]");
  EXPECT_EQ(uses(*M, A),
            (std::vector<std::string>{"v[0:1]", "v[2:3]", "a[0:15]", "mode", "exec"}));
  EXPECT_EQ(A.facts().Flags & (ControlFlags | IF_MayLoad | IF_MayStore), 0u);

  const Instruction &V = findInst(*M, "v_mfma_f32_16x16x4f32");
  ASSERT_EQ(V.facts().Defs.size(), 1u);
  EXPECT_EQ(TI.classOf(V.facts().Defs[0]), RegClass::VGPR);
  EXPECT_EQ(TI.asmName(V.facts().Defs[0]), "v[4:7]");
  EXPECT_TRUE(contains(uses(*M, V), "v[4:7]"));

  const Instruction &Read = findInst(*M, "v_accvgpr_read_b32");
  EXPECT_EQ(defs(*M, Read), (std::vector<std::string>{"v8"}));
  EXPECT_TRUE(contains(uses(*M, Read), "a3"));

  // gfx942 spelling, VGPR destination and an inline-constant C operand.
  auto M942 = readKernel("k:\n"
                         "\tv_mfma_f32_32x32x8_f16 v[16:31], v[0:1], v[2:3], 0\n"
                         "\tv_mfma_f32_32x32x8_f16 a[16:31], v[0:1], v[2:3], a[16:31]\n"
                         "\ts_endpgm\n",
                         "gfx942");
  ASSERT_TRUE(M942);
  const Instruction &V942 = findInst(*M942, "v_mfma_f32_32x32x8_f16");
  EXPECT_EQ(defs(*M942, V942), (std::vector<std::string>{"v[16:31]"}));
  EXPECT_EQ(uses(*M942, V942), (std::vector<std::string>{"v[0:1]", "v[2:3]", "mode", "exec"}));
  const Instruction &A942 = findInst(*M942, "v_mfma_f32_32x32x8_f16", 1);
  EXPECT_EQ(defs(*M942, A942), (std::vector<std::string>{"a[16:31]"}));
  EXPECT_EQ(M942->target().covered32(A942.facts().Defs[0]).size(), 16u);

  // gfx1250 has WMMA rather than MFMA.
  auto M1250 = readKernel("k:\n\tv_wmma_f32_16x16x32_f16 v[0:7], v[8:15], v[16:23], v[0:7]\n"
                          "\ts_endpgm\n",
                          "gfx1250");
  ASSERT_TRUE(M1250);
  const Instruction &W = findInst(*M1250, "v_wmma_f32_16x16x32_f16");
  EXPECT_EQ(defs(*M1250, W), (std::vector<std::string>{"v[0:7]"}));
  EXPECT_TRUE(contains(uses(*M1250, W), "v[8:15]"));
  EXPECT_TRUE(contains(uses(*M1250, W), "exec"));
}

// --- Special registers --------------------------------------------------------

TEST(InstrFacts, SpecialRegisterNames) {
  for (const char *Arch : {"gfx900", "gfx90a", "gfx942", "gfx1100", "gfx1250"}) {
    auto TI = TargetInfo::get(Arch);
    ASSERT_TRUE(bool(TI)) << Arch;
    const TargetInfo &T = **TI;
    EXPECT_EQ(T.asmName(T.findRegister("SCC")), "scc") << Arch;
    EXPECT_EQ(T.asmName(T.findRegister("EXEC")), "exec");
    EXPECT_EQ(T.asmName(T.findRegister("EXEC_LO")), "exec_lo");
    EXPECT_EQ(T.asmName(T.findRegister("VCC")), "vcc");
    EXPECT_EQ(T.asmName(T.findRegister("VCC_LO")), "vcc_lo");
    EXPECT_EQ(T.asmName(T.findRegister("M0")), "m0");
    EXPECT_EQ(T.classOf(T.findRegister("SCC")), RegClass::Special);
    EXPECT_EQ(T.asmName(T.findRegister("SGPR62_SGPR63")), "s[62:63]");
    EXPECT_EQ(T.asmName(T.reg32(RegClass::SGPR, 5)), "s5");
    EXPECT_EQ(T.asmName(T.reg32(RegClass::VGPR, 255)), "v255");
    EXPECT_EQ(T.indexOf(T.reg32(RegClass::VGPR, 7)), 7u);
    // EXEC covers EXEC_LO: a def of exec_lo is a partial def of exec.
    EXPECT_TRUE(T.regInfo().isSubRegisterEq(T.findRegister("EXEC"),
                                            T.findRegister("EXEC_LO")));
  }
  auto TI = TargetInfo::get("gfx90a");
  ASSERT_TRUE(bool(TI));
  EXPECT_EQ((*TI)->asmName((*TI)->reg32(RegClass::AGPR, 3)), "a3");
  EXPECT_EQ((*TI)->classOf((*TI)->reg32(RegClass::AGPR, 3)), RegClass::AGPR);
}

// Every MC register name finds its register: names outside the four files
// from the index, plain registers from the tables, tuples and halves from
// each file's names (some indexed only on first use).
TEST(InstrFacts, EveryRegisterNameFindsItsRegister) {
  for (const char *Arch : {"gfx900", "gfx90a", "gfx1100", "gfx1250"}) {
    auto TI = TargetInfo::get(Arch);
    ASSERT_TRUE(bool(TI)) << Arch;
    const llvm::MCRegisterInfo &MRI = (*TI)->regInfo();
    unsigned Missed = 0;
    for (unsigned R = 1; R < MRI.getNumRegs(); ++R)
      Missed += (*TI)->findRegister(MRI.getName(R)) != llvm::MCRegister(R);
    EXPECT_EQ(Missed, 0u) << Arch;
    EXPECT_FALSE((*TI)->findRegister("VGPR007").isValid()) << Arch;
    EXPECT_FALSE((*TI)->findRegister("SGPR4_SGPR6").isValid()) << Arch;
    EXPECT_FALSE((*TI)->findRegister("NOT_A_REGISTER").isValid()) << Arch;
  }
}

// An explicit `m0` operand is MC's encoding-specific M0_gfxpre11 while the
// implicit use of ds_append (which reads M0 on gfx9) names M0: facts map
// both to the generic M0.
TEST(InstrFacts, ExplicitM0IsTheM0LdsReads) {
  auto M = readKernel("k:\n\ts_mov_b32 m0, -1\n\tds_append v1\n\ts_endpgm\n",
                      "gfx90a");
  ASSERT_TRUE(M);
  const Instruction &Mov = findInst(*M, "s_mov_b32");
  EXPECT_EQ(defs(*M, Mov), (std::vector<std::string>{"m0"}));
  bool Dependent = false;
  for (MCRegister D : Mov.facts().Defs)
    for (MCRegister U : findInst(*M, "ds_append").facts().Uses)
      Dependent |= overlaps(M->target(), D, U);
  EXPECT_TRUE(Dependent);
}

// --- Kinds: macro invocations and opaque statements ------------------------

TEST(InstrFacts, MacroCallComposesItsExpansion) {
  auto M = readKernel(".set vgprTmp, 10\n"
                      ".macro SCALE dst:req src:req\n"
                      "\tv_lshlrev_b32 v[\\dst], 2, v[\\src]\n"
                      "\tv_add_u32 v[\\dst+1], v[\\dst], v[\\src]\n"
                      ".endm\n"
                      "k:\n"
                      "\tSCALE vgprTmp, 0\n"
                      "\tSCALE vgprTmp+2, 1\n"
                      "\ts_endpgm\n",
                      "gfx90a");
  ASSERT_TRUE(M);
  const Instruction &First = findInst(*M, "scale");
  EXPECT_EQ(First.kind(), InstKind::MacroCall);
  EXPECT_EQ(First.mnemonicSpelling(), "SCALE");
  ASSERT_EQ(First.mcInsts().size(), 2u);
  // All defs; only upward-exposed uses (v10 is written before it is read).
  EXPECT_EQ(defs(*M, First), (std::vector<std::string>{"v10", "v11"}));
  EXPECT_EQ(uses(*M, First), (std::vector<std::string>{"v0", "exec"}));
  const Instruction &Second = findInst(*M, "scale", 1);
  EXPECT_EQ(Second.kind(), InstKind::MacroCall);
  EXPECT_EQ(defs(*M, Second), (std::vector<std::string>{"v12", "v13"}));
  EXPECT_EQ(Second.location().Line, 8u);
  // Operands keep their spelling; the typed view is the macro's arguments.
  ASSERT_EQ(Second.numOperands(), 2u);
  EXPECT_EQ(Second.operand(0).spelling(), "vgprTmp+2");
  EXPECT_EQ(findInst(*M, "s_endpgm").kind(), InstKind::Machine);
}

TEST(InstrFacts, SymbolicRegistersResolveThroughSet) {
  auto M = readKernel(".set vgprValuC, 16\n.set sgprSrdD, 8\n"
                      "k:\n"
                      "\tv_mov_b32 v[vgprValuC+3], 0\n"
                      "\tbuffer_store_dword v[vgprValuC+3], v0, s[sgprSrdD:sgprSrdD+3], 0 offen\n"
                      "\ts_endpgm\n",
                      "gfx942");
  ASSERT_TRUE(M);
  const Instruction &Mov = findInst(*M, "v_mov_b32");
  EXPECT_EQ(defs(*M, Mov), (std::vector<std::string>{"v19"}));
  const Operand &Dst = Mov.operand(0);
  EXPECT_TRUE(Dst.isRegister());
  EXPECT_TRUE(Dst.isSymbolicRegister());
  EXPECT_EQ(Dst.regFile(), RegFile::VGPR);
  EXPECT_EQ(Dst.firstReg(), 19u);
  EXPECT_EQ(Dst.spelling(), "v[vgprValuC+3]");
  const Instruction &Store = findInst(*M, "buffer_store_dword");
  const Operand &Srd = Store.operand(2);
  EXPECT_EQ(Srd.regFile(), RegFile::SGPR);
  EXPECT_EQ(Srd.firstReg(), 8u);
  EXPECT_EQ(Srd.regCount(), 4u);
  EXPECT_TRUE(contains(uses(*M, Store), "s[8:11]"));
  EXPECT_TRUE(Store.operand(4).isModifier());
  EXPECT_EQ(Store.operand(4).spelling(), "offen");
}

TEST(InstrFacts, OpaqueReadsAndWritesEverything) {
  auto M = readKernel("k:\n\ts_nop 0\n\ts_foo_bar s0, s1\n\ts_endpgm\n", "gfx942",
                      /*AllowUnknown=*/true);
  ASSERT_TRUE(M);
  const Instruction &Foo = findInst(*M, "s_foo_bar");
  EXPECT_EQ(Foo.kind(), InstKind::Opaque);
  EXPECT_TRUE(Foo.facts().has(IF_Opaque));
  EXPECT_TRUE(Foo.facts().has(IF_MayLoad));
  EXPECT_TRUE(Foo.facts().has(IF_MayStore));
  EXPECT_TRUE(Foo.facts().has(IF_SideEffects));
  EXPECT_TRUE(Foo.mcInsts().empty());
  EXPECT_FALSE(findInst(*M, "s_nop").facts().has(IF_Opaque));
}

TEST(InstrFacts, TargetComesFromTheFile) {
  // .amdgcn_target decides; the default (gfx942) does not apply.
  auto M = test::readAsmText("\t.amdgcn_target \"amdgcn-amd-amdhsa--gfx1100\"\n"
                             "\t.text\nk:\n\tds_read_b32 v1, v2\n\ts_endpgm\n",
                             "", false, "k.s");
  ASSERT_TRUE(M);
  EXPECT_EQ(M->target().processor(), "gfx1100");
  EXPECT_EQ(M->target().hardware().waveSize(), 32u);
  EXPECT_FALSE(contains(uses(*M, findInst(*M, "ds_read_b32")), "m0"));
}

// --- The local corpus --------------------------------------------------------

/// corpus-local/ next to the tests' inputs; absent on CI.
std::filesystem::path corpusDir() {
  return (std::filesystem::path(STINKYTOFU_TEST_INPUTS) / ".." / ".." / "corpus-local")
      .lexically_normal();
}

std::vector<std::filesystem::path> corpusFiles() {
  std::vector<std::filesystem::path> Files;
  std::error_code EC;
  if (!std::filesystem::is_directory(corpusDir(), EC))
    return Files;
  for (const auto &E : std::filesystem::recursive_directory_iterator(corpusDir(), EC)) {
    std::string Name = E.path().filename().string();
    if (E.is_regular_file() &&
        (StringRef(Name).ends_with(".s") || StringRef(Name).ends_with(".s.txt")))
      Files.push_back(E.path());
  }
  std::sort(Files.begin(), Files.end());
  return Files;
}

/// Names defined by `.macro NAME ...` in \p Text, lower-cased.
llvm::StringSet<> macroNames(StringRef Text) {
  llvm::StringSet<> Names;
  for (StringRef Rest = Text; !Rest.empty();) {
    auto [Line, Tail] = Rest.split('\n');
    Rest = Tail;
    Line = Line.ltrim(" \t");
    if (!Line.consume_front(".macro"))
      continue;
    StringRef Name = Line.ltrim(" \t").take_until([](char C) {
      return C == ' ' || C == '\t' || C == ',';
    });
    if (!Name.empty())
      Names.insert(Name.lower());
  }
  return Names;
}

TEST(CorpusFacts, FilesReadAndMacroLinesAreMacroCalls) {
  std::vector<std::filesystem::path> Files = corpusFiles();
  if (Files.empty())
    GTEST_SKIP() << "no corpus at " << corpusDir().string();
  size_t Total = 0;
  for (const auto &Path : Files) {
    SCOPED_TRACE(Path.string());
    auto Buffer = llvm::MemoryBuffer::getFile(Path.string());
    ASSERT_TRUE(bool(Buffer));
    llvm::StringSet<> Macros = macroNames((*Buffer)->getBuffer());
    ReaderOptions Opts;
    auto M = readAsm(std::move(*Buffer), Opts);
    ASSERT_TRUE(bool(M)) << llvm::toString(M.takeError());
    // Some kernels are pre-assembled: their code is `.long` words, decoded
    // one instruction a line (a line of two is a MacroCall of two), which
    // no macro call is among.
    std::vector<const Instruction *> Insts = test::allInstructions(**M);
    Total += Insts.size();
    unsigned Calls = 0, Written = 0;
    for (const Instruction *I : Insts) {
      if (I->sourceText().ltrim(" \t").starts_with(".long"))
        continue;
      ++Written;
      EXPECT_NE(I->kind(), InstKind::Opaque) << I->sourceText().str();
      bool IsMacro = Macros.contains(I->mnemonic());
      if (IsMacro) {
        ++Calls;
        EXPECT_EQ(I->kind(), InstKind::MacroCall) << I->sourceText().str();
      } else {
        EXPECT_EQ(I->kind(), InstKind::Machine) << I->sourceText().str();
        EXPECT_EQ(I->mcInsts().size(), 1u) << I->sourceText().str();
      }
    }
    if (!Macros.empty() && Written)
      EXPECT_GT(Calls, 0u);
  }
  EXPECT_GT(Total, 1000u);
}

/// Spot checks of MC-derived facts on every file of the corpus: each
/// instruction of the families the issue names must have the expected facts,
/// and its first register operand, resolved through the file's `.set`
/// symbols, must be the register MC assembled.
TEST(CorpusFacts, SpotChecks) {
  std::vector<std::filesystem::path> Files = corpusFiles();
  if (Files.empty())
    GTEST_SKIP() << "no corpus at " << corpusDir().string();
  std::map<std::string, unsigned> Seen;
  for (const auto &Path : Files) {
    SCOPED_TRACE(Path.string());
    auto Buffer = llvm::MemoryBuffer::getFile(Path.string());
    ASSERT_TRUE(bool(Buffer));
    auto M = readAsm(std::move(*Buffer), ReaderOptions());
    ASSERT_TRUE(bool(M)) << llvm::toString(M.takeError());
    const Module &Mod = **M;
    const TargetInfo &TI = Mod.target();
    for (const Instruction *I : test::allInstructions(Mod)) {
      if (I->kind() != InstKind::Machine)
        continue;
      StringRef Mn = I->mnemonic();
      const InstrFacts &F = I->facts();
      std::string Where = (Path.filename().string() + ":" +
                           std::to_string(I->location().Line) + ": " +
                           I->sourceText().rtrim("\n"))
                              .str();
      std::vector<std::string> D = names(Mod, F.Defs), U = names(Mod, F.Uses);
      auto Check = [&](StringRef Family, bool Ok) {
        ++Seen[Family.str()];
        EXPECT_TRUE(Ok) << Family.str() << " at " << Where << "\n  defs " << commaList(D)
                        << "\n  uses " << commaList(U) << "\n  flags " << F.Flags;
      };
      if (Mn == "s_setpc_b64")
        Check(Mn, F.has(IF_Branch) && F.has(IF_IndirectBranch) &&
                      F.has(IF_Terminator) && !F.has(IF_Call));
      else if (Mn == "s_swappc_b64")
        Check(Mn, F.has(IF_Call) && !F.has(IF_Branch) && !F.Defs.empty());
      else if (Mn.starts_with("s_cbranch_scc"))
        Check("s_cbranch_scc*", F.has(IF_ConditionalBranch) && contains(U, "scc"));
      else if (Mn.starts_with("s_cbranch_vcc"))
        Check("s_cbranch_vcc*", F.has(IF_ConditionalBranch) &&
                                    (contains(U, "vcc") || contains(U, "vcc_lo")));
      else if (Mn.starts_with("s_cbranch_exec"))
        Check("s_cbranch_exec*", F.has(IF_ConditionalBranch) && contains(U, "exec"));
      else if (Mn == "s_branch")
        Check(Mn, F.has(IF_Branch) && !F.has(IF_ConditionalBranch) &&
                      !F.has(IF_IndirectBranch));
      else if (Mn == "s_barrier")
        Check(Mn, (F.Flags & (ControlFlags | IF_Terminator)) == 0);
      else if (Mn == "s_endpgm")
        Check(Mn, F.has(IF_Return) && F.has(IF_Terminator));
      else if (Mn == "s_add_u32" || Mn == "s_sub_u32")
        Check("s_add_u32/s_sub_u32", contains(D, "scc") && !contains(U, "scc"));
      else if (Mn == "s_addc_u32" || Mn == "s_subb_u32")
        Check("s_addc_u32/s_subb_u32", contains(D, "scc") && contains(U, "scc"));
      else if (Mn.starts_with("s_cmp_"))
        Check("s_cmp_*", D == std::vector<std::string>{"scc"});
      else if (Mn.starts_with("global_load_") || Mn.starts_with("buffer_load_"))
        // A load into LDS (`lds`, in the words of pre-assembled kernels)
        // stores at M0's address instead of writing a register.
        Check("global/buffer_load_*",
              F.has(IF_MayLoad) && contains(U, "exec") &&
                  (F.Defs.empty() ? F.has(IF_MayStore) && contains(U, "m0")
                                  : !F.has(IF_MayStore)));
      else if (Mn.starts_with("global_store_") || Mn.starts_with("buffer_store_"))
        Check("global/buffer_store_*", F.has(IF_MayStore) && !F.has(IF_MayLoad) &&
                                           contains(U, "exec") && F.Defs.empty());
      else if (Mn.starts_with("ds_read") || Mn.starts_with("ds_load"))
        Check("ds_read*", F.has(IF_MayLoad) && !contains(U, "m0"));
      else if (Mn.starts_with("ds_write") || Mn.starts_with("ds_store"))
        Check("ds_write*", F.has(IF_MayStore) && !contains(U, "m0"));
      else if (Mn.starts_with("v_mfma_")) {
        bool Tuple = F.Defs.size() == 1 &&
                     (TI.classOf(F.Defs[0]) == RegClass::AGPR ||
                      TI.classOf(F.Defs[0]) == RegClass::VGPR) &&
                     TI.covered32(F.Defs[0]).size() >= 4 && contains(U, "exec");
        Check("v_mfma_*", Tuple);
      } else if (Mn.starts_with("v_add_co_u32") || Mn.starts_with("v_sub_co_u32"))
        Check("v_add/sub_co_u32", contains(D, "vcc") || I->numOperands() < 2 ||
                                      !I->operand(1).spelling().equals_insensitive("vcc"));
      else if (Mn == "s_mov_b32" || Mn == "v_mov_b32" || Mn == "s_lshl_b32" ||
               Mn == "v_lshlrev_b32" || Mn == "v_add_u32") {
        // The first operand, read through the module's symbols, is the
        // register MC assembled.
        const Operand &Dst = I->operand(0);
        if (!Dst.isRegister() || !Dst.firstReg() || F.Defs.empty())
          continue;
        MCRegister Def = F.Defs[0];
        Check("symbolic destination",
              TI.indexOf(Def) == Dst.firstReg() &&
                  ((Dst.regFile() == RegFile::VGPR && TI.classOf(Def) == RegClass::VGPR) ||
                   (Dst.regFile() == RegFile::SGPR && TI.classOf(Def) == RegClass::SGPR)));
      }
    }
  }
  // The corpus has every family checked above.
  for (StringRef Family : {"s_setpc_b64", "s_cbranch_scc*", "s_branch", "s_barrier",
                           "s_endpgm", "global/buffer_load_*", "global/buffer_store_*",
                           "ds_read*", "v_mfma_*", "s_add_u32/s_sub_u32",
                           "s_addc_u32/s_subb_u32", "symbolic destination"})
    EXPECT_GT(Seen[Family.str()], 0u) << Family.str();
}

} // namespace
