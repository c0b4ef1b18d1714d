//===- AbsoluteExpressionTest.cpp - Expressions evaluated as MC does ------===//
//
// Every value here is the one llvm-mc gives `.set v, TEXT` (llvm-nm of its
// object), for gfx942.
//
//===----------------------------------------------------------------------===//
#include "stinkytofu/mc/AbsoluteExpression.h"
#include "stinkytofu/hw/TargetInfo.h"
#include "stinkytofu/mc/OperandParser.h"
#include "gtest/gtest.h"

using namespace stinkytofu;

namespace {

const TargetInfo &target() {
  static const std::shared_ptr<const TargetInfo> TI = llvm::cantFail(TargetInfo::get("gfx942"));
  return *TI;
}

std::optional<int64_t> symbols(llvm::StringRef Name) {
  if (Name == "vgprValuC")
    return 8;
  if (Name == "m")
    return INT64_MIN;
  return std::nullopt;
}

std::optional<int64_t> value(llvm::StringRef Text) {
  return evaluateAbsolute(Text, target().asmInfo(), symbols).Value;
}

TEST(AbsoluteExpression, GnuPrecedencesAndMCArithmetic) {
  EXPECT_EQ(value("1+2<<1"), 5);   // << binds as * does
  EXPECT_EQ(value("6|1+4"), 11);   // | binds tighter than +
  EXPECT_EQ(value("1 ! 2"), -3);   // or-not
  EXPECT_EQ(value("1 < 2 < 3"), -1); // a true comparison is -1
  EXPECT_EQ(value("3 && 0x0"), 0);
  EXPECT_EQ(value("3 - 1 - 1"), 1);
  EXPECT_EQ(value("-8 >> 1"), 0x7ffffffffffffffc); // logical
  EXPECT_EQ(value("1 << 64"), 1);                   // the count modulo 64
  EXPECT_EQ(value("7 % -3"), 1);
  EXPECT_EQ(value("-7 / 2"), -3);
  EXPECT_EQ(value("+-+5"), -5);
  EXPECT_EQ(value("!5"), 0);
  EXPECT_EQ(value("vgprValuC + 2*2"), 12);
}

TEST(AbsoluteExpression, LiteralsAsMCLexesThem) {
  EXPECT_EQ(value("0b101"), 5);
  EXPECT_EQ(value("017"), 15);
  EXPECT_EQ(value("0X1f"), 31);
  EXPECT_EQ(value("5ULL"), 5);
  EXPECT_EQ(value("'a'"), 97);
  EXPECT_EQ(value("1e3"), 0x408f400000000000);
  EXPECT_EQ(value("18446744073709551615"), -1);
  EXPECT_EQ(value("1 /* c */ + 1"), 2);
}

TEST(AbsoluteExpression, NoValueWhereMCGivesNoneOrAnotherMayDiffer) {
  EXPECT_EQ(value("18446744073709551616"), std::nullopt); // out of range
  EXPECT_EQ(value("5lu"), std::nullopt);
  EXPECT_EQ(value("(1"), std::nullopt);
  EXPECT_EQ(value("1 +"), std::nullopt);
  EXPECT_EQ(value("1 / 0"), std::nullopt);
  EXPECT_EQ(value("x@y"), std::nullopt);
  EXPECT_EQ(value("."), std::nullopt);
  EXPECT_EQ(value("unknown + 1"), std::nullopt);
  EXPECT_EQ(value("1\r+ 1"), std::nullopt); // a carriage return ends MC's statement
}

TEST(AbsoluteExpression, SumsOfNamesAndDecimals) {
  // Read without the lexer when the whole text is such a sum.
  EXPECT_EQ(value("vgprValuC+4"), 12);
  EXPECT_EQ(value(" vgprValuC\t-\t2 + 1 "), 7);
  EXPECT_EQ(value("m - 1"), INT64_MAX); // wraps as MC's arithmetic
  EXPECT_EQ(value("123456789012345678 + 1"), 123456789012345679);
  EXPECT_EQ(value("unknown + vgprValuC"), std::nullopt);
  // Anything else is the lexer's: another operator, a literal it reads its
  // own way, a name with characters a sum's names lack.
  EXPECT_EQ(value("vgprValuC * 2"), 16);
  EXPECT_EQ(value("vgprValuC 2"), std::nullopt);
  EXPECT_EQ(value("010 + 1"), 9);
  EXPECT_EQ(value("1234567890123456789 + 1"), 1234567890123456790);
  EXPECT_EQ(value("vgprValuC.x + 1"), std::nullopt);
  EXPECT_EQ(value("1b + 1"), std::nullopt);
}

TEST(AbsoluteExpression, DivisionMCDiesOn) {
  ExpressionValue V = evaluateAbsolute("m / -1", target().asmInfo(), symbols);
  EXPECT_TRUE(V.DividesOverflow);
  EXPECT_EQ(V.Value, std::nullopt);
  EXPECT_FALSE(evaluateAbsolute("m / 1", target().asmInfo(), symbols).DividesOverflow);
  EXPECT_TRUE(dividesOverflowAnywhere("v_mov_b32 v[2 + m % -1], 0", target().asmInfo(), symbols));
  EXPECT_TRUE(dividesOverflowAnywhere("s_mov_b32 s0, x + (m / -1)", target().asmInfo(), symbols));
  EXPECT_FALSE(dividesOverflowAnywhere("s_mov_b32 s0, m / 2", target().asmInfo(), symbols));
}

TEST(AbsoluteExpression, RegisterIndicesOfOperands) {
  // The operand parser's indices are MC's (it had C's precedences: 6, 7).
  Operand A = classifyOperand("v[1+2<<1]", target(), symbols);
  ASSERT_TRUE(A.firstReg());
  EXPECT_EQ(*A.firstReg(), 5u);
  Operand B = classifyOperand("v[6|1+4]", target(), symbols);
  ASSERT_TRUE(B.firstReg());
  EXPECT_EQ(*B.firstReg(), 11u);
  Operand C = classifyOperand("v[vgprValuC:vgprValuC+3]", target(), symbols);
  ASSERT_TRUE(C.firstReg());
  EXPECT_EQ(*C.firstReg(), 8u);
  EXPECT_EQ(C.regCount(), 4u);
}

} // namespace
