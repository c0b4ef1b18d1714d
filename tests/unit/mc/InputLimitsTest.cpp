//===- InputLimitsTest.cpp - The bounds checked before LLVM MC ------------===//
#include "stinkytofu/mc/InputLimits.h"
#include "stinkytofu/hw/TargetInfo.h"
#include "stinkytofu/mc/MetadataYaml.h"
#include "gtest/gtest.h"

using namespace stinkytofu;

namespace {

/// The offset and message of the first violation, or {npos, ""}.
std::pair<size_t, std::string> violation(llvm::StringRef Text, InputLimits L = {}) {
  static const std::shared_ptr<const TargetInfo> TI = llvm::cantFail(TargetInfo::get("gfx942"));
  std::optional<LimitViolation> V = checkInputLimits(Text, L, TI->asmInfo());
  return V ? std::make_pair(V->Offset, V->Message) : std::make_pair(std::string::npos, std::string());
}

TEST(InputLimits, AcceptsOrdinaryAssembly) {
  EXPECT_EQ(violation("k:\n\ts_mov_b32 s0, (1 + 2) * 3 ; \"quote in a comment\n"
                      "\t/* a \"block\n comment */ s_nop 0\n"
                      "# a \" line comment\n"
                      "\t.ascii \"a\\\"b\"\n"
                      ".rept 4\n\ts_nop 0\n.endr\n")
                .first,
            std::string::npos);
}

TEST(InputLimits, StringsAndCommentsMustClose) {
  EXPECT_EQ(violation("p^\"").first, 2u);
  EXPECT_EQ(violation("s_nop 0\n.ascii \"a\nb\"\n").first, 15u);
  EXPECT_EQ(violation("s_nop 0 /* open\n").first, 8u);
  // An escaped quote does not close the string.
  EXPECT_EQ(violation(".ascii \"a\\\"\n").first, 7u);
}

TEST(InputLimits, BytesOutsideTextOnlyInCommentsAndStrings) {
  EXPECT_EQ(violation("s_nop 0 ; caf\xc3\xa9\n.ascii \"\xff\"\n/* \x01\f */\n").first,
            std::string::npos);
  // Vertical tab and form feed are no blanks to MC (two of them hang it).
  EXPECT_EQ(violation("\ts_nop\v1\n").first, 6u);
  EXPECT_EQ(violation("x\f z\f\n").first, 1u);
  EXPECT_EQ(violation("s_nop 0\nx\xff\xff{\n").second,
            "byte 0xff is not assembly text (outside comments and strings only printable ASCII, "
            "tabs and line ends)");
  EXPECT_EQ(violation("s_nop 0\nx\xff\xff{\n").first, 9u);
  EXPECT_EQ(violation("s_nop 0\n\x01\n").first, 8u);
  EXPECT_EQ(violation(std::string("s_nop 0 ; a\0b\n", 15)).second,
            "NUL byte: the file is not assembly text");
}

TEST(InputLimits, LiteralLength) {
  InputLimits L;
  L.MaxLiteralLength = 4;
  EXPECT_EQ(violation("s_mov_b32 s0, 1234\n", L).first, std::string::npos);
  EXPECT_EQ(violation("s_mov_b32 s0, 12345\n", L).first, 14u);
  // Digits inside identifiers are no literal.
  EXPECT_EQ(violation("v_mov_b32 v123456, 0\n", L).first, std::string::npos);
}

TEST(InputLimits, ExpressionDepth) {
  InputLimits L;
  L.MaxExpressionDepth = 2;
  EXPECT_EQ(violation("s_mov_b32 s0, ((1))\n", L).first, std::string::npos);
  EXPECT_EQ(violation("s_mov_b32 s0, (((1)))\n", L).first, 16u);
  EXPECT_EQ(violation("s_mov_b32 s0, --1\n", L).first, std::string::npos);
  EXPECT_EQ(violation("s_mov_b32 s0, - - -1\n", L).first, 18u);
  // Depth is per statement; a new line starts at zero.
  EXPECT_EQ(violation("s_mov_b32 s0, ((1\ns_mov_b32 s1, ((1))\n", L).first, std::string::npos);
}

TEST(InputLimits, RepeatCountsEvaluateSymbolsAndMultiply) {
  InputLimits L;
  L.MaxExpandedStatements = 100;
  EXPECT_EQ(violation(".rept 50\ns_nop 0\ns_nop 1\n.endr\n", L).first, std::string::npos);
  EXPECT_EQ(violation(".rept 51\ns_nop 0\ns_nop 1\n.endr\n", L).second,
            "repeated blocks expand to more than 100 statements (--max-expanded-statements)");
  // Symbols, GNU precedence (<< binds tighter than +), nesting: n copies of
  // `.rept 4` and 4n of s_nop.
  InputLimits Nested = L;
  Nested.MaxExpandedStatements = 130;
  EXPECT_EQ(
      violation(".set n, 1 + 3 << 3\n.rept n\n.rept 4\ns_nop 0\n.endr\n.endr\n", Nested).first,
      std::string::npos); // n = 25: 125 (n = 32, 160, if + bound tighter)
  EXPECT_EQ(violation(".set n, 27\n.rept n\n.rept 4\ns_nop 0\n.endr\n.endr\n", Nested).first, 11u);
  // An empty body still costs a statement per repetition.
  EXPECT_EQ(violation(".rept 101\n.endr\n", L).first, 0u);
  // .irp counts its values, .irpc its characters.
  EXPECT_EQ(violation(".irp r, 1, 2, 3\n.irpc c, 0123456789\ns_nop \\c\n.endr\n.endr\n", L)
                .first,
            std::string::npos); // 3 * (10 + 1)
  EXPECT_EQ(violation(".irp r 1 2 3 4\n.irpc c, 0123456789abcdefghijklmnopqrstu\ns_nop 0\n.endr\n"
                      ".endr\n",
                      L)
                .first,
            0u);
  // A count the scan cannot evaluate (a macro argument) counts as one.
  EXPECT_EQ(violation(".macro m n\n.rept \\n\ns_nop 0\n.endr\n.endm\n", L).first,
            std::string::npos);
}

TEST(InputLimits, RepeatCountsAreReadAsMCReadsThem) {
  InputLimits L;
  L.MaxExpandedStatements = 100;
  // MC's lexer drops an integer's C suffixes, reads a floating-point count
  // as its double's bits (1e3: 0x408f400000000000) and a character constant
  // as its code: each of these counts was one to the scan (MC expanded
  // 40,000,000 copies, or 4.7e18).
  EXPECT_EQ(violation(".rept 40000000u\ns_nop 0\n.endr\n", L).first, 0u);
  EXPECT_EQ(violation(".rept 1e3\ns_nop 0\n.endr\n", L).first, 0u);
  EXPECT_EQ(violation(".set n, 'a'\n.rept n\ns_nop 0\ns_nop 0\n.endr\n", L).first, 12u);
  EXPECT_EQ(violation(".rept 50UL\ns_nop 0\ns_nop 0\n.endr\n", L).first, std::string::npos);
}

TEST(InputLimits, DivisionsMCDiesOn) {
  // MC divides with the machine's instruction: -2^63 / -1 kills it (SIGFPE),
  // in a `.set` as in an operand.
  const std::string Message = "divides -9223372036854775808 by -1, which LLVM MC's evaluator "
                              "crashes on";
  EXPECT_NE(violation("s_nop 0\n.set x, (-9223372036854775807-1)/-1\n").second.find(Message),
            std::string::npos);
  EXPECT_EQ(violation("s_nop 0\n.set x, (-9223372036854775807-1)/-1\n").first, 8u);
  EXPECT_EQ(violation("s_nop 0\n  s_mov_b32 s0, (-9223372036854775807-1)/-1\n").first, 8u);
  EXPECT_EQ(violation(".set m, 1 << 63\nv_mov_b32 v[m % -1], 0 // c\n").first, 16u);
  EXPECT_EQ(violation(".set m, 1 << 63\ns_mov_b32 s0, m / 1 // m / -1\n").first,
            std::string::npos);
  EXPECT_EQ(violation("s_mov_b32 s0, 4 % -1 ; (1<<63)/-1\n").first, std::string::npos);
}

TEST(InputLimits, MacroInvocationsCountTheirExpansion) {
  InputLimits L;
  L.MaxExpandedStatements = 100;
  // 3 + 3 * 4 statements per invocation of outer (inner: 3 nops + its .rept).
  std::string Defs = ".macro inner\n.rept 3\ns_nop 0\n.endr\n.endm\n"
                         ".macro outer\ns_nop 0\ninner\ninner\ninner\ninner\n.endm\n";
  EXPECT_EQ(violation(Defs + "outer\nouter\nouter\nouter\nouter\n", L).first,
            std::string::npos);
  std::string Six = Defs + "outer\nouter\nouter\nouter\nouter\nouter\n";
  EXPECT_EQ(violation(Six, L).second,
            "macro 'outer' expands to more than 100 statements (--max-expanded-statements)");
  EXPECT_EQ(violation(Six, L).first, Six.rfind("outer"));
  // Repeated invocations multiply; recursion is bounded by MC's 20 levels.
  EXPECT_EQ(violation(Defs + ".rept 6\nouter\n.endr\n", L).first, Defs.size());
  EXPECT_EQ(violation(".macro m\nm\n.endm\nm\n", L).first, std::string::npos);
  EXPECT_EQ(violation(".macro m\nm\nm\n.endm\nm\n", L).first, 19u);
  // .purgem forgets a macro; a redefinition replaces its cost.
  EXPECT_EQ(violation(".macro m\nm\nm\n.endm\n.purgem m\nm\n", L).first, std::string::npos);
}

TEST(InputLimits, RepeatBlocksClose) {
  EXPECT_EQ(violation("s_nop 0\n.rept 2\ns_nop 0\n").second,
            "repeated block has no .endr before the end of the file");
  EXPECT_EQ(violation("s_nop 0\n.rept 2\ns_nop 0\n").first, 8u);
  // A .macro defined by each copy of a repeat body must end in it.
  EXPECT_EQ(violation(".irpc c, 01\n.macro M\n.endr\n").second,
            "a .macro in this block has no .endm before its .endr");
  EXPECT_EQ(violation(".irpc c, 01\n.macro M\\c\n.endm\n.endr\n").first, std::string::npos);
  // In a macro body .endr is text.
  EXPECT_EQ(violation(".macro m\n.endr\n.endm\n").first, std::string::npos);
}

TEST(InputLimits, BodiesCloseWhatTheyOpen) {
  // MC ends a macro body at .endm: a repeated block open in it swallows the
  // rest of each expansion.
  EXPECT_EQ(violation(".macro M\n.irp r, 1, 2\ns_nop 0\n.endm\n").second,
            "a repeated block in this .macro has no .endr before its .endm");
  EXPECT_EQ(violation(".macro M\n.rept 2\ns_nop 0\n.endr\n.endm\n").first, std::string::npos);
  // Conditionals open in a body must close in it.
  EXPECT_EQ(violation(".macro M\n.if 1\n.else\n.endm\n").second,
            "a .if in this block has no .endif before its .endm");
  EXPECT_EQ(violation(".rept 2\n.ifdef x\n.endr\n").second,
            "a .if in this block has no .endif before its .endr");
  EXPECT_EQ(violation(".if 1\n.macro M\n.endif\n.endm\n").second,
            "'.endif' in a .macro or repeated body closes a .if opened outside it");
  EXPECT_EQ(
      violation(".macro M x\n.if \\x\n.exitm\n.else\ns_nop 0\n.endif\n.endm\n.if 1\n.endif\n")
          .first,
      std::string::npos);
}

TEST(InputLimits, FileNumbers) {
  InputLimits L;
  L.MaxFileNumber = 10;
  EXPECT_EQ(violation(".file 10 \"a.c\"\n", L).first, std::string::npos);
  EXPECT_EQ(violation("s_nop 0\n.file 11 \"a.c\"\n", L).first, 8u);
  EXPECT_EQ(violation(".file 0x7fffffffffffffffff \"a.c\"\n", L).first, 0u);
  EXPECT_EQ(violation(".file \"a.c\"\n", L).first, std::string::npos);
}

TEST(InputLimits, MetadataBodiesAreYaml) {
  // Quotes in YAML need not follow the assembler's rules.
  EXPECT_EQ(violation(".amdgpu_metadata\nname: 'it''s \"\n.end_amdgpu_metadata\n").first,
            std::string::npos);
  EXPECT_EQ(violation("  .amdgpu_metadata\nname: x\n").second,
            ".amdgpu_metadata block has no .end_amdgpu_metadata");
}

TEST(MetadataYaml, PointsIntoTheFile) {
  llvm::StringRef Text = "s_nop 0\n.amdgpu_metadata\n---\na: [ 1\nb: : c\n...\n"
                         ".end_amdgpu_metadata\n";
  std::optional<LimitViolation> V = checkMetadataYaml(Text);
  ASSERT_TRUE(V);
  EXPECT_EQ(Text.substr(V->Offset, 3), ": c");
  EXPECT_EQ(checkMetadataYaml("; .amdgpu_metadata\n---\na: : b\n"), std::nullopt);
}

} // namespace
