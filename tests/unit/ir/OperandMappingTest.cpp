//===- OperandMappingTest.cpp - Written operands and their MC operands -----===//
#include "TestModules.h"
#include "stinkytofu/analysis/Verifier.h"
#include "stinkytofu/ir/OperandMapping.h"
#include "stinkytofu/mc/InstBuilder.h"
#include "llvm/MC/MCInst.h"
#include "gtest/gtest.h"

using namespace stinkytofu;
using llvm::MCOperand;
using llvm::StringRef;

namespace {

/// The only instruction of a kernel made of \p Statement (after \p Prelude).
struct OneInstruction {
  std::unique_ptr<Module> M;
  Instruction *I = nullptr;
};

OneInstruction readOneInstruction(StringRef Statement, StringRef Arch, StringRef Prelude = "") {
  OneInstruction R;
  R.M = test::readAsmText(("  .text\n" + Prelude + "k:\n  " + Statement + "\n").str(), Arch);
  if (R.M)
    R.I = &R.M->functions().front().blocks().front().instructions().front();
  return R;
}

/// The MC operand operand \p K maps to; fails the test when it maps to none.
const MCOperand *mcOf(const OneInstruction &R, unsigned K) {
  auto Map = mapOperandsToMC(*R.I, R.M->target());
  if (K >= Map.size() || !Map[K]) {
    ADD_FAILURE() << "operand " << K << " maps to no MC operand";
    return nullptr;
  }
  return &R.I->mcInsts().front().getOperand(*Map[K]);
}

std::optional<RegisterRange> rangeOf(const OneInstruction &R, unsigned K) {
  const MCOperand *MO = mcOf(R, K);
  if (!MO || !MO->isReg())
    return std::nullopt;
  return registerRangeOf(MO->getReg(), R.M->target());
}

TEST(OperandMappingTest, SourceModifiersAreTypedAndTheRegisterIsMapped) {
  OneInstruction R = readOneInstruction("v_add_f32_e64 v0, -|v1|, neg(v2)", "gfx942");
  ASSERT_TRUE(R.M);
  const Operand &Src0 = R.I->operand(1), &Src1 = R.I->operand(2);
  EXPECT_TRUE(Src0.isNegated());
  EXPECT_TRUE(Src0.hasAbs());
  EXPECT_FALSE(Src0.hasSext());
  EXPECT_EQ(Src0.firstReg(), 1u);
  EXPECT_EQ(Src0.spelling(), "-|v1|"); // printed as written
  EXPECT_EQ(Src1.sourceModifiers(), unsigned(SrcModNeg));
  EXPECT_EQ(rangeOf(R, 1), (RegisterRange{RegFile::VGPR, 1, 1}));
  EXPECT_EQ(rangeOf(R, 2), (RegisterRange{RegFile::VGPR, 2, 1}));
  OneInstruction Sdwa = readOneInstruction("v_add_u32_sdwa v0, sext(v1), v2 dst_sel:DWORD "
                                           "dst_unused:UNUSED_PAD src0_sel:BYTE_0 src1_sel:DWORD",
                                           "gfx900");
  ASSERT_TRUE(Sdwa.M);
  EXPECT_EQ(Sdwa.I->operand(1).sourceModifiers(), unsigned(SrcModSext));
  EXPECT_EQ(rangeOf(Sdwa, 1), (RegisterRange{RegFile::VGPR, 1, 1}));
}

TEST(OperandMappingTest, AnInlineConstantIsTheSourceNotItsModifierField) {
  // MC: vdst, src0_modifiers (0), src0 (0), src1_modifiers, src1, clamp, omod.
  OneInstruction R = readOneInstruction("v_add_f32_e64 v0, 0, v1", "gfx90a");
  ASSERT_TRUE(R.M);
  auto Map = mapOperandsToMC(*R.I, R.M->target());
  ASSERT_EQ(Map.size(), 3u);
  EXPECT_EQ(Map[0], 0u);
  EXPECT_EQ(Map[1], 2u);
  EXPECT_EQ(Map[2], 4u);
}

TEST(OperandMappingTest, ALiteralConstantInATargetFieldIsFound) {
  // v_madmk_f32's K sits between the two sources, in a field of its own.
  OneInstruction R = readOneInstruction("v_madmk_f32 v0, v1, 0x41200000, v2", "gfx900");
  ASSERT_TRUE(R.M);
  const MCOperand *K = mcOf(R, 2);
  ASSERT_TRUE(K && K->isImm());
  EXPECT_EQ(K->getImm(), 0x41200000);
  EXPECT_EQ(rangeOf(R, 3), (RegisterRange{RegFile::VGPR, 2, 1}));
}

TEST(OperandMappingTest, ImplicitAndAbsentOperandsMapToNothing) {
  OneInstruction Cnd = readOneInstruction("v_cndmask_b32 v0, v1, v2, vcc", "gfx942");
  ASSERT_TRUE(Cnd.M);
  auto Map = mapOperandsToMC(*Cnd.I, Cnd.M->target());
  EXPECT_FALSE(Map[3]) << "VOP2 reads vcc implicitly";
  OneInstruction Load = readOneInstruction("global_load_dword v1, v[2:3], off offset:16", "gfx942");
  ASSERT_TRUE(Load.M);
  Map = mapOperandsToMC(*Load.I, Load.M->target());
  ASSERT_EQ(Map.size(), 4u);
  EXPECT_EQ(rangeOf(Load, 1), (RegisterRange{RegFile::VGPR, 2, 2}));
  EXPECT_FALSE(Map[2]); // off
  EXPECT_FALSE(Map[3]); // offset:16 is a modifier
}

TEST(OperandMappingTest, OperandsMCOrdersDifferentlyAreFoundByValue) {
  // MC: vdst, saddr, vaddr, offset, cpol; the text writes vaddr first.
  for (StringRef Arch : {"gfx942", "gfx1250"}) {
    SCOPED_TRACE(Arch.str());
    OneInstruction R =
        readOneInstruction(Arch == "gfx942" ? "global_load_dword v2, v1, s[4:5] offset:16"
                                            : "global_load_b32 v2, v1, s[4:5] offset:16",
                           Arch);
    ASSERT_TRUE(R.M);
    EXPECT_EQ(rangeOf(R, 0), (RegisterRange{RegFile::VGPR, 2, 1}));
    EXPECT_EQ(rangeOf(R, 1), (RegisterRange{RegFile::VGPR, 1, 1}));
    EXPECT_EQ(rangeOf(R, 2), (RegisterRange{RegFile::SGPR, 4, 2}));
    EXPECT_FALSE(bool(verifyModule(*R.M)));
  }
}

TEST(OperandMappingTest, SpecialRegistersSymbolsAndWaitFieldsMapInOrder) {
  OneInstruction Mov = readOneInstruction("s_mov_b64 s[4:5], exec", "gfx90a");
  ASSERT_TRUE(Mov.M);
  const MCOperand *Exec = mcOf(Mov, 1);
  ASSERT_TRUE(Exec && Exec->isReg());
  EXPECT_EQ(Mov.M->target().canonical(Exec->getReg()),
            Mov.M->target().canonical(Mov.M->target().findRegister("EXEC")));
  OneInstruction Wait = readOneInstruction("s_waitcnt vmcnt(1) lgkmcnt(0)", "gfx90a");
  ASSERT_TRUE(Wait.M);
  const MCOperand *Fields = mcOf(Wait, 0);
  ASSERT_TRUE(Fields && Fields->isImm());
  OneInstruction Branch = readOneInstruction("s_cbranch_scc1 L\nL:", "gfx1100");
  ASSERT_TRUE(Branch.M);
  const MCOperand *Target = mcOf(Branch, 0);
  ASSERT_TRUE(Target && Target->isExpr());
  OneInstruction Delay = readOneInstruction(
      "s_delay_alu instid0(VALU_DEP_1) | instskip(NEXT) | instid1(SALU_CYCLE_1)", "gfx1100");
  ASSERT_TRUE(Delay.M);
  ASSERT_EQ(Delay.I->numOperands(), 1u) << "one operand, as MC has one immediate";
  const MCOperand *Delays = mcOf(Delay, 0);
  ASSERT_TRUE(Delays && Delays->isImm());
  EXPECT_EQ(Delays->getImm(), 0x491);
}

TEST(OperandMappingTest, True16HalvesMapToTheirRegister) {
  OneInstruction R = readOneInstruction("v_add_f16 v1.l, v2.h, v3.l", "gfx1100");
  ASSERT_TRUE(R.M);
  EXPECT_EQ(R.I->operand(1).half(), RegHalf::High);
  EXPECT_EQ(R.I->operand(0).half(), RegHalf::Low);
  EXPECT_EQ(rangeOf(R, 0), (RegisterRange{RegFile::VGPR, 1, 1}));
  EXPECT_EQ(rangeOf(R, 1), (RegisterRange{RegFile::VGPR, 2, 1}));
  EXPECT_EQ(rangeOf(R, 2), (RegisterRange{RegFile::VGPR, 3, 1}));
}

TEST(OperandMappingTest, SymbolicRegistersMapAtTheirValueOnThatLine) {
  OneInstruction R =
      readOneInstruction("v_mov_b32 v[vgprX], v1\n  .set vgprX, 9", "gfx942", "  .set vgprX, 5\n");
  ASSERT_TRUE(R.M);
  EXPECT_EQ(rangeOf(R, 0), (RegisterRange{RegFile::VGPR, 5, 1}));
  EXPECT_FALSE(bool(verifyModule(*R.M)));
}

TEST(OperandMappingTest, TheVerifierRejectsTextThatIsNotWhatMCHas) {
  OneInstruction R = readOneInstruction("s_mov_b32 s0, s1", "gfx942");
  ASSERT_TRUE(R.M);
  // MC instructions of another statement: the text still says s0, s1.
  auto Other = R.M->assembler().assembleStatement("s_mov_b32 s2, s1");
  ASSERT_TRUE(bool(Other));
  R.I->setMC(std::move(*Other), R.M->target());
  std::string Error = llvm::toString(verifyModule(*R.M));
  EXPECT_NE(Error.find("operand 0 's0' of 's_mov_b32' is not a register of its MC instruction"),
            std::string::npos)
      << Error;
}

TEST(OperandMappingTest, TheVerifierChecksEveryRepeatOfAStatement) {
  // Three copies of one text: the first agrees with MC, the second and third
  // are given the MC instructions of another statement. The first one's
  // pass must not answer for the others, nor the second's failure for the
  // third.
  OneInstruction R =
      readOneInstruction("s_mov_b32 s0, s1\n  s_mov_b32 s0, s1\n  s_mov_b32 s0, s1", "gfx942");
  ASSERT_TRUE(R.M);
  auto &Block = R.M->functions().front().blocks().front();
  ASSERT_EQ(Block.instructions().size(), 3u);
  EXPECT_FALSE(bool(verifyModule(*R.M)));
  for (Instruction &Copy : llvm::drop_begin(Block.instructions())) {
    auto Other = R.M->assembler().assembleStatement("s_mov_b32 s2, s1");
    ASSERT_TRUE(bool(Other));
    Copy.setMC(std::move(*Other), R.M->target());
  }
  std::string Error = llvm::toString(verifyModule(*R.M));
  EXPECT_EQ(StringRef(Error).count("operand 0 's0' of 's_mov_b32' is not a register of its MC "
                                   "instruction"),
            2u)
      << Error;
  EXPECT_NE(Error.find(":4:3: error"), std::string::npos) << Error;
  EXPECT_NE(Error.find(":5:3: error"), std::string::npos) << Error;
  EXPECT_EQ(Error.find(":3:3: error"), std::string::npos) << "the first copy agrees: " << Error;
}

/// The instructions of the first block of \p M.
std::vector<Instruction *> instructionsOf(Module &M) {
  std::vector<Instruction *> Out;
  for (Instruction &I : M.functions().front().blocks().front().instructions())
    Out.push_back(&I);
  return Out;
}

/// Gives \p I the MC instructions of \p Text, its own text unchanged.
void giveMCOf(Module &M, Instruction &I, StringRef Text) {
  auto Other = M.assembler().assembleStatement(Text);
  ASSERT_TRUE(bool(Other));
  I.setMC(std::move(*Other), M.target());
}

TEST(OperandMappingTest, TheVerifierChecksARepeatWhoseSymbolHasAnotherValue) {
  // Two copies of one text, vX reassigned between them: the second names
  // v3, not v2. Given the first's MC instructions, it no longer agrees,
  // which only the symbol's value at its line tells.
  OneInstruction R = readOneInstruction(
      "v_mov_b32 v[vX+1], v7\n  .set vX, 2\n  v_mov_b32 v[vX+1], v7", "gfx942", "  .set vX, 1\n");
  ASSERT_TRUE(R.M);
  std::vector<Instruction *> Copies = instructionsOf(*R.M);
  ASSERT_EQ(Copies.size(), 2u);
  EXPECT_FALSE(bool(verifyModule(*R.M)));
  giveMCOf(*R.M, *Copies[1], "v_mov_b32 v2, v7");
  std::string Error = llvm::toString(verifyModule(*R.M));
  EXPECT_NE(Error.find(":6:3: error: operand 0 'v[vX+1]' of 'v_mov_b32' is not a register of "
                       "its MC instruction"),
            std::string::npos)
      << Error;
  EXPECT_EQ(Error.find(":4:3: error"), std::string::npos) << "the first copy agrees: " << Error;
}

TEST(OperandMappingTest, TheVerifierChecksARepeatOfASymbolicTextWithOtherMC) {
  // vY has one value: the copies share their check only with the same MC.
  OneInstruction R =
      readOneInstruction("v_mov_b32 v[vY], v7\n  v_mov_b32 v[vY], v7\n  v_mov_b32 v[vY], v7",
                         "gfx942", "  .set vY, 3\n  .set vX, 1\n  .set vX, 2\n");
  ASSERT_TRUE(R.M);
  std::vector<Instruction *> Copies = instructionsOf(*R.M);
  ASSERT_EQ(Copies.size(), 3u);
  giveMCOf(*R.M, *Copies[2], "v_mov_b32 v4, v7");
  std::string Error = llvm::toString(verifyModule(*R.M));
  EXPECT_EQ(StringRef(Error).count("is not a register of its MC instruction"), 1u) << Error;
  EXPECT_NE(Error.find(":8:3: error"), std::string::npos) << Error;
}

TEST(OperandMappingTest, TheVerifierSharesOnlyTheExpressionOfARepeat) {
  // Call-site statements differ only in their label expression, which the
  // check shares; what comes before it does not. The third copy writes s41
  // but has the MC instructions of an s40 statement; the fourth has the
  // text of the first but an s41 MC instruction.
  OneInstruction R = readOneInstruction("s_add_u32 s40, s40, (la-.Lp1)&4294967295\n"
                                        "  s_add_u32 s40, s40, (lb-.Lp2)&4294967295\n"
                                        "  s_add_u32 s41, s40, (lc-.Lp3)&4294967295\n"
                                        "  s_add_u32 s40, s40, (ld-.Lp4)&4294967295",
                                        "gfx90a", "  .set la, 0\n");
  ASSERT_TRUE(R.M);
  std::vector<Instruction *> Copies = instructionsOf(*R.M);
  ASSERT_EQ(Copies.size(), 4u);
  EXPECT_FALSE(bool(verifyModule(*R.M)));
  giveMCOf(*R.M, *Copies[2], "s_add_u32 s40, s40, (la-.Lp1)&4294967295");
  giveMCOf(*R.M, *Copies[3], "s_add_u32 s41, s40, (la-.Lp1)&4294967295");
  std::string Error = llvm::toString(verifyModule(*R.M));
  EXPECT_NE(Error.find(":6:3: error: operand 0 's41' of 's_add_u32'"), std::string::npos)
      << Error;
  EXPECT_NE(Error.find(":7:3: error: operand 1 's40' of 's_add_u32'"), std::string::npos)
      << Error;
  EXPECT_EQ(StringRef(Error).count("is not a register of its MC instruction"), 2u) << Error;
}

TEST(OperandMappingTest, TheVerifierChecksATextAnotherModuleParsed) {
  // The same text in two files with vX 5 in one and 1 in the other. The
  // copy cloned from the first takes its operands from the first file
  // (v5); given the MC instructions of the second's own copy (v1), it does
  // not agree, whatever the second file's symbols say.
  OneInstruction From = readOneInstruction("v_mov_b32 v[vX], v7", "gfx942", "  .set vX, 5\n");
  OneInstruction Into = readOneInstruction("v_mov_b32 v[vX], v7", "gfx942", "  .set vX, 1\n");
  ASSERT_TRUE(From.M && Into.M);
  BasicBlock &Block = Into.M->functions().front().blocks().front();
  Instruction &Foreign = Block.append(From.I->clone());
  giveMCOf(*Into.M, Foreign, "v_mov_b32 v1, v7");
  std::string Error = llvm::toString(verifyModule(*Into.M));
  EXPECT_NE(Error.find("operand 0 'v[vX]' of 'v_mov_b32' is not a register of its MC instruction"),
            std::string::npos)
      << Error;
}

} // namespace
