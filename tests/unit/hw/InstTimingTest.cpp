//===- InstTimingTest.cpp - Timing classes from MC, cycles from LLVM ------===//
//
// The class of every MC opcode comes from its flags; where the mnemonic
// prefixes of HardwareModel.td classify it too, the SQTT cost weight is the
// same (the function-size weights of asm-instrument do not move), and the
// latencies are LLVM's scheduling model's.
//
//===----------------------------------------------------------------------===//
#include "stinkytofu/hw/InstTiming.h"

#include "stinkytofu/hw/TargetInfo.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/MC/MCInstrInfo.h"
#include "gtest/gtest.h"

using namespace stinkytofu;
using llvm::StringRef;

namespace {

/// The MC instruction of \p Opcode with no operands: enough for classes and
/// for the scheduling classes that do not look at operands.
llvm::MCInst bare(unsigned Opcode) {
  llvm::MCInst I;
  I.setOpcode(Opcode);
  return I;
}

unsigned opcodeNamed(const TargetInfo &TI, StringRef Name) {
  const llvm::MCInstrInfo &MII = TI.instrInfo();
  for (unsigned Op = 0; Op < MII.getNumOpcodes(); ++Op)
    if (MII.getName(Op) == Name)
      return Op;
  ADD_FAILURE() << "no opcode " << Name.str() << " on " << TI.processor().str();
  return 0;
}

TEST(InstTimingTest, CostWeightsAgreeWithTheMnemonicPrefixes) {
  // Real (encodable) opcodes only: the names with an encoding suffix.
  static const StringRef Families[] = {"s_",      "v_",      "ds_",    "buffer_",
                                       "tbuffer_", "global_", "flat_", "scratch_",
                                       "image_",  "exp"};
  for (StringRef Arch : TargetInfo::supportedProcessors()) {
    auto TI = TargetInfo::get(Arch);
    ASSERT_TRUE(bool(TI)) << llvm::toString(TI.takeError());
    InstTiming Timing(**TI);
    const llvm::MCInstrInfo &MII = (*TI)->instrInfo();
    unsigned Checked = 0;
    std::string Differ;
    for (unsigned Op = 0; Op < MII.getNumOpcodes(); ++Op) {
      std::string Name = StringRef(MII.getName(Op)).lower();
      if (!llvm::any_of(Families, [&](StringRef F) { return StringRef(Name).starts_with(F); }))
        continue;
      const InstClass &ByFlags = Timing.classOf(Op);
      const InstClass &ByPrefix = (*TI)->hardware().classify(Name);
      ++Checked;
      // Fixes: the scale loads of the matrix units are plain VALU
      // instructions, not matrix products (no IsMAI/IsWMMA in MC).
      if (StringRef(Name).contains("_ld_scale"))
        continue;
      if (ByFlags.CostWeight != ByPrefix.CostWeight && Differ.size() < 2000)
        Differ += " " + Name + "(" + ByFlags.Name.str() + "/" + ByPrefix.Name.str() + ")";
    }
    EXPECT_GT(Checked, 1000u) << Arch.str();
    EXPECT_EQ(Differ, "") << Arch.str();
  }
}

TEST(InstTimingTest, ClassesComeFromTheFlags) {
  auto TI = TargetInfo::get("gfx942");
  ASSERT_TRUE(bool(TI));
  InstTiming T(**TI);
  auto Class = [&](StringRef Name) { return T.classOf(opcodeNamed(**TI, Name)).Name.str(); };
  EXPECT_EQ(Class("V_ADD_F32_e32_vi"), "VALU");
  EXPECT_EQ(Class("V_EXP_F32_e32_vi"), "TRANS");
  EXPECT_EQ(Class("V_MFMA_F32_32X32X8F16_vi"), "MFMA");
  // IsMAI, but a move: no matrix product.
  EXPECT_EQ(Class("V_ACCVGPR_READ_B32_vi"), "VALU");
  EXPECT_EQ(Class("S_LOAD_DWORD_IMM_vi"), "SMEM");
  EXPECT_EQ(Class("S_NOP_vi"), "CONTROL");
  EXPECT_EQ(Class("S_ADD_U32_vi"), "SALU");
  EXPECT_EQ(Class("S_CBRANCH_SCC1_vi"), "BRANCH");
  EXPECT_EQ(Class("DS_READ_B32_vi"), "LDS");
  EXPECT_EQ(Class("GLOBAL_LOAD_DWORD_vi"), "VMEM");
  EXPECT_EQ(Class("SCRATCH_LOAD_DWORD_vi"), "SCRATCH");
}

TEST(InstTimingTest, LatenciesAreLLVMs) {
  // LLVM's scheduling models (llvm-mca-22 prints the same but for the MFMA,
  // whose variant class it resolves to 12).
  struct Case {
    StringRef Arch, Opcode;
    unsigned Latency, MatrixPipe;
  };
  const Case Cases[] = {
      {"gfx900", "V_ADD_F32_e32_vi", 1, 0},
      {"gfx900", "GLOBAL_LOAD_DWORD_vi", 80, 0},
      {"gfx1100", "V_ADD_F32_e32_gfx11", 5, 0},
      {"gfx1100", "V_EXP_F32_e32_gfx11", 10, 0},
      {"gfx1100", "S_ADD_U32_gfx11", 2, 0},
      {"gfx1100", "GLOBAL_LOAD_DWORD_gfx11", 320, 0},
      {"gfx1250", "V_EXP_F32_e32_gfx12", 7, 0},
      {"gfx942", "V_MFMA_F32_32X32X8F16_gfx940_acd", 8, 8},
  };
  for (const Case &C : Cases) {
    auto TI = TargetInfo::get(C.Arch);
    ASSERT_TRUE(bool(TI));
    InstTiming T(**TI);
    InstTimes Times = T.times(bare(opcodeNamed(**TI, C.Opcode)));
    EXPECT_EQ(Times.Latency, C.Latency) << C.Arch.str() << " " << C.Opcode.str();
    EXPECT_EQ(Times.MatrixPipe, C.MatrixPipe) << C.Arch.str() << " " << C.Opcode.str();
  }
}

} // namespace
