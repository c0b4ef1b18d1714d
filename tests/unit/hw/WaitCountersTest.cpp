//===- WaitCountersTest.cpp - Memory counters, events and wait encodings --===//
//
// The TSFlags bits HardwareModel.td declares for LLVM 22 against every MC
// opcode of every target (a bit that moved in another LLVM would show here
// first); the events of one instruction of each class; and, for every
// target, that each wait spellWaits writes assembles and reads back with
// the counts it was given.
//
//===----------------------------------------------------------------------===//
#include "stinkytofu/hw/TargetInfo.h"
#include "stinkytofu/hw/WaitCounters.h"
#include "TestModules.h"
#include "stinkytofu/ir/Module.h"

#include "llvm/MC/MCInstrInfo.h"
#include "gtest/gtest.h"

using namespace stinkytofu;
using llvm::StringRef;

namespace {

/// Instruction-name prefixes of LLVM's AMDGPU opcodes and the TSFlags bit
/// every one of them carries.
struct PrefixBit {
  StringRef Prefix;
  StringRef Bit;
};
constexpr PrefixBit PrefixBits[] = {
    {"DS_READ", "DS"},         {"DS_WRITE", "DS"},       {"BUFFER_LOAD", "MUBUF"},
    {"BUFFER_STORE", "MUBUF"}, {"TBUFFER_LOAD", "MTBUF"}, {"S_LOAD_DWORD", "SMRD"},
    {"S_BUFFER_LOAD", "SMRD"}, {"GLOBAL_LOAD", "FLAT"},  {"GLOBAL_LOAD", "FlatGlobal"},
    {"SCRATCH_STORE", "FLAT"}, {"SCRATCH_STORE", "FlatScratch"}, {"FLAT_LOAD", "FLAT"},
    {"EXP_", "EXP"},           {"DS_GWS", "GWS"},
    // The ALU kinds of s_delay_alu (InsertDelayAluPass); the f64
    // transcendentals are TRANS too. MC leaves TRANS off the DPP forms
    // (V_EXP_F32_e64_dpp_gfx11): those count as VALU here.
    {"V_ADD_F32", "VALU"},     {"V_EXP_F32", "VALU"},    {"V_EXP_F32_e32", "TRANS"},
    {"V_RCP_F64_e32", "TRANS"}, {"S_ADD_U32", "SALU"},    {"S_MOV_B32", "SALU"},
    {"S_NOP", "SALU"},
    // Hazard classes (HazardRules.td).
    {"V_MOV_B32_dpp", "DPP"},  {"V_MFMA_F32_", "IsMAI"},
    // Comparisons (BranchConditions); MC marks only the VOPC encoding of
    // vector ones (not _e64, _sdwa, _dpp).
    {"S_CMP_", "SOPC"},        {"S_BITCMP", "SOPC"},     {"V_CMP_EQ_U32_e32", "VOPC"},
    {"V_CMP_GT_I32_e32", "VOPC"}, {"V_CMP_LT_F32_e32", "VOPC"}};

TEST(WaitCountersTest, DeclaredTSFlagBitsMatchEveryOpcode) {
  for (StringRef Arch : TargetInfo::supportedProcessors()) {
    auto TI = TargetInfo::get(Arch);
    ASSERT_TRUE(bool(TI)) << llvm::toString(TI.takeError());
    const llvm::MCInstrInfo &MII = (*TI)->instrInfo();
    unsigned Checked = 0;
    for (unsigned Op = 0; Op < MII.getNumOpcodes(); ++Op) {
      StringRef Name = MII.getName(Op);
      for (const PrefixBit &P : PrefixBits) {
        if (!Name.starts_with(P.Prefix))
          continue;
        std::optional<unsigned> Bit = HardwareModel::tsFlagBit(P.Bit);
        ASSERT_TRUE(Bit) << P.Bit.str();
        EXPECT_TRUE(MII.get(Op).TSFlags & (uint64_t(1) << *Bit))
            << Arch.str() << ": " << Name.str() << " lacks " << P.Bit.str();
        ++Checked;
      }
    }
    EXPECT_GT(Checked, 1000u) << Arch.str();
  }
}

/// The events of the first instruction of \p Text on \p Arch.
MemoryAccess classifyFirst(StringRef Arch, StringRef Text) {
  std::unique_ptr<Module> M = test::readAsmText(("k:\n  " + Text + "\n").str(), Arch);
  if (!M)
    return {};
  CounterModel CM(M->target());
  const Instruction &I = *M->functions().front().blocks().begin()->instructions().begin();
  return CM.classify(I.mcInsts()[0], I.mnemonic());
}

TEST(WaitCountersTest, EventsOfEachClass) {
  auto Has = [](const MemoryAccess &A, std::initializer_list<WaitEvent> Events) {
    uint32_t Bits = 0;
    for (WaitEvent E : Events)
      Bits |= eventBit(E);
    return A.Events == Bits;
  };
  EXPECT_TRUE(Has(classifyFirst("gfx90a", "global_load_dword v1, v[2:3], off"),
                  {WaitEvent::VmemLoad}));
  EXPECT_TRUE(Has(classifyFirst("gfx90a", "global_store_dword v[2:3], v1, off"),
                  {WaitEvent::VmemStore}));
  MemoryAccess Atomic = classifyFirst("gfx90a", "global_atomic_add v1, v[2:3], v4, off glc");
  EXPECT_TRUE(Has(Atomic, {WaitEvent::VmemLoad}));
  EXPECT_TRUE(Atomic.Atomic);
  MemoryAccess Dma = classifyFirst("gfx90a", "buffer_load_dword v1, s[4:7], 0 offen lds");
  EXPECT_TRUE(Has(Dma, {WaitEvent::LdsDma}));
  EXPECT_TRUE(Dma.WritesLds);
  MemoryAccess Flat = classifyFirst("gfx90a", "flat_load_dword v1, v[2:3]");
  EXPECT_TRUE(Has(Flat, {WaitEvent::VmemLoad, WaitEvent::FlatLds}));
  EXPECT_TRUE(Flat.GenericFlat);
  MemoryAccess Ds = classifyFirst("gfx90a", "ds_write_b32 v0, v1");
  EXPECT_TRUE(Has(Ds, {WaitEvent::Lds}));
  EXPECT_TRUE(Ds.WritesLds && !Ds.ReadsLds);
  EXPECT_TRUE(Has(classifyFirst("gfx900", "ds_add_u32 v0, v1 gds"),
                  {WaitEvent::Gds, WaitEvent::GdsGprLock}));
  EXPECT_TRUE(Has(classifyFirst("gfx90a", "s_load_dword s4, s[0:1], 0x0"), {WaitEvent::Smem}));
  EXPECT_TRUE(Has(classifyFirst("gfx900", "exp mrt0 v0, v0, v0, v0"), {WaitEvent::Export}));
  EXPECT_TRUE(Has(classifyFirst("gfx90a", "s_sendmsg sendmsg(MSG_INTERRUPT)"),
                  {WaitEvent::Message}));
  EXPECT_TRUE(Has(classifyFirst("gfx1100", "lds_param_load v1, attr0.x wait_vdst:15"),
                  {WaitEvent::LdsDir}));
  // gfx1250: translations on xcnt, the LDS transfers on their counters.
  EXPECT_TRUE(Has(classifyFirst("gfx1250", "global_load_b32 v1, v[2:3], off"),
                  {WaitEvent::VmemLoad, WaitEvent::Translation}));
  EXPECT_TRUE(Has(classifyFirst("gfx1250", "s_load_b32 s4, s[0:1], 0x0"),
                  {WaitEvent::Smem, WaitEvent::SmemTranslation}));
  EXPECT_TRUE(Has(classifyFirst("gfx1250", "tensor_load_to_lds s[0:3], s[4:11]"),
                  {WaitEvent::TensorLds, WaitEvent::Translation}));
  // Not memory at all.
  EXPECT_EQ(classifyFirst("gfx1250", "v_mov_b32 v1, v2").Events, 0u);
}

TEST(WaitCountersTest, SpelledWaitsReadBackOnEveryTarget) {
  for (StringRef Arch : TargetInfo::supportedProcessors()) {
    SCOPED_TRACE(Arch.str());
    std::unique_ptr<Module> Probe = test::readAsmText("k:\n  s_endpgm\n", Arch);
    ASSERT_TRUE(Probe);
    CounterModel CM(Probe->target());
    // Each counter alone at 0 and at 1, then every counter at once.
    std::vector<WaitCounts> Cases;
    WaitCounts All;
    for (unsigned C = 0; C < CM.numCounters(); ++C) {
      for (int N : {0, 1}) {
        WaitCounts W;
        W.require(C, N);
        Cases.push_back(W);
      }
      All.require(C, int(C % 2));
    }
    Cases.push_back(All);
    for (const WaitCounts &W : Cases) {
      std::string Text = "k:\n";
      for (const std::string &S : CM.spellWaits(W))
        Text += "  " + S + "\n";
      std::unique_ptr<Module> M = test::readAsmText(Text, Arch);
      ASSERT_TRUE(M) << Text;
      WaitCounts Read;
      for (const Instruction &I : M->functions().front().blocks().begin()->instructions()) {
        std::optional<WaitCounts> Got = CM.decodeWait(I.mcInsts()[0], I.mnemonic());
        ASSERT_TRUE(Got) << I.mnemonic().str();
        Read.merge(*Got);
      }
      EXPECT_EQ(Read, W) << Text;
    }
  }
}

TEST(WaitCountersTest, CombinedWaitsOnlyWhereBothCountersWait) {
  std::unique_ptr<Module> M = test::readAsmText("k:\n  s_endpgm\n", "gfx1201");
  ASSERT_TRUE(M);
  CounterModel CM(M->target());
  WaitCounts Both;
  Both.require(*CM.counterNamed("loadcnt"), 6);
  Both.require(*CM.counterNamed("dscnt"), 7);
  using Texts = llvm::SmallVector<std::string, 2>;
  EXPECT_EQ(CM.spellWaits(Both), Texts{"s_wait_loadcnt_dscnt 0x607"});
  WaitCounts One;
  One.require(*CM.counterNamed("dscnt"), 0);
  EXPECT_EQ(CM.spellWaits(One), Texts{"s_wait_dscnt 0x0"});
  EXPECT_TRUE(CM.spellWaits(WaitCounts()).empty());
}

} // namespace
