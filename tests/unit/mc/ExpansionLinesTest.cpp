//===- ExpansionLinesTest.cpp - Invoking lines of macro expansions --------===//
//
// The reader places every event of a macro or repeat expansion on the line of
// its outermost invocation. It works that out from the buffers the parser
// opens (ExpansionLines::Reconstruct) and asks the parser's line
// announcements (FromParser) only when the buffer counts do not vouch for
// the answer. Both must place every event on the same line; these kernels
// say which way each one is read.
//
//===----------------------------------------------------------------------===//
#include "stinkytofu/mc/AssemblerState.h"
#include "llvm/Support/MemoryBuffer.h"

#include "gtest/gtest.h"

using namespace stinkytofu;

namespace {

const char *const Macros = R"(.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
.text
.macro FLAT dst, src
  v_mov_b32 \dst, \src
.endm
.macro PAIR a, b
  FLAT \a, \b
  v_add_u32 \a, \a, \b
  FLAT \b, \a
.endm
.macro EMPTY x
.endm
.macro SETONLY x
  .set sym_\x, 1
.endm
.macro OUTER y
  PAIR v7, \y
  .rept 2
    FLAT v8, \y
  .endr
.endm
.macro COND x
.if \x
  v_mov_b32 v1, 0
.else
  FLAT v2, v3
.endif
.endm
)";

struct Placement {
  /// The line of every instruction an expansion made, in order (the parser
  /// announces lines for instructions only).
  std::vector<unsigned> Lines;
  ExpansionLines From;
};

Placement place(const std::string &Body, ExpansionLines Lines) {
  std::string Text = std::string(Macros) + Body;
  AssemblerState AS(llvm::cantFail(TargetInfo::get("gfx90a")));
  std::vector<AsmDiagnostic> Diags;
  AssembledFile File =
      AS.assembleFile(llvm::MemoryBuffer::getMemBufferCopy(Text, "k.s"), Diags, Lines);
  for (const AsmDiagnostic &D : Diags)
    ADD_FAILURE() << D.Diag.getMessage().str();
  Placement P{{}, File.ExpansionLinesFrom};
  for (const AsmEvent &E : File.Events) {
    if (!E.FromExpansion || E.K != AsmEvent::Kind::Instruction)
      continue;
    unsigned Line = E.Line;
    if (E.Offset != AsmEvent::NoOffset)
      Line = 1 + unsigned(llvm::StringRef(Text).take_front(E.Offset).count('\n'));
    P.Lines.push_back(Line);
  }
  return P;
}

/// The first line of the body is this line of the whole file.
unsigned bodyLine(unsigned N) {
  return unsigned(llvm::StringRef(Macros).count('\n')) + N;
}

/// Both ways place the expansions of \p Body alike. When the counts cannot
/// vouch (ExpectedFrom is FromParser) both ways are the parser's, so the
/// lines are checked against \p BodyLines (lines of the body), the answer
/// written down by hand.
void expectSamePlacement(const std::string &Body, ExpansionLines ExpectedFrom,
                         std::vector<unsigned> BodyLines = {}) {
  Placement Reconstructed = place(Body, ExpansionLines::Reconstruct);
  Placement Announced = place(Body, ExpansionLines::FromParser);
  EXPECT_EQ(Reconstructed.From, ExpectedFrom);
  EXPECT_EQ(Announced.From, ExpansionLines::FromParser);
  EXPECT_EQ(Reconstructed.Lines, Announced.Lines);
  EXPECT_FALSE(Reconstructed.Lines.empty());
  ASSERT_TRUE(ExpectedFrom != ExpansionLines::FromParser || !BodyLines.empty())
      << "the parser compared with itself proves nothing: give the lines";
  for (unsigned &Line : BodyLines)
    Line = bodyLine(Line);
  if (!BodyLines.empty())
    EXPECT_EQ(Announced.Lines, BodyLines);
}

TEST(ExpansionLinesTest, ConsecutiveAndNestedInvocationsAreReconstructed) {
  const std::string Body = "k:\n"
                           "  FLAT v0, v1\n"
                           "  PAIR v2, v3\n"
                           "  FLAT v0, v1    // two flat ones in a row\n"
                           "  FLAT v1, v0\n"
                           "  EMPTY 1\n"
                           "  FLAT v4, v4\n"
                           "  SETONLY a\n"
                           "  OUTER v9\n"
                           "lab: FLAT v1, v1\n"
                           "  /* a comment */ PAIR v1, v2\n"
                           "  .rept 3\n"
                           "  FLAT v0, v1\n"
                           "  .endr\n"
                           "  .irp r, v1, v2\n"
                           "  FLAT \\r, v0\n"
                           "  .endr\n"
                           "  s_nop 0\n"
                           "  COND 1\n"
                           "  s_endpgm\n";
  expectSamePlacement(Body, ExpansionLines::Reconstruct);
  // PAIR's three instructions, from its nested FLATs too, are on its line.
  Placement P = place(Body, ExpansionLines::Reconstruct);
  ASSERT_GE(P.Lines.size(), 4u);
  EXPECT_EQ(P.Lines[0], bodyLine(2));
  EXPECT_EQ(P.Lines[1], bodyLine(3));
  EXPECT_EQ(P.Lines[2], bodyLine(3));
  EXPECT_EQ(P.Lines[3], bodyLine(3));
}

TEST(ExpansionLinesTest, ConditionalAroundNestedInvocationAsksTheParser) {
  // COND's expansion may or may not open a buffer for FLAT: with another
  // invocation in the same gap the counts cannot place them for certain.
  expectSamePlacement("k:\n  COND 0\n  FLAT v1, v1\n  s_endpgm\n", ExpansionLines::FromParser,
                      {2, 3});
  // Alone between two statements of its own, it owns whatever it opened.
  expectSamePlacement("k:\n  COND 0\n  s_nop 0\n  FLAT v1, v1\n  s_endpgm\n",
                      ExpansionLines::Reconstruct);
}

TEST(ExpansionLinesTest, SkippedInvocationInTheMainFileAsksTheParser) {
  expectSamePlacement("k:\n  FLAT v0, v0\n.if 0\n  FLAT v9, v9\n.else\n  PAIR v9, v8\n.endif\n"
                      "  s_endpgm\n",
                      ExpansionLines::FromParser, {2, 6, 6, 6});
}

} // namespace
