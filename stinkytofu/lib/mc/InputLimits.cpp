//===- InputLimits.cpp - Bounds checked before LLVM MC sees a file --------===//
//
// One pass over the text: a character walker that knows comments and strings
// checks the lexical bounds, and each statement it completes goes to the
// directive checks (repeat blocks, assignments the repeat counts may use,
// file numbers). Repeat counts and assignments are evaluated as MC does
// (mc/AbsoluteExpression.h: its lexer, its precedences) with the symbols
// assigned earlier in the file; a count it cannot evaluate counts as one. An
// expression that divides the most negative 64-bit value by -1, which kills
// MC, is refused wherever the scanner can know its values.
//
//===----------------------------------------------------------------------===//
#include "stinkytofu/mc/InputLimits.h"
#include "stinkytofu/mc/AbsoluteExpression.h"
#include "stinkytofu/mc/OperandParser.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/ErrorHandling.h"
#include <algorithm>
#include <array>
#include <bitset>

using namespace llvm;

namespace stinkytofu {
namespace {

uint64_t saturatingMultiply(uint64_t A, uint64_t B) {
  if (A != 0 && B > UINT64_MAX / A)
    return UINT64_MAX;
  return A * B;
}

constexpr bool isIdentifierChar(char C) {
  return (C >= '0' && C <= '9') || (C >= 'a' && C <= 'z') || (C >= 'A' && C <= 'Z') ||
         C == '_' || C == '.' || C == '$' || C == '@';
}

/// An open `.rept`/`.irp`/`.irpc` block or `.macro` body.
struct Block {
  bool IsMacro = false;
  bool HasBody = false;
  /// A repeat body is text until MC expands it: `.macro`s opened in it and
  /// not yet closed.
  unsigned OpenMacros = 0;
  uint64_t Repetitions = 1;
  size_t Offset = 0; // of its directive
  /// `.if`s opened in the body and not yet closed: each copy of the body
  /// must close what it opens (LLVM MC leaks an expansion that ends with
  /// a conditional open).
  unsigned OpenConditionals = 0;
};

/// What one invocation of a macro expands to: its own statements (repeated
/// blocks in the body multiplied out) and the macros it invokes.
struct MacroBody {
  uint64_t Own = 0;
  SmallVector<std::pair<std::string, uint64_t>, 2> Calls; // name, copies
  /// macroCost by remaining depth (0: not computed yet).
  std::array<uint64_t, 21> Cost{};
};

/// MC refuses to nest macro and repeat expansions deeper than this.
constexpr unsigned MaxMacroNesting = 20;

class Scanner {
public:
  Scanner(StringRef Text, const InputLimits &Limits, const MCAsmInfo &MAI)
      : Text(Text), Limits(Limits), MAI(MAI) {}

  std::optional<LimitViolation> run();

private:
  void fail(size_t Offset, const Twine &Message) {
    if (!Violation)
      Violation = LimitViolation{Offset, Message.str()};
  }
  /// Where the line from \p At ends (its newline or the end of the text) if
  /// none of it can break a bound, with no bracket or unary operator open
  /// before \p At: plain bytes, brackets and operators, too few to nest or
  /// repeat past the limits, perhaps ending in a line comment. Otherwise
  /// \p At.
  size_t lineEndIfSafe(size_t At) const;
  /// Checks the bytes [\p Begin, \p End) of the text, plain ones only (a run
  /// of them): what they change is the line start and the unary operator
  /// run; the one bound they can break is a numeric literal's length.
  void plainRun(size_t Begin, size_t End, bool &LineStart, unsigned &UnaryRun);
  /// Checks the statement \p Code (as written, comments included), written
  /// from byte \p Offset of the text.
  void statement(StringRef Code, size_t Offset);
  /// Counts the statement at \p Offset once per repetition of the open
  /// blocks; an invocation of \p Macro counts what the macro expands to.
  void chargeExpansion(size_t Offset, StringRef Macro);
  /// Statements one invocation of macro \p Name expands to, nested
  /// invocations included, with \p Depth levels of nesting left.
  uint64_t macroCost(StringRef Name, unsigned Depth);
  void repeatBlock(StringRef Directive, StringRef Operands, size_t Offset);
  void assignment(StringRef Name, StringRef Value, size_t Offset);
  /// \p Text evaluated with the symbols assigned so far; a division MC
  /// would die on is a violation at \p Offset.
  std::optional<int64_t> evaluate(StringRef Text, size_t Offset);
  std::optional<int64_t> symbolValue(StringRef Name) const {
    auto It = Symbols.find(Name);
    return It == Symbols.end() ? std::nullopt : std::optional<int64_t>(It->second);
  }
  /// Fails at \p Offset when an expression of the statement \p Code
  /// divides the most negative value by -1. Called only when the walker met
  /// a '/' or '%' operator in it (StatementDivides).
  void checkDivisions(StringRef Code, size_t Offset);
  void fileNumber(StringRef Directive, StringRef Operands, size_t Offset);
  /// Where the `*/` of the block comment opened at \p Open is, or npos.
  size_t blockCommentEnd(size_t Open) const;
  /// Skips a `.amdgpu_metadata` body from \p At; where its end directive's
  /// line ends, or npos.
  size_t skipMetadata(size_t At) const;

  StringRef Text;
  const InputLimits &Limits;
  const MCAsmInfo &MAI;
  std::optional<LimitViolation> Violation;
  StringMap<int64_t> Symbols;
  SmallVector<Block, 4> Blocks;
  /// The macros defined so far, and the one whose body is being read.
  StringMap<MacroBody> Macros;
  /// First characters of the macro names: most instructions need no lookup.
  std::bitset<256> MacroInitials;
  MacroBody *Defining = nullptr;
  /// The body of a `.macro` whose name is taken, scanned but not kept.
  MacroBody Redefinition;
  uint64_t ExpandedStatements = 0;
  /// The statement being walked holds a '/' or '%' outside comments and
  /// strings.
  bool StatementDivides = false;
  bool MetadataFollows = false;
  size_t MetadataAt = 0;
};

size_t Scanner::blockCommentEnd(size_t Open) const {
  // By its slash: banners of stars are common, and StringRef::find builds a
  // table per call.
  for (size_t Slash = Text.find('/', Open + 3); Slash != StringRef::npos;
       Slash = Text.find('/', Slash + 1))
    if (Text[Slash - 1] == '*')
      return Slash - 1;
  return StringRef::npos;
}

size_t Scanner::skipMetadata(size_t At) const {
  while (At < Text.size()) {
    size_t End = Text.find('\n', At);
    StringRef Line = Text.slice(At, End).ltrim(" \t");
    if (Line.starts_with_insensitive(".end_amdgpu_metadata"))
      return End == StringRef::npos ? Text.size() : End;
    if (End == StringRef::npos)
      break;
    At = End + 1;
  }
  return StringRef::npos;
}

/// What the character walker does with a byte.
enum class CharClass : uint8_t {
  // Plain: most of the text, taken in runs (Scanner::plainRun).
  Blank, Ident, Other,
  // With the plain ones, all an instruction line is usually made of
  // (Scanner::lineEndIfSafe).
  Open, Close, Unary,
  Newline, Quote, Apostrophe, Backtick, Semicolon, Slash, Hash,
  Percent, // with a non-comment Slash, makes the statement's expressions read
  NotText, // a control character or a byte above ASCII
};

constexpr std::array<CharClass, 256> makeCharClasses() {
  std::array<CharClass, 256> T{};
  for (unsigned C = 0; C < 256; ++C) {
    T[C] = isIdentifierChar(char(C)) ? CharClass::Ident : (C < 0x20 || C >= 0x7F) ? CharClass::NotText : CharClass::Other;
  }
  // Not \v or \f: MC's lexer does not take them for blanks, and two on
  // the line of a bad statement make the AMDGPU parser loop forever.
  T[' '] = T['\t'] = T['\r'] = CharClass::Blank;
  T['\n'] = CharClass::Newline;
  T['"'] = CharClass::Quote;
  T['\''] = CharClass::Apostrophe;
  T['`'] = CharClass::Backtick;
  T[';'] = CharClass::Semicolon;
  T['/'] = CharClass::Slash;
  T['#'] = CharClass::Hash;
  T['%'] = CharClass::Percent;
  T['('] = T['['] = CharClass::Open;
  T[')'] = T[']'] = CharClass::Close;
  T['-'] = T['~'] = T['!'] = T['+'] = CharClass::Unary;
  return T;
}
constexpr std::array<CharClass, 256> CharClasses = makeCharClasses();

CharClass classOf(char C) { return CharClasses[static_cast<unsigned char>(C)]; }

bool isPlain(CharClass K) { return K <= CharClass::Other; }
bool isPlainOrOperator(CharClass K) { return K <= CharClass::Unary; }

// Character loops for every statement: StringRef's set-based searches build
// a table per call, take_while calls through a function_ref per character.

/// The identifier at the front of \p Text, possibly empty.
StringRef identifierAt(StringRef Text) {
  const char *End = std::find_if(Text.begin(), Text.end(),
                                 [](char C) { return classOf(C) != CharClass::Ident; });
  return Text.take_front(End - Text.begin());
}

/// \p Text without its leading spaces and tabs.
StringRef skipBlanks(StringRef Text) {
  size_t Begin = 0;
  while (Begin < Text.size() && (Text[Begin] == ' ' || Text[Begin] == '\t'))
    ++Begin;
  return Text.drop_front(Begin);
}

/// \p Text without the spaces, tabs and carriage returns at its end.
StringRef dropTrailingBlanks(StringRef Text) {
  while (!Text.empty() && classOf(Text.back()) == CharClass::Blank)
    Text = Text.drop_back();
  return Text;
}

/// \p Text without white space at either end.
StringRef trimSpace(StringRef Text) {
  while (!Text.empty() && isSpace(Text.front()))
    Text = Text.drop_front();
  while (!Text.empty() && isSpace(Text.back()))
    Text = Text.drop_back();
  return Text;
}

/// The directive or macro name at the front of \p Text: up to white space or
/// a comma.
StringRef firstWord(StringRef Text) {
  size_t Length = 0;
  while (Length < Text.size() && !isSpace(Text[Length]) && Text[Length] != ',')
    ++Length;
  return Text.take_front(Length);
}

std::optional<LimitViolation> Scanner::run() {
  size_t StatementAt = 0; // where the current statement starts
  bool LineStart = true;  // nothing but blanks so far on this line
  unsigned Depth = 0, UnaryRun = 0;
  size_t I = lineEndIfSafe(0), N = Text.size();
  // A NUL ends the text for parts of MC's lexer, wherever it is.
  if (size_t Nul = Text.find('\0'); Nul != StringRef::npos)
    fail(Nul, "NUL byte: the file is not assembly text");
  while (I < N && !Violation) {
    char C = Text[I];
    CharClass K = classOf(C);
    if (isPlain(K)) {
      const char *End = std::find_if(Text.begin() + I + 1, Text.end(),
                                     [](char C) { return !isPlain(classOf(C)); });
      plainRun(I, End - Text.begin(), LineStart, UnaryRun);
      I = End - Text.begin();
      continue;
    }
    if (K != CharClass::Unary)
      UnaryRun = 0;
    switch (K) {
    case CharClass::Newline:
      statement(Text.slice(StatementAt, I), StatementAt);
      StatementDivides = false;
      StatementAt = ++I;
      LineStart = true;
      Depth = 0;
      if (MetadataFollows) {
        MetadataFollows = false;
        size_t End = skipMetadata(I);
        if (End == StringRef::npos)
          fail(MetadataAt, ".amdgpu_metadata block has no .end_amdgpu_metadata");
        I = StatementAt = std::min(End, N);
      }
      // The newline closed every bracket and ended every operator run.
      I = lineEndIfSafe(I);
      continue;
    case CharClass::Hash:
      if (!LineStart)
        break;
      [[fallthrough]];
    case CharClass::Semicolon:
      I = std::min(Text.find('\n', I), N);
      continue;
    case CharClass::Slash:
      if (I + 1 < N && Text[I + 1] == '/') {
        I = std::min(Text.find('\n', I), N);
        continue;
      }
      if (I + 1 < N && Text[I + 1] == '*') {
        size_t Close = blockCommentEnd(I);
        if (Close == StringRef::npos) {
          fail(I, "unterminated block comment: no '*/' before the end of the file");
          continue;
        }
        I = Close + 2;
        LineStart = false;
        continue;
      }
      StatementDivides = true;
      break;
    case CharClass::Percent:
      StatementDivides = true;
      break;
    case CharClass::Quote: {
      size_t J = I + 1;
      while (J < N && Text[J] != '"' && Text[J] != '\n')
        J += Text[J] == '\\' ? 2 : 1;
      if (J >= N || Text[J] != '"') {
        fail(I, "unterminated string: no closing '\"' on its line");
        continue;
      }
      I = J + 1;
      LineStart = false;
      continue;
    }
    case CharClass::Apostrophe: {
      // A character literal as MC's lexer reads one: one character, or a
      // backslash and one, then the closing quote. Anything else is an
      // error token, and after an operand prefix (`name:`) MC's AMDGPU
      // parser loops forever on one (fuzzer find).
      size_t J = I + 1;
      if (J < N && Text[J] == '\\')
        ++J;
      if (J + 1 >= N || Text[J] == '\n' || Text[J + 1] != '\'') {
        fail(I, "character literal not closed after one character (MC reads 'c' or '\\c')");
        continue;
      }
      I = J + 2;
      LineStart = false;
      continue;
    }
    case CharClass::Backtick:
      // MC's lexer has no token for it: an error token, as above.
      fail(I, "'`' is not assembly text outside comments and strings");
      continue;
    case CharClass::Open:
      if (++Depth > Limits.MaxExpressionDepth)
        fail(I, "expression nests deeper than " + Twine(Limits.MaxExpressionDepth) +
                    " levels (--max-expression-depth)");
      break;
    case CharClass::Close:
      Depth -= Depth > 0;
      break;
    case CharClass::Unary:
      if (++UnaryRun > Limits.MaxExpressionDepth)
        fail(I, "more than " + Twine(Limits.MaxExpressionDepth) +
                    " operators in a row (--max-expression-depth)");
      break;
    case CharClass::NotText:
      // LLVM MC's lexer loops forever on some of these (fuzzer finds).
      fail(I, "byte 0x" + utohexstr(uint8_t(C), /*LowerCase=*/true) +
                  " is not assembly text (outside comments and strings only printable "
                  "ASCII, tabs and line ends)");
      continue;
    case CharClass::Blank:
    case CharClass::Ident:
    case CharClass::Other:
      llvm_unreachable("plain bytes are taken in runs");
    }
    LineStart = false;
    ++I;
  }
  if (!Violation)
    statement(Text.slice(StatementAt, N), StatementAt);
  // A repeated block left open (a `.macro` left open is MC's to report).
  if (!Violation && !Blocks.empty() && !Blocks.front().IsMacro)
    fail(Blocks.front().Offset, "repeated block has no .endr before the end of the file");
  return Violation;
}

size_t Scanner::lineEndIfSafe(size_t At) const {
  const char *Stop = std::find_if(Text.begin() + At, Text.end(),
                                  [](char C) { return !isPlainOrOperator(classOf(C)); });
  size_t StopAt = Stop - Text.begin();
  // A bracket per byte at most, an operator run as long, a literal as long.
  if (StopAt - At > std::min(Limits.MaxExpressionDepth, Limits.MaxLiteralLength))
    return At;
  StringRef Rest = Text.drop_front(StopAt);
  if (Rest.empty() || Rest.front() == '\n')
    return StopAt;
  if (Rest.front() == ';' || Rest.starts_with("//"))
    return std::min(Text.find('\n', StopAt), Text.size());
  return At;
}

void Scanner::plainRun(size_t Begin, size_t End, bool &LineStart, unsigned &UnaryRun) {
  StringRef Run = Text.slice(Begin, End);
  if ((LineStart || UnaryRun) &&
      llvm::any_of(Run, [](char C) { return classOf(C) != CharClass::Blank; })) {
    LineStart = false;
    UnaryRun = 0;
  }
  // Only a run this long can hold a literal over the limit.
  if (Run.size() <= Limits.MaxLiteralLength)
    return;
  for (size_t I = 0; I < Run.size();) {
    StringRef Word = identifierAt(Run.drop_front(I));
    if (Word.empty()) {
      ++I;
      continue;
    }
    if (isDigit(Word.front()) && Word.size() > Limits.MaxLiteralLength)
      return fail(Begin + I, "numeric literal of " + Twine(Word.size()) +
                                 " characters exceeds the limit of " +
                                 Twine(Limits.MaxLiteralLength) + " (--max-literal-length)");
    I += Word.size();
  }
}

void Scanner::statement(StringRef Code, size_t Offset) {
  Code = skipBlanks(Code);
  if (Code.empty())
    return;
  // Most statements are instructions, which matter only inside repeated
  // blocks or macro bodies: what starts with a directive, a label, an
  // assignment or a macro's name goes on.
  if (Code.front() != '.') {
    StringRef Word = identifierAt(Code);
    StringRef After = skipBlanks(Code.drop_front(Word.size()));
    if (!After.starts_with(":") && !After.starts_with("=") &&
        (Word.empty() || !MacroInitials[uint8_t(Word.front())] || !Macros.contains(Word))) {
      if (StatementDivides)
        checkDivisions(Code, Offset);
      if (!Blocks.empty()) {
        chargeExpansion(Offset, StringRef());
        Blocks.back().HasBody = true;
      }
      return;
    }
  }
  Code = dropTrailingBlanks(Code.take_front(findComment(Code)));
  if (StatementDivides)
    checkDivisions(Code, Offset);
  // Labels in front of the statement (`loop: .rept 2`).
  while (true) {
    StringRef Word = identifierAt(Code);
    if (Word.empty() || !Code.drop_front(Word.size()).starts_with(":") ||
        Code.drop_front(Word.size()).starts_with("::"))
      break;
    Code = Code.drop_front(Word.size() + 1).drop_while(isSpace);
  }
  if (Code.empty())
    return;
  StringRef Word = firstWord(Code);
  StringRef Operands = trimSpace(Code.drop_front(Word.size()));
  // Lower-cased on the stack: every directive gets here.
  SmallString<32> LowerDirective;
  for (char C : Word)
    LowerDirective.push_back(toLower(C));
  StringRef Directive = LowerDirective;
  bool Closes = (Directive == ".endr" && !Blocks.empty() && !Blocks.back().IsMacro) ||
                ((Directive == ".endm" || Directive == ".endmacro") && !Blocks.empty() &&
                 Blocks.back().IsMacro);
  auto Invoked = Directive.starts_with(".") ? Macros.end() : Macros.find(Word);
  // Each repetition costs MC at least one statement, even of an empty body.
  if (Closes ? !Blocks.back().IsMacro && !Blocks.back().HasBody
             : !Blocks.empty() || Invoked != Macros.end())
    chargeExpansion(Offset, Invoked == Macros.end() ? StringRef() : Word);
  if (Closes && Blocks.back().OpenMacros)
    return fail(Offset, "a .macro in this block has no .endm before its .endr");
  if (Closes && Blocks.back().OpenConditionals)
    return fail(Offset, "a .if in this block has no .endif before its " + Directive);
  if (Closes) {
    if (Blocks.back().IsMacro && Blocks.size() == 1) {
      // A new definition may change what any macro invoking it costs.
      Defining = nullptr;
      for (auto &Entry : Macros)
        Entry.second.Cost = {};
    }
    return Blocks.pop_back();
  }
  if (!Blocks.empty())
    Blocks.back().HasBody = true;
  // `.end` met while a macro or repeated body is being expanded stops the
  // parser inside the expansion, which LLVM MC then leaks.
  if (Directive == ".end" && !Blocks.empty())
    return fail(Offset, "'.end' in a .macro or repeated body (the assembly would end "
                        "inside its expansion)");
  // A `.macro` in a repeat body is defined by every copy of the body, so it
  // must end there: otherwise the definition swallows the rest of the file
  // (LLVM MC then leaks the expansion).
  // MC ends a macro body at its `.endm` whatever repeated block is open in
  // it, and that block then swallows the rest of every expansion.
  if ((Directive == ".endm" || Directive == ".endmacro") && !Blocks.empty() &&
      !Blocks.back().IsMacro && !Blocks.back().OpenMacros &&
      llvm::any_of(Blocks, [](const Block &B) { return B.IsMacro; }))
    return fail(Offset, "a repeated block in this .macro has no .endr before its " + Directive);
  if (!Blocks.empty() && Directive.starts_with(".if")) {
    ++Blocks.back().OpenConditionals;
    return;
  }
  if (!Blocks.empty() && Directive == ".endif") {
    if (!Blocks.back().OpenConditionals)
      return fail(Offset, "'.endif' in a .macro or repeated body closes a .if opened "
                          "outside it");
    --Blocks.back().OpenConditionals;
    return;
  }
  if (!Blocks.empty() && !Blocks.back().IsMacro) {
    unsigned &Open = Blocks.back().OpenMacros;
    if (Directive == ".macro")
      return void(++Open);
    if ((Directive == ".endm" || Directive == ".endmacro") && Open)
      return void(--Open);
  }
  if (Directive == ".rept" || Directive == ".rep" || Directive == ".irp" ||
      Directive == ".irpc")
    return repeatBlock(Directive, Operands, Offset);
  if (Directive == ".macro") {
    if (Blocks.empty()) {
      StringRef Name = firstWord(Operands);
      // A .macro without a name is MC's error and opens no body: the lines
      // after it are statements, invocations included (fuzzer find).
      if (Name.empty() || isDigit(Name.front()))
        return;
      // MC keeps the first definition of a name (a second one is an error
      // and dropped): a redefinition must not change what invocations cost.
      auto [Entry, IsNew] = Macros.try_emplace(Name);
      Defining = IsNew ? &Entry->second : &(Redefinition = MacroBody());
      if (!Name.empty())
        MacroInitials.set(uint8_t(Name.front()));
    }
    return Blocks.push_back({/*IsMacro=*/true, false, 0, 1, Offset});
  }
  if (Directive == ".purgem" && !Defining)
    Macros.erase(Operands);
  if (Directive == ".amdgpu_metadata") {
    MetadataFollows = true;
    MetadataAt = Offset;
  }
  if (Directive == ".file" || Directive == ".cv_file" || Directive == ".cv_func_id" ||
      Directive == ".cv_inline_site_id")
    return fileNumber(Directive, Operands, Offset);
  if (llvm::any_of(Blocks, [](const Block &B) { return B.IsMacro; }))
    return; // assignments there depend on the arguments
  if (Directive == ".set" || Directive == ".equ" || Directive == ".equiv" ||
      Directive == ".eqv") {
    auto [Name, Value] = Operands.split(',');
    return assignment(Name.trim(), Value, Offset);
  }
  if (Operands.starts_with("=") && !Operands.starts_with("=="))
    assignment(Word, Operands.drop_front(), Offset);
}

void Scanner::chargeExpansion(size_t Offset, StringRef Macro) {
  // Inside a macro body only the blocks opened in the body repeat it; it
  // is charged where the macro is invoked.
  auto Body = Defining ? llvm::find_if(Blocks, [](const Block &B) { return B.IsMacro; }) + 1
                       : Blocks.begin();
  uint64_t Copies = 1;
  for (auto B = Body; B != Blocks.end(); ++B)
    Copies = saturatingMultiply(Copies, B->Repetitions);
  if (Defining) {
    if (Macro.empty())
      Defining->Own = std::min(UINT64_MAX - Copies, Defining->Own) + Copies;
    else
      Defining->Calls.emplace_back(Macro.str(), Copies);
    return;
  }
  uint64_t Cost = Macro.empty() ? 1 : macroCost(Macro, MaxMacroNesting);
  uint64_t Statements = saturatingMultiply(Copies, Cost);
  ExpandedStatements = std::min(UINT64_MAX - Statements, ExpandedStatements) + Statements;
  if (ExpandedStatements <= Limits.MaxExpandedStatements)
    return;
  std::string Limit = " to more than " + std::to_string(Limits.MaxExpandedStatements) +
                      " statements (--max-expanded-statements)";
  if (!Blocks.empty())
    fail(Blocks.front().Offset, "repeated blocks expand" + Limit);
  else
    fail(Offset, "macro '" + Macro + "' expands" + Limit);
}

uint64_t Scanner::macroCost(StringRef Name, unsigned Depth) {
  auto It = Macros.find(Name);
  if (It == Macros.end() || Depth == 0)
    return 1; // an instruction; or MC's nesting error, expanding nothing
  MacroBody &B = It->second;
  if (B.Cost[Depth])
    return B.Cost[Depth];
  uint64_t Cost = std::max<uint64_t>(B.Own, 1);
  for (const auto &[Callee, Copies] : B.Calls) {
    uint64_t Calls = saturatingMultiply(Copies, macroCost(Callee, Depth - 1));
    Cost = std::min(UINT64_MAX - Calls, Cost) + Calls;
  }
  return B.Cost[Depth] = Cost;
}

void Scanner::repeatBlock(StringRef Directive, StringRef Operands, size_t Offset) {
  uint64_t Repetitions = 1;
  if (Directive == ".rept" || Directive == ".rep") {
    if (std::optional<int64_t> Count = evaluate(Operands, Offset))
      Repetitions = uint64_t(std::max<int64_t>(*Count, 0));
  } else {
    // `.irp x, a, b, c` / `.irp x a b c`, `.irpc x, abc`: one repetition per
    // value or character.
    StringRef Values = Operands.drop_front(Operands.take_while(isIdentifierChar).size());
    Values = Values.ltrim(" \t");
    Values.consume_front(",");
    Values = Values.trim();
    if (Directive == ".irpc") {
      Repetitions = Values.size();
    } else if (Values.contains(',')) {
      Repetitions = Values.count(',') + 1;
    } else {
      SmallVector<StringRef, 8> Parts;
      SplitString(Values, Parts);
      Repetitions = Parts.size();
    }
    Repetitions = std::max<uint64_t>(Repetitions, 1);
  }
  Blocks.push_back({/*IsMacro=*/false, false, 0, Repetitions, Offset});
}

std::optional<int64_t> Scanner::evaluate(StringRef Text, size_t Offset) {
  ExpressionValue V =
      evaluateAbsolute(Text, MAI, [this](StringRef Name) { return symbolValue(Name); });
  if (V.DividesOverflow)
    fail(Offset, "the expression divides -9223372036854775808 by -1, which LLVM MC's "
                 "evaluator crashes on");
  return V.Value;
}

void Scanner::checkDivisions(StringRef Code, size_t Offset) {
  if (dividesOverflowAnywhere(Code.take_front(findComment(Code)), MAI,
                              [this](StringRef Name) { return symbolValue(Name); }))
    fail(Offset, "an expression divides -9223372036854775808 by -1, which LLVM MC's "
                 "evaluator crashes on");
}

void Scanner::assignment(StringRef Name, StringRef Value, size_t Offset) {
  if (Name.empty() || !llvm::all_of(Name, isIdentifierChar))
    return;
  if (std::optional<int64_t> V = evaluate(Value, Offset))
    Symbols[Name] = *V;
  else
    Symbols.erase(Name);
}

void Scanner::fileNumber(StringRef Directive, StringRef Operands, size_t Offset) {
  StringRef Number = Operands.take_while(isIdentifierChar);
  if (Number.empty() || !isDigit(Number.front()))
    return;
  // A number too large for 64 bits does not evaluate either.
  std::optional<int64_t> V = evaluate(Number, Offset);
  if (!V || uint64_t(*V) > Limits.MaxFileNumber)
    fail(Offset, Directive + " number " + Number + " is over the limit of " +
                     Twine(Limits.MaxFileNumber) + " (--max-file-number)");
}

} // namespace

std::optional<LimitViolation> checkInputLimits(StringRef Text, const InputLimits &Limits,
                                               const MCAsmInfo &MAI) {
  return Scanner(Text, Limits, MAI).run();
}

} // namespace stinkytofu
