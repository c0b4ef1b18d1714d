//===- PackedMCInstsTest.cpp - MC instructions stored back to back --------===//
//
// A packed instruction unpacks to the MCInst it was made from, and the
// instructions a module read from a file refers to in packed form are the
// ones MC makes of their statement when assembled again.
//
//===----------------------------------------------------------------------===//
#include "stinkytofu/ir/PackedMCInsts.h"
#include "TestModules.h"
#include "stinkytofu/ir/Module.h"
#include "stinkytofu/mc/AssemblerState.h"
#include "llvm/MC/MCExpr.h"
#include "llvm/MC/MCInstrInfo.h"
#include "gtest/gtest.h"

using namespace stinkytofu;
using llvm::Expected;
using llvm::MCInst;
using llvm::MCOperand;
using llvm::MCRegister;
using llvm::SmallVector;

namespace {

/// Why \p A and \p B differ, or empty when they are the same instruction.
std::string difference(const MCInst &A, const MCInst &B) {
  if (A.getOpcode() != B.getOpcode())
    return "opcode " + std::to_string(A.getOpcode()) + " vs " + std::to_string(B.getOpcode());
  if (A.getFlags() != B.getFlags())
    return "flags";
  if (A.getNumOperands() != B.getNumOperands())
    return "operand count " + std::to_string(A.getNumOperands()) + " vs " +
           std::to_string(B.getNumOperands());
  for (unsigned I = 0; I < A.getNumOperands(); ++I) {
    const MCOperand &X = A.getOperand(I), &Y = B.getOperand(I);
    bool Same = X.isReg()    ? Y.isReg() && X.getReg() == Y.getReg()
                : X.isImm()  ? Y.isImm() && X.getImm() == Y.getImm()
                : X.isExpr() ? Y.isExpr() && X.getExpr() == Y.getExpr()
                : X.isSFPImm() ? Y.isSFPImm() && X.getSFPImm() == Y.getSFPImm()
                : X.isDFPImm() ? Y.isDFPImm() && X.getDFPImm() == Y.getDFPImm()
                               : X.isValid() == Y.isValid();
    if (!Same)
      return "operand " + std::to_string(I);
  }
  return "";
}

TEST(PackedMCInstsTest, UnpacksWhatWasPacked) {
  MCInst NoOperands;
  NoOperands.setOpcode(7);
  MCInst Three;
  Three.setOpcode(1234);
  Three.setFlags(5);
  Three.addOperand(MCOperand::createReg(MCRegister(42)));
  Three.addOperand(MCOperand::createImm(-17));
  Three.addOperand(MCOperand::createDFPImm(0x4000000000000000ULL));
  // More operands than an MCInst keeps inline (six).
  MCInst Nine;
  Nine.setOpcode(99999);
  for (int I = 0; I < 9; ++I)
    Nine.addOperand(I % 2 ? MCOperand::createImm(int64_t(1) << (40 + I))
                          : MCOperand::createReg(MCRegister(100 + I)));

  PackedMCInsts Store;
  PackedMCInsts::Offset A = Store.append(NoOperands);
  PackedMCInsts::Offset B = Store.append(Three);
  PackedMCInsts::Offset C = Store.append(Nine);
  EXPECT_EQ(Store.next(A), B);
  EXPECT_EQ(Store.next(B), C);
  // Each record is a header word and two words per operand.
  EXPECT_EQ(B - A, 1u);
  EXPECT_EQ(C - B, 7u);

  SmallVector<MCInst, 1> All = PackedMCInsts::unpack(Store.record(A), 3);
  ASSERT_EQ(All.size(), 3u);
  EXPECT_EQ(difference(All[0], NoOperands), "");
  EXPECT_EQ(difference(All[1], Three), "");
  EXPECT_EQ(difference(All[2], Nine), "");
  SmallVector<MCInst, 1> Last = PackedMCInsts::unpack(Store.record(C), 1);
  EXPECT_EQ(difference(Last.front(), Nine), "");
  SmallVector<MCInst, 1> Whole = Store.unpackAll();
  ASSERT_EQ(Whole.size(), 3u);
  EXPECT_EQ(difference(Whole[2], Nine), "");
  EXPECT_TRUE(PackedMCInsts().unpackAll().empty());
}

// Statements of every size a kernel has (no operands, many, an expression,
// a macro expanding to two instructions) read from a file refer to packed
// instructions; unpacked, they are what MC makes of the statement again.
TEST(PackedMCInstsTest, FileInstructionsMatchTheirStatements) {
  std::unique_ptr<Module> M = test::readAsmText(R"(.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
.text
.set Base, 8
.macro PAIR dst
  v_mov_b32 v\dst, 0
  v_add_u32 v\dst, v\dst, v1
.endm
k:
  s_nop 0
  buffer_store_dword v1, v2, s[Base:Base+3], 0 offen offset:16 glc slc
  v_mfma_f32_32x32x2f32 a[0:15], v1, v2, a[0:15] cbsz:1 abid:0 blgp:2
  s_add_u32 s0, s0, Base+4
  PAIR 3
  s_endpgm
)");
  ASSERT_TRUE(M);
  unsigned Checked = 0;
  for (Function &F : M->functions())
    for (BasicBlock &BB : F.blocks())
      for (Instruction &I : BB.instructions()) {
        SCOPED_TRACE(I.sourceText().str());
        Expected<SmallVector<MCInst, 1>> Again =
            M->assembler().assembleStatement(I.sourceText());
        ASSERT_TRUE(bool(Again)) << llvm::toString(Again.takeError());
        ASSERT_EQ(I.mcInsts().size(), Again->size());
        for (size_t K = 0; K < Again->size(); ++K) {
          const MCInst &Packed = I.mcInsts()[K], &Fresh = (*Again)[K];
          // Expressions are made anew by each assembly: compare the rest.
          if (Packed.getNumOperands() == Fresh.getNumOperands())
            for (unsigned Op = 0; Op < Fresh.getNumOperands(); ++Op)
              if (Fresh.getOperand(Op).isExpr() && Packed.getOperand(Op).isExpr())
                (*Again)[K].getOperand(Op).setExpr(Packed.getOperand(Op).getExpr());
          EXPECT_EQ(difference(Packed, (*Again)[K]), "");
          // Independent of packing (assembleStatement packs too): MC's
          // description of the opcode says how many operands it has.
          const llvm::MCInstrDesc &Desc = M->target().instrInfo().get(Packed.getOpcode());
          if (!Desc.isVariadic())
            EXPECT_EQ(Packed.getNumOperands(), Desc.getNumOperands());
        }
        if (I.mnemonic().starts_with("v_mfma")) {
          // blgp:2, the seventh and last operand, past the six kept inline.
          const MCInst &MFMA = I.mcInsts().front();
          ASSERT_EQ(MFMA.getNumOperands(), 7u);
          ASSERT_TRUE(MFMA.getOperand(6).isImm());
          EXPECT_EQ(MFMA.getOperand(6).getImm(), 2);
        }
        ++Checked;
      }
  EXPECT_EQ(Checked, 6u);
}

} // namespace
