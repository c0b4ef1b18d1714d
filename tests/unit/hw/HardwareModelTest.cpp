//===- HardwareModelTest.cpp - Generated per-architecture facts -----------===//
//
// Checks the tables generated from stinkytofu/hw/HardwareModel.td against
// docs/sqtt-reference.md (sections 2.1-2.3) and the SQTT cost model.
//
//===----------------------------------------------------------------------===//
#include "stinkytofu/hw/HardwareModel.h"

#include "llvm/ADT/StringRef.h"
#include "gtest/gtest.h"

#include <iterator>
#include <optional>
#include <set>
#include <string>

using namespace stinkytofu;

namespace {

const char *const AllProcessors[] = {"gfx900",  "gfx906",  "gfx908", "gfx90a",
                                     "gfx942",  "gfx950",  "gfx1030",
                                     "gfx1100", "gfx1200", "gfx1201",
                                     "gfx1250"};

const HardwareModel &model(llvm::StringRef P) {
  const HardwareModel *M = HardwareModel::lookup(P);
  EXPECT_NE(M, nullptr) << P.str();
  if (!M)
    M = HardwareModel::lookup("gfx942");
  return *M;
}

unsigned getreg(llvm::StringRef P, llvm::StringRef Field) {
  const HwIdField *F = model(P).hwIdField(Field);
  EXPECT_NE(F, nullptr) << P.str() << " " << Field.str();
  return F ? F->getregImmediate() : ~0u;
}

TEST(HardwareModelTest, EveryProcessorResolves) {
  std::set<std::string> Listed;
  for (llvm::StringRef P : HardwareModel::processors())
    Listed.insert(P.str());
  for (const char *P : AllProcessors) {
    const HardwareModel *M = HardwareModel::lookup(P);
    ASSERT_NE(M, nullptr) << P;
    EXPECT_EQ(M->processor(), P);
    EXPECT_TRUE(Listed.count(P)) << P;
    EXPECT_FALSE(M->hwIdFields().empty()) << P;
  }
  EXPECT_EQ(Listed.size(), std::size(AllProcessors));
  // gfx order, not lexical order.
  EXPECT_EQ(HardwareModel::processors().front(), "gfx900");
  EXPECT_EQ(HardwareModel::processors().back(), "gfx1250");
  EXPECT_EQ(HardwareModel::lookup("gfx1234"), nullptr);
  EXPECT_EQ(HardwareModel::lookup(""), nullptr);
  EXPECT_EQ(HardwareModel::lookup("gfx90a:xnack+"),
            HardwareModel::lookup("gfx90a"));
}

TEST(HardwareModelTest, GenerationAndWaveSize) {
  for (const char *P : {"gfx900", "gfx906", "gfx908", "gfx90a", "gfx942",
                        "gfx950"}) {
    EXPECT_EQ(model(P).generation(), "gfx9") << P;
    EXPECT_EQ(model(P).waveSize(), 64u) << P;
  }
  EXPECT_EQ(model("gfx1030").generation(), "gfx10");
  EXPECT_EQ(model("gfx1100").generation(), "gfx11");
  for (const char *P : {"gfx1200", "gfx1201", "gfx1250"})
    EXPECT_EQ(model(P).generation(), "gfx12") << P;
  for (const char *P : {"gfx1030", "gfx1100", "gfx1200", "gfx1201", "gfx1250"})
    EXPECT_EQ(model(P).waveSize(), 32u) << P;
}

TEST(HardwareModelTest, TraceDataInstructions) {
  for (const char *P : {"gfx900", "gfx90a", "gfx942", "gfx950"}) {
    EXPECT_FALSE(model(P).hasTtraceDataImm()) << P;
    EXPECT_TRUE(model(P).needsNopBeforeTtraceData()) << P;
    EXPECT_EQ(model(P).ttraceDataImmMax(), 0u) << P;
  }
  // gfx10 assembles _imm, but decoder support is unconfirmed: M0 only.
  EXPECT_FALSE(model("gfx1030").hasTtraceDataImm());
  EXPECT_FALSE(model("gfx1030").needsNopBeforeTtraceData());
  for (const char *P : {"gfx1100", "gfx1200", "gfx1201", "gfx1250"}) {
    EXPECT_TRUE(model(P).hasTtraceDataImm()) << P;
    EXPECT_FALSE(model(P).needsNopBeforeTtraceData()) << P;
    EXPECT_EQ(model(P).ttraceDataImmMax(), 0xFFu) << P;
  }
}

TEST(HardwareModelTest, RegisterBudgets) {
  EXPECT_EQ(model("gfx900").maxSGPRs(), 102u);
  EXPECT_EQ(model("gfx942").maxSGPRs(), 102u);
  EXPECT_EQ(model("gfx1030").maxSGPRs(), 106u);
  EXPECT_EQ(model("gfx1250").maxSGPRs(), 106u);
  for (const char *P : {"gfx90a", "gfx942", "gfx950"})
    EXPECT_EQ(model(P).maxVGPRs(), 512u) << P;
  for (const char *P : {"gfx900", "gfx906", "gfx908", "gfx1030", "gfx1100",
                        "gfx1200"})
    EXPECT_EQ(model(P).maxVGPRs(), 256u) << P;
  // gfx1250 reaches v256..v1023 through s_set_vgpr_msb; LLVM 22 writes the
  // 16-bit form. No other processor has high VGPRs.
  EXPECT_EQ(model("gfx1250").maxVGPRs(), 1024u);
  EXPECT_EQ(model("gfx1250").vgprMsbMode(), VgprMsbMode::Msb16);
  for (llvm::StringRef P : HardwareModel::processors())
    if (P != "gfx1250")
      EXPECT_FALSE(model(P).hasHighVgprs()) << P.str();
  for (const char *P : {"gfx908", "gfx90a", "gfx942", "gfx950"})
    EXPECT_TRUE(model(P).hasAGPRs()) << P;
  for (const char *P : {"gfx900", "gfx906", "gfx1030", "gfx1100", "gfx1201",
                        "gfx1250"})
    EXPECT_FALSE(model(P).hasAGPRs()) << P;
}

TEST(HardwareModelTest, Gfx9GetregImmediates) {
  // sqtt-reference.md 2.2 table.
  for (const char *P : {"gfx900", "gfx906", "gfx908", "gfx90a", "gfx942",
                        "gfx950"}) {
    EXPECT_EQ(getreg(P, "WAVE_ID"), 0x1804u) << P;
    EXPECT_EQ(getreg(P, "SIMD_ID"), 0x0904u) << P;
    EXPECT_EQ(getreg(P, "CU_ID"), 0x1A04u) << P;
    EXPECT_EQ(getreg(P, "TG_ID"), 0x1C04u) << P;
    const HwIdField *CU = model(P).hwIdField("CU_ID");
    ASSERT_NE(CU, nullptr);
    EXPECT_EQ(CU->HwRegName, "HW_REG_HW_ID");
    EXPECT_EQ(CU->HwRegId, 4u);
    EXPECT_EQ(CU->Offset, 8u);
    EXPECT_EQ(CU->Width, 4u);
    EXPECT_EQ(CU->mask(), 0xF00u);
    EXPECT_EQ(model(P).hwIdField("WGP_ID"), nullptr) << P;
  }
  // SE_ID is [14:13] on gfx90x and [15:13] on gfx940/942/950.
  EXPECT_EQ(model("gfx90a").hwIdField("SE_ID")->Width, 2u);
  EXPECT_EQ(model("gfx942").hwIdField("SE_ID")->Width, 3u);
  EXPECT_EQ(model("gfx950").hwIdField("SE_ID")->Width, 3u);
  EXPECT_EQ(getreg("gfx942", "XCC_ID"), (3u << 11) | 20u);
  EXPECT_EQ(model("gfx90a").hwIdField("XCC_ID"), nullptr);
  EXPECT_EQ(model("gfx900").hwIdFields().size(), 11u);
}

TEST(HardwareModelTest, Gfx10PlusGetregImmediates) {
  for (const char *P : {"gfx1030", "gfx1100", "gfx1200", "gfx1201",
                        "gfx1250"}) {
    EXPECT_EQ(getreg(P, "WAVE_ID"), 0x2017u) << P;
    EXPECT_EQ(getreg(P, "SIMD_ID"), 0x0A17u) << P;
    EXPECT_EQ(getreg(P, "WGP_ID"), 0x1A97u) << P;
    EXPECT_EQ(getreg(P, "WG_ID"), 0x2418u) << P;
    EXPECT_EQ(model(P).hwIdField("CU_ID"), nullptr) << P;
  }
  EXPECT_EQ(model("gfx1030").hwIdField("WGP_ID")->HwRegName, "HW_REG_HW_ID1");
  EXPECT_EQ(model("gfx1100").hwIdField("WG_ID")->HwRegName, "HW_REG_HW_ID2");
  EXPECT_EQ(model("gfx1200").hwIdField("WGP_ID")->HwRegName,
            "HW_REG_WAVE_HW_ID1");
  EXPECT_EQ(model("gfx1201").hwIdField("WG_ID")->HwRegName,
            "HW_REG_WAVE_HW_ID2");
  // SE_ID [19:18] on gfx10, [20:18] on gfx11/gfx12; gfx1250 has none.
  EXPECT_EQ(model("gfx1030").hwIdField("SE_ID")->Width, 2u);
  EXPECT_EQ(model("gfx1100").hwIdField("SE_ID")->Width, 3u);
  EXPECT_EQ(model("gfx1200").hwIdField("SE_ID")->Width, 3u);
  EXPECT_EQ(model("gfx1250").hwIdField("SE_ID"), nullptr);
  EXPECT_EQ(model("gfx1250").seAidSendMsgId(), std::optional<unsigned>(135));
  EXPECT_EQ(model("gfx1200").seAidSendMsgId(), std::nullopt);
}

TEST(HardwareModelTest, ScopeFields) {
  EXPECT_EQ(model("gfx942").scopeField(ScopeDim::Cu).getregImmediate(),
            0x1A04u);
  EXPECT_EQ(model("gfx942").scopeField(ScopeDim::Wg).Name, "TG_ID");
  EXPECT_EQ(model("gfx1100").scopeField(ScopeDim::Cu).getregImmediate(),
            0x1A97u);
  EXPECT_EQ(model("gfx1100").scopeField(ScopeDim::Wg).Name, "WG_ID");
  for (const char *P : AllProcessors) {
    EXPECT_EQ(model(P).scopeField(ScopeDim::Wave).Name, "WAVE_ID") << P;
    EXPECT_EQ(model(P).scopeField(ScopeDim::Simd).Name, "SIMD_ID") << P;
  }
}

TEST(HardwareModelTest, ShaderClock) {
  const ShaderClock &G9 = model("gfx942").shaderClock();
  EXPECT_EQ(G9.Kind, ShaderClockKind::SMemTime);
  EXPECT_EQ(G9.Mnemonic, "s_memtime");
  EXPECT_TRUE(G9.NeedsLgkmWait);
  const ShaderClock &G11 = model("gfx1100").shaderClock();
  EXPECT_EQ(G11.Kind, ShaderClockKind::HwRegShaderCycles);
  EXPECT_EQ(G11.HwRegId, 29u);
  EXPECT_EQ(G11.Width, 20u);
  EXPECT_EQ(model("gfx1030").shaderClock().Kind,
            ShaderClockKind::HwRegShaderCycles);
  const ShaderClock &G12 = model("gfx1201").shaderClock();
  EXPECT_EQ(G12.Kind, ShaderClockKind::HwRegShaderCyclesLoHi);
  EXPECT_EQ(G12.HwRegName, "HW_REG_SHADER_CYCLES_LO");
  EXPECT_EQ(G12.HwRegId, 29u);
  EXPECT_EQ(G12.HwRegHiId, 30u);
  const ShaderClock &G1250 = model("gfx1250").shaderClock();
  EXPECT_EQ(G1250.Kind, ShaderClockKind::GetShaderCyclesU64);
  EXPECT_EQ(G1250.Mnemonic, "s_get_shader_cycles_u64");
  EXPECT_EQ(G1250.Width, 64u);
}

TEST(HardwareModelTest, ClassifyCostWeights) {
  for (const char *P : AllProcessors) {
    const HardwareModel &M = model(P);
    const InstClass &MFMA = M.classify("v_mfma_f32_32x32x8f16");
    EXPECT_EQ(MFMA.Name, "MFMA") << P;
    EXPECT_EQ(MFMA.CostWeight, 16u) << P;
    EXPECT_EQ(M.classify("v_smfmac_f32_16x16x32_f16").Name, "MFMA") << P;
    EXPECT_EQ(M.classify("v_wmma_f32_16x16x16_f16").CostWeight, 16u) << P;
    EXPECT_EQ(M.classify("v_swmmac_f32_16x16x32_f16").CostWeight, 16u) << P;

    EXPECT_EQ(M.classify("global_load_dword").CostWeight, 10u) << P;
    EXPECT_EQ(M.classify("global_load_dword").Name, "VMEM") << P;
    EXPECT_EQ(M.classify("buffer_load_dwordx4").CostWeight, 10u) << P;
    EXPECT_EQ(M.classify("flat_store_dword").CostWeight, 10u) << P;
    EXPECT_EQ(M.classify("ds_read_b32").CostWeight, 4u) << P;
    EXPECT_EQ(M.classify("ds_read_b32").Name, "LDS") << P;
    EXPECT_EQ(M.classify("ds_load_b128").CostWeight, 4u) << P;

    EXPECT_EQ(M.classify("s_mov_b32").CostWeight, 1u) << P;
    EXPECT_EQ(M.classify("s_mov_b32").Name, "SALU") << P;
    EXPECT_EQ(M.classify("v_add_f32").Name, "VALU") << P;
    EXPECT_EQ(M.classify("v_add_f32").CostWeight, 1u) << P;
    EXPECT_EQ(M.classify("scratch_load_dword").CostWeight, 1u) << P;
    EXPECT_EQ(M.classify("s_load_dwordx2").Name, "SMEM") << P;
    EXPECT_EQ(M.classify("s_buffer_load_dword").Name, "SMEM") << P;
    EXPECT_EQ(M.classify("s_branch").Name, "BRANCH") << P;
    EXPECT_EQ(M.classify("s_cbranch_scc1").Name, "BRANCH") << P;
    EXPECT_EQ(M.classify("s_setpc_b64").Name, "BRANCH") << P;
    EXPECT_EQ(M.classify("s_swappc_b64").Name, "BRANCH") << P;

    const InstClass &Other = M.classify("unknown_op");
    EXPECT_EQ(Other.Name, "OTHER") << P;
    EXPECT_EQ(Other.CostWeight, 1u) << P;
    EXPECT_EQ(M.classify("").Name, "OTHER") << P;
  }
}

TEST(HardwareModelTest, ClassifyTimings) {
  const HardwareModel &M = model("gfx942");
  const InstClass &VALU = M.classify("v_add_f32");
  EXPECT_EQ(VALU.IssueCycles, 1u);
  EXPECT_EQ(VALU.LatencyCycles, 5u);
  EXPECT_EQ(M.classify("s_mov_b32").IssueCycles, 1u);
  EXPECT_GT(M.classify("global_load_dword").LatencyCycles,
            M.classify("ds_read_b32").LatencyCycles);
  EXPECT_GT(M.classify("ds_read_b32").LatencyCycles, VALU.LatencyCycles);
  // The per-processor override: 32x32 MFMA takes 16 passes on gfx908/gfx90a
  // and 8 on gfx940+.
  EXPECT_GT(model("gfx90a").classify("v_mfma_f32_32x32x8f16").LatencyCycles,
            M.classify("v_mfma_f32_32x32x8f16").LatencyCycles);
  for (const char *P : AllProcessors)
    for (const InstClass &C : model(P).instClasses()) {
      EXPECT_GE(C.IssueCycles, 1u) << P << " " << C.Name.str();
      EXPECT_GE(C.LatencyCycles, C.IssueCycles) << P << " " << C.Name.str();
    }
}

TEST(HardwareModelTest, MnemonicsOfARoleAreThoseRoleOfGivesIt) {
  // What a caller compares mnemonics with instead of asking roleOf (the
  // clause search of InstructionEffects): exactly the .td file's names.
  EXPECT_EQ(HardwareModel::mnemonicsOf(InstRole::Clause),
            (llvm::SmallVector<llvm::StringRef, 4>{"s_clause"}));
  EXPECT_EQ(HardwareModel::mnemonicsOf(InstRole::DepCtrWait),
            (llvm::SmallVector<llvm::StringRef, 4>{"s_wait_alu", "s_waitcnt_depctr"}));
  for (InstRole Role : {InstRole::Barrier, InstRole::Move32, InstRole::CacheInvalidate}) {
    llvm::SmallVector<llvm::StringRef, 4> Names = HardwareModel::mnemonicsOf(Role);
    EXPECT_FALSE(Names.empty());
    for (llvm::StringRef Name : Names) {
      EXPECT_EQ(HardwareModel::roleOf(Name), Role) << Name.str();
      EXPECT_EQ(Name, Name.lower()) << Name.str();
    }
  }
}

} // namespace
