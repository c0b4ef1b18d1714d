//===- StatementLexerFuzzer.cpp - The statement scanner against AsmLexer --===//
//
// ir/StatementText.cpp cuts every instruction's text into mnemonic, operands
// and comment with a hand-written scanner, kept for speed (the reader splits
// every statement). This target proves it agrees with MC's own lexer
// (llvm::AsmLexer with the AMDGPU MCAsmInfo) on every line of every input:
//
// - findComment finds a comment exactly where the lexer meets its first
//   one (the lexer reports where the comment's marker starts), and none
//   where the lexer meets none;
// - no token the lexer reads before that comment runs into it, and the
//   comment splitStatement cuts off is the lexer's first after the indent;
// - splitTopLevel at ',' cuts operands only where the lexer reads a comma
//   outside parentheses and brackets;
// - scanLine, with which the reader cuts the text between statements into
//   directives and comments, finds code on a line exactly where the lexer
//   reads a token that is no comment.
//
// A line the lexer refuses (an unterminated string or block comment, a bad
// number) is one the assembler refuses too, and is not compared. The
// operand cuts are compared on statements shaped as instructions (the
// lexer's first token is an identifier, the mnemonic splitStatement cuts):
// splitTopLevel is given operands, never a quoted or bracketed line start.
// A carriage return inside a line ends a statement for the lexer, as a line
// feed does: the reader cuts such lines into statements with the lexer
// itself (AsmReader.cpp, returnEnds), so the scanners only ever see one at a
// statement's end, where they take it for a blank. Lines holding one
// elsewhere are not compared.
//
//===----------------------------------------------------------------------===//
#include "DifferentialSupport.h"
#include "stinkytofu/hw/TargetInfo.h"
#include "stinkytofu/ir/StatementText.h"
#include "llvm/MC/MCParser/AsmLexer.h"
#include <set>
#include <string>

using namespace llvm;
using namespace stinkytofu;

namespace {

/// Where the lexer met comments: the offset of each one's first byte in
/// the line.
class CommentOffsets final : public AsmCommentConsumer {
public:
  explicit CommentOffsets(const char *Line) : Line(Line) {}
  void HandleComment(SMLoc Loc, StringRef) override {
    Offsets.push_back(size_t(Loc.getPointer() - Line));
  }
  const char *Line;
  std::vector<size_t> Offsets;
};

/// The lexer's view of one line: its tokens up to the end of the statement
/// (or the line's end, a ';' comment ends a statement in AMDGPU assembly),
/// and its comments. False when the lexer refuses the line.
struct LexedLine {
  std::vector<AsmToken> Tokens;
  std::vector<size_t> CommentStarts;
};

bool lexLine(const MCAsmInfo &MAI, const std::string &Line, LexedLine &Out) {
  AsmLexer Lexer(MAI);
  CommentOffsets Comments(Line.c_str());
  Lexer.setCommentConsumer(&Comments);
  Lexer.setBuffer(StringRef(Line.c_str(), Line.size()));
  for (;;) {
    const AsmToken &T = Lexer.Lex();
    if (T.is(AsmToken::Error))
      return false;
    if (T.is(AsmToken::Eof))
      break;
    if (!T.is(AsmToken::EndOfStatement))
      Out.Tokens.push_back(T);
  }
  // A comment's text as the lexer reports it starts after its marker.
  for (size_t Offset : Comments.Offsets) {
    size_t Marker = Offset;
    if (Marker >= 2 && (StringRef(Line).substr(Marker - 2, 2) == "//" ||
                        StringRef(Line).substr(Marker - 2, 2) == "/*"))
      Marker -= 2;
    else if (Marker >= 1 && (Line[Marker - 1] == ';' || Line[Marker - 1] == '#'))
      Marker -= 1;
    Out.CommentStarts.push_back(Marker);
  }
  return true;
}

/// fuzz::check, naming the line the two disagree on.
void agree(bool Ok, const char *What, const std::string &Line) {
  if (!Ok)
    std::fprintf(stderr, "%s: '%s'\n", What, Line.c_str());
  fuzz::check(Ok, What);
}

void checkLine(const MCAsmInfo &MAI, StringRef Text) {
  std::string Line = Text.str();
  if (StringRef(Line).rtrim('\r').contains('\r'))
    return;
  LexedLine Lexed;
  if (!lexLine(MAI, Line, Lexed))
    return;
  // A line that starts with '#' is a comment to the lexer as a whole, or a
  // preprocessor line marker (`# 12 "file.c"`) the parser reads whole; the
  // reader keeps it as text and never splits it as a statement.
  if (StringRef(Line).ltrim(" \t").starts_with("#"))
    return;
  // The reader's item cutting: a line between statements is code (a
  // directive item) or comments leading the next statement as scanLine
  // says, and it says code exactly where the lexer reads a token that is
  // no comment.
  bool LexerCode = any_of(Lexed.Tokens, [](const AsmToken &T) { return !T.is(AsmToken::Comment); });
  agree(scanLine(Line, 0).second == LexerCode,
        "scanLine and AsmLexer disagree on whether the line holds code", Line);
  const size_t Comment = findComment(Line);
  const size_t LexerComment =
      Lexed.CommentStarts.empty() ? StringRef::npos : Lexed.CommentStarts.front();
  agree(Comment == LexerComment,
        "findComment and AsmLexer disagree on where the first comment starts", Line);
  const char *Begin = Line.c_str();
  for (const AsmToken &T : Lexed.Tokens) {
    size_t Start = size_t(T.getLoc().getPointer() - Begin);
    if (Start >= Comment)
      break;
    agree(Start + T.getString().size() <= Comment,
          "a token the lexer reads runs into the comment findComment found", Line);
  }
  Statement S = splitStatement(Line);
  // Its trailing comment is the lexer's first after the indent (a block
  // comment before the mnemonic belongs to the indent).
  size_t LexerTrailing = StringRef::npos;
  for (size_t At : Lexed.CommentStarts)
    if (At >= S.Indent.size()) {
      LexerTrailing = At;
      break;
    }
  agree(S.Comment.empty() ? LexerTrailing == StringRef::npos
                          : size_t(S.Comment.begin() - Begin) == LexerTrailing,
        "splitStatement's comment is not the lexer's first after the indent", Line);
  // The operand cuts: each comma splitTopLevel cut the operands at is one
  // the lexer read outside the operands' parentheses and brackets, and the
  // other way round.
  if (Lexed.Tokens.empty() || !Lexed.Tokens.front().is(AsmToken::Identifier) ||
      Lexed.Tokens.front().getString() != S.Mnemonic)
    return;
  const size_t BodyBegin = size_t(S.Body.begin() - Begin), BodyEnd = BodyBegin + S.Body.size();
  std::set<size_t> TopLevelCommas;
  int Depth = 0;
  for (const AsmToken &T : Lexed.Tokens) {
    size_t Start = size_t(T.getLoc().getPointer() - Begin);
    if (Start < BodyBegin)
      continue;
    if (Start >= BodyEnd)
      break;
    if (T.is(AsmToken::LParen) || T.is(AsmToken::LBrac))
      ++Depth;
    else if ((T.is(AsmToken::RParen) || T.is(AsmToken::RBrac)) && Depth > 0)
      --Depth;
    else if (T.is(AsmToken::Comma) && Depth == 0)
      TopLevelCommas.insert(Start);
  }
  std::set<size_t> Cuts;
  SmallVector<StringRef, 8> Parts = splitTopLevel(S.Body, ',');
  for (size_t K = 0; K + 1 < Parts.size(); ++K)
    Cuts.insert(size_t(Parts[K].end() - Begin));
  agree(Cuts == TopLevelCommas, "splitTopLevel and AsmLexer disagree on the top-level commas",
        Line);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::optional<StringRef> Input = fuzz::textInput(Data, Size);
  if (!Input)
    return 0;
  while (!Input->empty()) {
    auto [Line, Rest] = Input->split('\n');
    checkLine(fuzz::differentialTarget()->asmInfo(), Line);
    Input = Rest;
  }
  return 0;
}
