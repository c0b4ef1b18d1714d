//===- InstructionEditTest.cpp - Operands, MC and facts agree after edits ---===//
#include "TestModules.h"
#include "stinkytofu/analysis/Verifier.h"
#include "stinkytofu/mc/InstBuilder.h"
#include "stinkytofu/mc/InstructionFormatter.h"
#include "gtest/gtest.h"

using namespace stinkytofu;
using llvm::Expected;
using llvm::MCInst;
using llvm::SmallVector;
using Op = BuildOperand;

namespace {

Instruction &nthInstruction(Module &M, unsigned N) {
  unsigned I = 0;
  for (Function &F : M.functions())
    for (BasicBlock &BB : F.blocks())
      for (Instruction &Inst : BB.instructions())
        if (I++ == N)
          return Inst;
  ADD_FAILURE() << "no instruction " << N;
  return M.functions().front().blocks().front().instructions().front();
}

bool defines(const Instruction &I, const TargetInfo &TI, llvm::StringRef Reg) {
  return llvm::is_contained(I.facts().Defs, TI.findRegister(Reg));
}

TEST(InstructionEditTest, RewritingADefinitionUpdatesTheFacts) {
  std::unique_ptr<Module> M =
      test::readAsmText("  .text\nk:\n  s_mov_b32 s0, s1 // keep\n  s_endpgm\n", "gfx942");
  ASSERT_TRUE(M);
  InstBuilder B(*M);
  Instruction &Mov = nthInstruction(*M, 0);
  ASSERT_TRUE(defines(Mov, M->target(), "SGPR0"));
  ASSERT_FALSE(bool(B.rewrite(Mov, {Op::sgpr(7), Op::sgpr(1)})));
  EXPECT_TRUE(defines(Mov, M->target(), "SGPR7"));
  EXPECT_FALSE(defines(Mov, M->target(), "SGPR0"));
  EXPECT_EQ(Mov.operand(0).firstReg(), 7u);
  EXPECT_EQ(formatInstruction(Mov, AsmStyle::of(Mov)), "  s_mov_b32 s7, s1 // keep");
  EXPECT_FALSE(bool(verifyModule(*M)));
}

TEST(InstructionEditTest, SpelledOperandsAreAssembledInTheModulesContext) {
  std::unique_ptr<Module> M = test::readAsmText(
      "  .text\n  .set sgprT, 9\nk:\n  s_mov_b32 s0, s1\n  s_endpgm\n", "gfx942");
  ASSERT_TRUE(M);
  InstBuilder B(*M);
  Instruction &Mov = nthInstruction(*M, 0);
  std::vector<Operand> Ops = Mov.operands();
  Ops[0] = Operand(OperandKind::Register, "s[sgprT]");
  ASSERT_FALSE(bool(B.setOperands(Mov, Ops)));
  EXPECT_TRUE(defines(Mov, M->target(), "SGPR9"));
  EXPECT_EQ(Mov.operand(0).spelling(), "s[sgprT]");
  // A statement MC refuses leaves the instruction as it was.
  Ops[0] = Operand(OperandKind::Immediate, "12");
  llvm::Error E = B.setOperands(Mov, Ops);
  ASSERT_TRUE(bool(E));
  llvm::consumeError(std::move(E));
  EXPECT_EQ(Mov.operand(0).spelling(), "s[sgprT]");
  EXPECT_TRUE(defines(Mov, M->target(), "SGPR9"));
}

TEST(InstructionEditTest, RawOperandReplacementIsStaleAndTheVerifierSaysSo) {
  std::unique_ptr<Module> M =
      test::readAsmText("  .text\nk:\n  s_mov_b32 s0, s1\n  s_endpgm\n", "gfx942");
  ASSERT_TRUE(M);
  Instruction &Mov = nthInstruction(*M, 0);
  std::vector<Operand> Ops = Mov.operands();
  Ops[0] = Operand(OperandKind::Register, "s7");
  Mov.setOperands(Ops);
  EXPECT_TRUE(Mov.hasStaleMC());
  EXPECT_TRUE(Mov.mcInsts().empty()); // no fact that still says s0
  EXPECT_FALSE(defines(Mov, M->target(), "SGPR0"));
  std::string Error = llvm::toString(verifyModule(*M));
  EXPECT_NE(Error.find("t.s:3:3: error: operands of 's_mov_b32' were replaced without new MC"),
            std::string::npos)
      << Error;
}

TEST(InstructionEditTest, ASymbolSetAgainLaterKeepsItsValueAtEachLine) {
  std::unique_ptr<Module> M = test::readAsmText("  .text\n  .set vgprX, 5\nk:\n"
                                                "  v_mov_b32 v[vgprX], v1\n"
                                                "  .set vgprX, 9\n"
                                                "  v_mov_b32 v[vgprX], v2\n  s_endpgm\n",
                                                "gfx942");
  ASSERT_TRUE(M);
  const TargetInfo &TI = M->target();
  Instruction &First = nthInstruction(*M, 0), &Second = nthInstruction(*M, 1);
  EXPECT_EQ(First.operand(0).firstReg(), 5u);
  EXPECT_TRUE(defines(First, TI, "VGPR5"));
  EXPECT_EQ(Second.operand(0).firstReg(), 9u);
  EXPECT_TRUE(defines(Second, TI, "VGPR9"));
}

TEST(InstructionEditTest, WaitcntFieldsAreOneOperandAndEditable) {
  std::unique_ptr<Module> M = test::readAsmText(
      "  .text\nk:\n  s_waitcnt vmcnt(0) lgkmcnt(0)\n  s_endpgm\n", "gfx90a");
  ASSERT_TRUE(M);
  InstBuilder B(*M);
  Instruction &Wait = nthInstruction(*M, 0);
  ASSERT_EQ(Wait.numOperands(), 1u);
  EXPECT_EQ(Wait.operand(0).kind(), OperandKind::Function);
  EXPECT_EQ(Wait.operand(0).spelling(), "vmcnt(0) lgkmcnt(0)");
  ASSERT_FALSE(bool(B.rewrite(Wait, {Op::waitcnt({3, std::nullopt, 0})})));
  EXPECT_EQ(formatInstruction(Wait, AsmStyle::of(Wait)), "  s_waitcnt vmcnt(3) lgkmcnt(0)");
  Expected<SmallVector<MCInst, 1>> Expect =
      M->assembler().assembleStatement("s_waitcnt vmcnt(3) lgkmcnt(0)");
  ASSERT_TRUE(bool(Expect));
  ASSERT_EQ(Wait.mcInsts().size(), 1u);
  EXPECT_EQ(Wait.mcInsts()[0].getOperand(0).getImm(), (*Expect)[0].getOperand(0).getImm());
}

} // namespace
