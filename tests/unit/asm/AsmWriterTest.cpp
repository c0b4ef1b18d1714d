//===- AsmWriterTest.cpp - Untouched text stays, new text follows the file -===//
#include "TestModules.h"
#include "stinkytofu/mc/InstBuilder.h"
#include "stinkytofu/asm/AsmReader.h"
#include "stinkytofu/asm/AsmWriter.h"
#include "gtest/gtest.h"

using namespace stinkytofu;

namespace {

std::unique_ptr<Module> readWriterInput(llvm::StringRef Text) {
  return test::readAsmText(Text, "gfx90a");
}

std::string print(const Module &M) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  if (llvm::Error E = writeAsm(M, OS))
    ADD_FAILURE() << llvm::toString(std::move(E));
  return Out;
}

const char *TensileStyle = ".text\n"
                           "k:\n"
                           "s_mov_b32 s1, 2                          // set\n"
                           "s_add_u32 s2, s1, 3                      // add\n"
                           "s_endpgm\n";

TEST(AsmWriterTest, UntouchedModuleIsByteIdentical) {
  auto M = readWriterInput(TensileStyle);
  ASSERT_TRUE(M);
  EXPECT_EQ(print(*M), TensileStyle);
}

TEST(AsmWriterTest, InsertedInstructionFollowsNeighbourStyle) {
  auto M = readWriterInput("\t.text\nk:\n\ts_mov_b32 s1, 2\n\ts_endpgm\n");
  ASSERT_TRUE(M);
  BasicBlock &BB = M->functions().front().blocks().front();
  llvm::Expected<Instruction> Nop = createInstruction(*M, "s_nop 0");
  ASSERT_TRUE(static_cast<bool>(Nop)) << llvm::toString(Nop.takeError());
  BB.insert(std::next(BB.instructions().begin()), std::move(*Nop));
  EXPECT_EQ(print(*M), "\t.text\nk:\n\ts_mov_b32 s1, 2\n\ts_nop 0\n\ts_endpgm\n");
}

TEST(AsmWriterTest, ChangedInstructionKeepsCommentColumn) {
  auto M = readWriterInput(TensileStyle);
  ASSERT_TRUE(M);
  Instruction &Add = *std::next(M->functions().front().blocks().front().instructions().begin());
  std::vector<Operand> Ops = Add.operands();
  Ops[2] = Operand(OperandKind::Immediate, "4");
  Add.setOperands(Ops);
  EXPECT_EQ(print(*M), ".text\n"
                       "k:\n"
                       "s_mov_b32 s1, 2                          // set\n"
                       "s_add_u32 s2, s1, 4                      // add\n"
                       "s_endpgm\n");
}

TEST(AsmWriterTest, CreatedInstructionHasMCFacts) {
  auto M = readWriterInput("\t.text\nk:\n\ts_endpgm\n");
  ASSERT_TRUE(M);
  llvm::Expected<Instruction> Add = createInstruction(*M, "s_add_u32 s0, s1, 2");
  ASSERT_TRUE(static_cast<bool>(Add)) << llvm::toString(Add.takeError());
  EXPECT_EQ(Add->mnemonic(), "s_add_u32");
  ASSERT_EQ(Add->numOperands(), 3u);
  EXPECT_TRUE(Add->operand(0).isRegister());
  EXPECT_EQ(*Add->operand(0).firstReg(), 0u);
  const TargetInfo &TI = M->target();
  EXPECT_TRUE(llvm::is_contained(Add->facts().Defs, TI.findRegister("SCC")));
  llvm::Expected<Instruction> Bad = createInstruction(*M, "s_bogus s0");
  EXPECT_FALSE(static_cast<bool>(Bad));
  llvm::consumeError(Bad.takeError());
}

} // namespace
