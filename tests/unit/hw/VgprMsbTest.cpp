//===- VgprMsbTest.cpp - VGPR spellings and the s_set_vgpr_msb slots -----===//
#include "stinkytofu/hw/TargetInfo.h"
#include "stinkytofu/hw/VgprMsb.h"
#include "stinkytofu/hw/VgprSpelling.h"

#include "llvm/MC/MCInst.h"
#include "llvm/MC/MCInstrInfo.h"
#include "gtest/gtest.h"

using namespace stinkytofu;
using llvm::MCInst;
using llvm::MCOperand;

namespace {

std::shared_ptr<const TargetInfo> gfx1250() {
  return llvm::cantFail(TargetInfo::get("gfx1250"));
}

unsigned opcode(const TargetInfo &TI, llvm::StringRef Name) {
  for (unsigned Opc = 0; Opc < TI.instrInfo().getNumOpcodes(); ++Opc)
    if (TI.instrInfo().getName(Opc) == Name)
      return Opc;
  ADD_FAILURE() << Name.str();
  return 0;
}

TEST(VgprSpellingTest, TokensSkipCommentsAndWords) {
  std::vector<std::pair<unsigned, unsigned>> Seen;
  forEachVgprToken("v_add_f32 v300, v[254:257], -|v3| ; v999\n\"v5\" vx1 v7.l /* v8 */",
                   [&](const VgprToken &T) { Seen.push_back({T.First, T.Count}); });
  std::vector<std::pair<unsigned, unsigned>> Want = {{300, 1}, {254, 4}, {3, 1}, {7, 1}};
  EXPECT_EQ(Seen, Want);
}

TEST(VgprSpellingTest, NotesAndSpellings) {
  std::optional<VgprToken> T = findHighVgpr("v_mov_b32 v44 /*v300*/, v[36:39] /*v[292:295]*/");
  EXPECT_FALSE(T); // the registers written are low
  std::string Raised = rewriteVgprTokens(
      "v_mov_b32 v44 /*v300*/, v1", /*WithNote=*/true,
      [](const VgprToken &T) -> std::optional<std::string> {
        if (!T.NoteFirst)
          return std::nullopt;
        return logicalVgprSpelling(*T.NoteFirst, T.Count, T.Bracketed);
      });
  EXPECT_EQ(Raised, "v_mov_b32 v300, v1");
  EXPECT_EQ(encodedVgprSpelling(300, 1, false), "v44 /*v300*/");
  EXPECT_EQ(encodedVgprSpelling(510, 4, true), "v[254:257] /*v[510:513]*/");
  EXPECT_EQ(encodedVgprSpelling(12, 2, true), "v[12:13]");
}

TEST(VgprSpellingTest, PaddedLowKeepsEveryOffset) {
  llvm::StringRef Text = "v_add_f32 v300, v1000, v[510:513] ; v300\n";
  std::optional<std::string> Low = padHighVgprsToLow(Text);
  ASSERT_TRUE(Low);
  EXPECT_EQ(*Low, "v_add_f32 v044, v0232, v[254:257] ; v300\n");
  EXPECT_EQ(Low->size(), Text.size());
  EXPECT_FALSE(padHighVgprsToLow("v_add_f32 v255, v[254:257], v0"));
}

TEST(VgprMsbTest, ImmediatesAndStates) {
  EXPECT_EQ(vgprmsb::immediateFor(VgprMsbMode::Msb8, 0x41, 0x02), 0x41);
  EXPECT_EQ(vgprmsb::immediateFor(VgprMsbMode::Msb16, 0x41, 0x02), 0x241);
  EXPECT_EQ(vgprmsb::immediateFor(VgprMsbMode::Msb16, 0x41, std::nullopt), 0x41);
  EXPECT_EQ(vgprmsb::stateOfImmediate(0x4140), 0x40);
  EXPECT_EQ(vgprmsb::describeState(0x4E), "msbs: dst=1 src0=2 src1=3 src2=0");
  VgprMsbNeed N{0xC3, 0x41}; // src0 and dst at bank 1
  EXPECT_TRUE(N.satisfiedBy(0x45, 0xFF));
  EXPECT_FALSE(N.satisfiedBy(0x45, 0x0F)); // dst not known
  EXPECT_FALSE(N.satisfiedBy(0x40, 0xFF));
}

// The slots come from LLVM's printer: vdst is slot 3, src0 0, src1 1.
TEST(VgprMsbTest, SlotsFromMC) {
  auto TI = gfx1250();
  VgprMsbCodec Codec(*TI);
  ASSERT_NE(Codec.setVgprMsbOpcode(), 0u);
  MCInst Add;
  Add.setOpcode(opcode(*TI, "V_ADD_F32_e32_gfx12"));
  Add.addOperand(MCOperand::createReg(TI->reg32(RegClass::VGPR, 300)));
  Add.addOperand(MCOperand::createReg(TI->reg32(RegClass::VGPR, 1)));
  Add.addOperand(MCOperand::createReg(TI->reg32(RegClass::VGPR, 600)));
  llvm::Expected<llvm::ArrayRef<int8_t>> Slots = Codec.slots(Add);
  ASSERT_TRUE(bool(Slots)) << llvm::toString(Slots.takeError());
  EXPECT_EQ(std::vector<int8_t>(Slots->begin(), Slots->end()),
            (std::vector<int8_t>{vgprmsb::Dst, vgprmsb::Src0, vgprmsb::Src1}));
  llvm::Expected<VgprMsbNeed> N = Codec.need(Add);
  ASSERT_TRUE(bool(N));
  EXPECT_EQ(N->Mask, 0xCF);  // dst, src1, src0
  EXPECT_EQ(N->Value, 0x48); // dst 1, src1 2, src0 0
  EXPECT_TRUE(Codec.hasHighVgpr(Add));

  // Raising the low form under that state gives the logical registers.
  MCInst Low = Add;
  Low.getOperand(0).setReg(TI->reg32(RegClass::VGPR, 44));
  Low.getOperand(2).setReg(TI->reg32(RegClass::VGPR, 88));
  ASSERT_FALSE(bool(Codec.raise(Low, 0x48)));
  EXPECT_EQ(Low.getOperand(0).getReg(), Add.getOperand(0).getReg());
  EXPECT_EQ(Low.getOperand(1).getReg(), Add.getOperand(1).getReg());
  EXPECT_EQ(Low.getOperand(2).getReg(), Add.getOperand(2).getReg());
}

TEST(VgprMsbTest, RebaseKeepsTheRegisterShape) {
  auto TI = gfx1250();
  VgprMsbCodec Codec(*TI);
  llvm::MCRegister Pair = TI->findRegister("VGPR254_VGPR255_VGPR256_VGPR257");
  ASSERT_TRUE(Pair.isValid());
  llvm::MCRegister Moved = Codec.rebase(Pair, 256);
  EXPECT_EQ(TI->asmName(Moved), "v[510:513]");
  EXPECT_EQ(Codec.vgprIndex(Moved), 510u);
  EXPECT_EQ(Codec.vgprCount(Moved), 4u);
  EXPECT_FALSE(Codec.rebase(Pair, 1024).isValid());
}

} // namespace
