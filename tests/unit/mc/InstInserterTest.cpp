//===- InstInserterTest.cpp - Building instructions at a place -------------===//
#include "TestModules.h"
#include "stinkytofu/ir/Function.h"
#include "stinkytofu/mc/InstInserter.h"
#include "llvm/ADT/StringExtras.h"
#include "gtest/gtest.h"

using namespace stinkytofu;
using llvm::Expected;
using llvm::StringRef;
using Op = BuildOperand;

namespace {

/// A kernel whose second instruction carries a comment and a directive in
/// front of it, and whose last one a comment.
constexpr StringRef CommentedKernel = "  .text\n"
                                      "k:\n"
                                      "  s_mov_b32 s0, s1\n"
                                      "  .set X, 1\n"
                                      "; the loop starts here\n"
                                      "  s_mov_b32 s2, s3\n"
                                      "; the end\n"
                                      "  s_endpgm\n";

struct InserterTest : ::testing::Test {
  std::unique_ptr<Module> M = test::readAsmText(CommentedKernel, "gfx90a");
  BasicBlock &BB = M->functions().begin()->blocks().front();
  Instruction &First = *BB.instructions().begin();
  Instruction &Second = *std::next(BB.instructions().begin());
  Instruction &Last = *std::prev(BB.instructions().end());
  InstBuilder B{*M};
  InstInserter At{B};

  Instruction &nop(unsigned Imm) {
    Expected<Instruction &> I = At.build("s_nop", {Op::imm(Imm)});
    EXPECT_TRUE(bool(I)) << llvm::toString(I.takeError());
    return *I;
  }
  /// The printed module from the first of \p Lines on, which must follow
  /// each other in that order, one per line.
  void expectLines(std::initializer_list<StringRef> Lines) {
    std::string Text = test::printAsmText(*M);
    std::string Expected;
    for (StringRef L : Lines)
      Expected += L.str() + "\n";
    std::string Squeezed;
    for (StringRef Line : llvm::split(Text, '\n'))
      if (!Line.trim().empty())
        Squeezed += Line.trim().str() + "\n";
    EXPECT_NE(Squeezed.find(Expected), std::string::npos) << Squeezed;
  }
};

TEST_F(InserterTest, BeforeAnInstructionTheRunTakesItsComments) {
  At.setInsertPointBefore(Second);
  Instruction &A = nop(0);
  Instruction &C = nop(1);
  EXPECT_TRUE(A.leadingText().contains("the loop starts here"));
  EXPECT_TRUE(C.leadingText().empty());
  EXPECT_TRUE(Second.leadingText().empty());
  expectLines({".set X, 1", "; the loop starts here", "s_nop 0", "s_nop 1", "s_mov_b32 s2, s3"});
  // Erasing the instruction the code went in front of keeps the comment
  // where it was written.
  Second.eraseFromParent();
  expectLines({".set X, 1", "; the loop starts here", "s_nop 0", "s_nop 1", "; the end",
               "s_endpgm"});
}

TEST_F(InserterTest, AfterAnInstructionTheNextKeepsItsComments) {
  At.setInsertPointAfter(Second);
  nop(0);
  nop(1);
  EXPECT_TRUE(Last.leadingText().contains("the end"));
  expectLines({"; the loop starts here", "s_mov_b32 s2, s3", "s_nop 0", "s_nop 1", "; the end",
               "s_endpgm"});
  // After an instruction followed by a directive: the code goes in front
  // of the directive.
  At.setInsertPointAfter(First);
  nop(2);
  expectLines({"s_mov_b32 s0, s1", "s_nop 2", ".set X, 1", "; the loop starts here"});
}

TEST_F(InserterTest, AtTheEndNothingMoves) {
  At.setInsertPointAtEnd(BB);
  nop(0);
  EXPECT_TRUE(Last.leadingText().contains("the end"));
  expectLines({"; the end", "s_endpgm", "s_nop 0"});
}

TEST_F(InserterTest, AMovedInstructionGoesBehindTheComments) {
  At.setInsertPointBefore(Second);
  At.move(Last);
  EXPECT_TRUE(Last.leadingText().contains("the loop starts here"));
  EXPECT_TRUE(Last.leadingText().contains("the end"));
  expectLines({".set X, 1", "; the loop starts here", "; the end", "s_endpgm",
               "s_mov_b32 s2, s3"});
}

TEST_F(InserterTest, AWaitCarriesItsDerivedModifier) {
  At.setInsertPointBefore(Second);
  Expected<Instruction &> W = At.build("s_waitcnt", {Op::waitcnt({0, std::nullopt, 1})});
  ASSERT_TRUE(bool(W)) << llvm::toString(W.takeError());
  ASSERT_EQ(W->modifiers().size(), 1u);
  EXPECT_EQ((*W->modifiers().begin())->kind(), ModifierKind::SWaitCnt);
  Instruction &N = nop(0);
  EXPECT_TRUE(N.modifiers().empty());
}

} // namespace
