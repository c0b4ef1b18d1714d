//===- StatementTextTest.cpp - Cutting a statement as MC's lexer does -----===//
//
// The hand-written scanner (ir/StatementText.h) must cut where llvm::AsmLexer
// does; tests/fuzz/StatementLexerFuzzer.cpp proves it on the fuzz corpus.
// These are the cases it found or that matter most.
//
//===----------------------------------------------------------------------===//
#include "stinkytofu/ir/StatementText.h"
#include "gtest/gtest.h"

using namespace stinkytofu;
using llvm::StringRef;

namespace {

std::vector<std::string> parts(StringRef Text) {
  std::vector<std::string> Out;
  for (StringRef P : splitTopLevel(Text, ','))
    Out.push_back(P.str());
  return Out;
}

TEST(StatementTextTest, CommentMarkersOutsideStrings) {
  EXPECT_EQ(findComment("s_nop 0 ; c"), 8u);
  EXPECT_EQ(findComment("s_nop 0 // c"), 8u);
  EXPECT_EQ(findComment("s_nop /* c */ 0"), 6u);
  EXPECT_EQ(findComment(".ascii \"a;b//c\" ; d"), 16u);
  EXPECT_EQ(findComment("v_add_u32 v0, v1, v2"), StringRef::npos);
}

TEST(StatementTextTest, CharacterConstantsAreNumbers) {
  // MC reads ';' and ',' in quotes as numbers, not a comment or a cut.
  EXPECT_EQ(findComment("s_mov_b32 s0, ';' ; c"), 18u);
  EXPECT_EQ(findComment("s_mov_b32 s0, '\\'' ; c"), 19u);
  EXPECT_EQ(parts("s0, ','"), (std::vector<std::string>{"s0", " ','"}));
  EXPECT_EQ(parts("s0, '(', s1"), (std::vector<std::string>{"s0", " '('", " s1"}));
}

TEST(StatementTextTest, SplitsIndentMnemonicOperandsAndComment) {
  Statement S = splitStatement("  /* lead */ v_mov_b32  v0, v1   ; note");
  EXPECT_EQ(S.Indent, "  /* lead */ ");
  EXPECT_EQ(S.Mnemonic, "v_mov_b32");
  EXPECT_EQ(S.MnemonicGap, "  ");
  EXPECT_EQ(S.Body, "v0, v1");
  EXPECT_EQ(S.CommentGap, "   ");
  EXPECT_EQ(S.Comment, "; note");
  EXPECT_EQ(parts("v[0:1], s[2:3], off offset:4"),
            (std::vector<std::string>{"v[0:1]", " s[2:3]", " off offset:4"}));
}

} // namespace
