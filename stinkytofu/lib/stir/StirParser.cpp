//===- StirParser.cpp - The syntax of the textual IR (`.stir`) ------------===//
#include "stinkytofu/stir/StirParser.h"
#include "stinkytofu/ir/Modifier.h"
#include "stinkytofu/mc/DerivedModifiers.h"
#include "stinkytofu/mc/OperandParser.h"
#include "stinkytofu/support/Diagnostics.h"

using namespace llvm;

namespace stinkytofu {

Error StirParser::errorAt(unsigned Line, unsigned Col, const Twine &Msg) {
  return sourceError(File, Line, Col, Lex.lineText(Line), Msg);
}

Error StirParser::expectPunct(char C) {
  if (Tok.is(StirToken::Kind::Error))
    return error(Tok.Text);
  if (!Tok.isPunct(C))
    return error(Twine("expected '") + Twine(C) + "'");
  advance();
  return Error::success();
}

Expected<AttrValue> StirParser::parseValue(unsigned Depth) {
  if (Tok.is(StirToken::Kind::String)) {
    AttrValue V = AttrValue::string(Tok.Text);
    advance();
    return V;
  }
  if (Tok.isPunct('[')) {
    // Lists are read (and freed) recursively: bounded, so that no input
    // overflows the stack.
    if (Depth == MaxListDepth)
      return error("lists nest deeper than " + Twine(MaxListDepth) + " levels");
    advance();
    std::vector<AttrValue> Elements;
    while (!Tok.isPunct(']')) {
      Expected<AttrValue> E = parseValue(Depth + 1);
      if (!E)
        return E.takeError();
      Elements.push_back(std::move(*E));
      if (Tok.isPunct(','))
        advance();
      else if (!Tok.isPunct(']'))
        return error("expected ',' or ']' in a list");
    }
    advance();
    return AttrValue::list(std::move(Elements));
  }
  if (Tok.is(StirToken::Kind::Error))
    return error(Tok.Text);
  if (!Tok.is(StirToken::Kind::Ident))
    return error("expected a value");
  std::string Text = Tok.Text;
  advance();
  if (Text == "true" || Text == "false")
    return AttrValue::boolean(Text == "true");
  int64_t I;
  if (!StringRef(Text).getAsInteger(0, I))
    return AttrValue::integer(I, StringRef(Text).starts_with_insensitive("0x"));
  double D;
  if (!StringRef(Text).getAsDouble(D))
    return AttrValue::floating(Text);
  return AttrValue::ident(Text);
}

Error StirParser::parseDict(AttrDict &Dict, std::vector<StirModifier> *Mods) {
  if (Error E = expectPunct('{'))
    return E;
  while (!Tok.isPunct('}')) {
    if (!Tok.is(StirToken::Kind::Ident))
      return error("expected an attribute name");
    std::string Key = Tok.Text;
    unsigned KeyLine = Tok.Line, KeyCol = Tok.Column;
    advance();
    if (Error E = expectPunct('='))
      return E;
    if (StringRef(Key).starts_with("mod.")) {
      if (!Mods)
        return errorAt(KeyLine, KeyCol, "modifier '" + Key + "' is only allowed on instructions");
      std::string ModKey = Key.substr(4);
      if (!Modifier::kindOf(ModKey) && ModKey != GenericWaitKey)
        return errorAt(KeyLine, KeyCol, "unknown modifier '" + Key + "'");
      AttrDict ModAttrs;
      if (Error E = parseDict(ModAttrs, nullptr))
        return E;
      Mods->push_back({std::move(ModKey), std::move(ModAttrs), KeyLine, KeyCol});
    } else {
      Expected<AttrValue> V = parseValue();
      if (!V)
        return V.takeError();
      Dict.add(Key, std::move(*V));
    }
    if (Tok.isPunct(','))
      advance();
    else if (!Tok.isPunct('}'))
      return error("expected ',' or '}' in attributes");
  }
  advance();
  return Error::success();
}

Error StirParser::parseInst(StirBlock &BB) {
  StirInst I;
  I.Line = Tok.Line;
  I.Column = Tok.Column;
  // Definitions: operand tokens up to '='.
  while (!Tok.is(StirToken::Kind::String)) {
    if (!Tok.is(StirToken::Kind::Ident))
      return error("expected an instruction: [defs =] \"st.mnemonic\"(uses) {attrs}");
    I.Defs.push_back({Tok.Text, Tok.Line, Tok.Column});
    advance();
    if (Tok.isPunct(','))
      advance();
    else if (Tok.isPunct('='))
      advance();
    else
      return error("expected ',' or '=' after a definition");
  }
  StringRef Name = Tok.Text;
  size_t Dot = Name.find('.');
  if (Dot == StringRef::npos || Name.drop_front(Dot + 1).empty())
    return error("expected a namespaced mnemonic such as \"st.s_nop\"");
  I.Mnemonic = Name.drop_front(Dot + 1).str();
  I.MnemonicColumn = Tok.Column + 1 + unsigned(Dot) + 1; // after the quote and `st.`
  advance();
  if (Tok.isPunct('('))
    if (Error E = parseUses(I))
      return E;
  if (Tok.isPunct('{'))
    if (Error E = parseDict(I.Attrs, &I.Mods))
      return E;
  if (Error E = I.Attrs.checkKeys("an instruction",
                                  {"issueCycles", "latencyCycles", "leading", "asm"}))
    return errorAt(I.Line, I.Column, toString(std::move(E)));
  BB.Insts.push_back(std::move(I));
  return Error::success();
}

Error StirParser::parseUses(StirInst &I) {
  // The operand list is read raw (expressions such as hwreg(...) or
  // (a-b)&0xff are the assembler's); each operand keeps where it starts.
  unsigned Line = Tok.Line, Column = Tok.Column + 1;
  std::string Raw;
  if (!Lex.readBalanced(')', Raw))
    return error("unterminated operand list");
  StringRef All = Raw;
  for (StringRef Piece : splitTopLevel(All, ',')) {
    Piece = Piece.trim();
    if (Piece.empty())
      continue;
    StringRef Before = All.take_front(Piece.data() - All.data());
    size_t LastNewline = Before.rfind('\n');
    StirOperand Op;
    Op.Line = Line + unsigned(Before.count('\n'));
    Op.Column = LastNewline == StringRef::npos ? Column + unsigned(Before.size())
                                               : unsigned(Before.size() - LastNewline);
    StringRef Text = unquotedOperand(Piece);
    Op.Column += unsigned(Text.data() - Piece.data());
    Op.Text = Text.str();
    I.Uses.push_back(std::move(Op));
  }
  advance();
  return Error::success();
}

Error StirParser::parseBlockBody(StirBlock &BB) {
  for (;;) {
    if (Tok.isPunct('}') || Tok.is(StirToken::Kind::Caret) || Tok.is(StirToken::Kind::Eof) ||
        atFlatLabel())
      return Error::success();
    if (Tok.is(StirToken::Kind::Error))
      return error(Tok.Text);
    if (Tok.isIdent("Successors")) {
      advance();
      if (Error E = expectPunct(':'))
        return E;
      while (Tok.is(StirToken::Kind::Caret)) {
        BB.Successors.push_back(Tok.Text);
        advance();
        if (!Tok.isPunct(','))
          break;
        advance();
      }
      continue;
    }
    if (Error E = parseInst(BB))
      return E;
  }
}

/// At a flat label (`loop:`), the reference's other form of a block start
/// (in a file without `st.func`, and in a function's body): a name and a
/// colon.
bool StirParser::atFlatLabel() const {
  if (!Tok.is(StirToken::Kind::Ident) || Tok.isIdent("Successors"))
    return false;
  StirLexer Ahead = Lex;
  return Ahead.next().isPunct(':');
}

Error StirParser::parseBlocks(StirFunc &F, bool Flat) {
  auto AtEnd = [&] { return Flat ? Tok.is(StirToken::Kind::Eof) : Tok.isPunct('}'); };
  while (!AtEnd()) {
    StirBlock BB;
    BB.Line = Tok.Line;
    if (Tok.is(StirToken::Kind::Caret)) {
      BB.Name = Tok.Text;
      advance();
      if (Error E = expectPunct(':'))
        return E;
      if (Tok.isPunct('{')) {
        if (Error E = parseDict(BB.Attrs, nullptr))
          return E;
        if (Error E = BB.Attrs.checkKeys("a block", {"leading", "asm"}))
          return error(toString(std::move(E)));
      }
    } else if (atFlatLabel()) {
      BB.Name = Tok.Text;
      advance();
      advance(); // the colon
    } else if (!F.Blocks.empty() || Tok.is(StirToken::Kind::Eof)) {
      return error("expected '^block:' or '}'");
    } else {
      BB.Name = Flat ? "entry" : "bb0";
    }
    if (Error E = parseBlockBody(BB))
      return E;
    F.Blocks.push_back(std::move(BB));
  }
  return Error::success();
}

Error StirParser::parseFunc(StirModule &M,
                            std::vector<std::pair<std::string, unsigned>> &Pending) {
  advance(); // st.func
  if (!Tok.is(StirToken::Kind::At))
    return error("expected '@name' after st.func");
  StirFunc F;
  F.Name = Tok.Text;
  F.Preamble = std::move(Pending);
  Pending.clear();
  advance();
  if (Error E = expectPunct('('))
    return E;
  if (Error E = expectPunct(')'))
    return E;
  if (Tok.isIdent("attributes")) {
    advance();
    if (Error E = parseDict(F.Attrs, nullptr))
      return E;
    if (Error E = F.Attrs.checkKeys("st.func", {"kernel", "name", "position"}))
      return error(toString(std::move(E)));
  }
  if (Error E = expectPunct('{'))
    return E;
  if (Error E = parseBlocks(F, /*Flat=*/false))
    return E;
  advance();
  M.Funcs.push_back(std::move(F));
  return Error::success();
}

Expected<StirModule> StirParser::parse() {
  StirModule M;
  bool Wrapped = false;
  if (Tok.isIdent("st.module")) {
    Wrapped = true;
    advance();
    if (Tok.is(StirToken::Kind::At)) {
      M.Name = Tok.Text;
      advance();
    }
    if (Tok.isIdent("attributes")) {
      advance();
      if (Error E = parseDict(M.Attrs, nullptr))
        return std::move(E);
      if (Error E = M.Attrs.checkKeys("st.module", {"final_newline"}))
        return error(toString(std::move(E)));
    }
    if (Error E = expectPunct('{'))
      return std::move(E);
  }
  std::vector<std::pair<std::string, unsigned>> Pending;
  for (;;) {
    if (Tok.is(StirToken::Kind::Error))
      return error(Tok.Text);
    if (Wrapped && Tok.isPunct('}')) {
      advance();
      break;
    }
    if (Tok.is(StirToken::Kind::Eof)) {
      if (Wrapped)
        return error("expected '}' to close st.module");
      break;
    }
    if (Tok.isIdent("st.text")) {
      unsigned Line = Tok.Line;
      advance();
      if (!Tok.is(StirToken::Kind::String))
        return error("expected a string after st.text");
      Pending.emplace_back(Tok.Text, Line);
      advance();
      continue;
    }
    if (Tok.isIdent("st.func")) {
      if (Error E = parseFunc(M, Pending))
        return std::move(E);
      continue;
    }
    // The reference's flat form: no st.func, one function of instructions
    // (and `label:` block starts).
    if (!Wrapped && M.Funcs.empty() &&
        (Tok.is(StirToken::Kind::Ident) || Tok.is(StirToken::Kind::String) ||
         Tok.is(StirToken::Kind::Caret))) {
      StirFunc F;
      F.Name = "entry";
      F.Preamble = std::move(Pending);
      Pending.clear();
      if (Error E = parseBlocks(F, /*Flat=*/true))
        return std::move(E);
      M.Funcs.push_back(std::move(F));
      continue;
    }
    return error("expected st.func, st.text or '}'");
  }
  if (!Tok.is(StirToken::Kind::Eof))
    return error("unexpected text after the module");
  M.Trailing = std::move(Pending);
  return M;
}

} // namespace stinkytofu
