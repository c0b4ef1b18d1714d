//===- StirReader.cpp - Reading the textual IR (`.stir`) ------------------===//
#include "stinkytofu/parse/StirReader.h"
#include "stinkytofu/hw/HardwareModel.h"
#include "stinkytofu/ir/BranchVocabulary.h"
#include "stinkytofu/parse/OperandParser.h"
#include "stinkytofu/parse/StirLexer.h"
#include "stinkytofu/print/StirWriter.h"
#include "stinkytofu/support/Diagnostics.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Regex.h"

using namespace llvm;

namespace stinkytofu {

namespace {

struct StirInst {
  std::string Mnemonic;
  std::vector<std::string> Defs;
  std::string Uses; // raw text between the parentheses
  AttrDict Attrs;
  std::vector<std::pair<std::string, AttrDict>> Mods;
  unsigned Line = 0, Column = 0;
};
struct StirBlock {
  std::string Name;
  AttrDict Attrs;
  std::vector<StirInst> Insts;
  std::vector<std::string> Successors;
  unsigned Line = 0;
};
struct StirFunc {
  std::string Name;
  AttrDict Attrs;
  std::vector<std::pair<std::string, unsigned>> Preamble; // text, line
  std::vector<StirBlock> Blocks;
};
struct StirModule {
  std::string Name;
  AttrDict Attrs;
  std::vector<StirFunc> Funcs;
  std::vector<std::pair<std::string, unsigned>> Trailing;
};

class StirParser {
public:
  StirParser(StringRef Buffer, StringRef File) : Lex(Buffer), File(File) { advance(); }
  Expected<StirModule> parse();
  StringRef lineText(unsigned L) const { return Lex.lineText(L); }

private:
  void advance() { Tok = Lex.next(); }
  Error error(const Twine &Msg) { return errorAt(Tok.Line, Tok.Column, Msg); }
  Error errorAt(unsigned Line, unsigned Col, const Twine &Msg) {
    return sourceError(File, Line, Col, Lex.lineText(Line), Msg);
  }
  Error expectPunct(char C) {
    if (!Tok.isPunct(C))
      return error(Twine("expected '") + Twine(C) + "'");
    advance();
    return Error::success();
  }
  Expected<AttrValue> parseValue();
  Error parseDict(AttrDict &Dict, std::vector<std::pair<std::string, AttrDict>> *Mods);
  Error parseFunc(StirModule &M, std::vector<std::pair<std::string, unsigned>> &Pending);
  Error parseBlockBody(StirBlock &BB);
  Error parseInst(StirBlock &BB);

  StirLexer Lex;
  StringRef File;
  StirToken Tok;
};

Expected<AttrValue> StirParser::parseValue() {
  if (Tok.is(StirToken::Kind::String)) {
    AttrValue V = AttrValue::string(Tok.Text);
    advance();
    return V;
  }
  if (Tok.isPunct('[')) {
    advance();
    std::vector<AttrValue> Elements;
    while (!Tok.isPunct(']')) {
      Expected<AttrValue> E = parseValue();
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

Error StirParser::parseDict(AttrDict &Dict,
                            std::vector<std::pair<std::string, AttrDict>> *Mods) {
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
      if (!Modifier::isKnownKey(ModKey))
        return errorAt(KeyLine, KeyCol, "unknown modifier '" + Key + "'");
      AttrDict ModAttrs;
      if (Error E = parseDict(ModAttrs, nullptr))
        return E;
      Mods->emplace_back(ModKey, std::move(ModAttrs));
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
    I.Defs.push_back(Tok.Text);
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
  advance();
  if (Tok.isPunct('(')) {
    if (!Lex.readBalanced(')', I.Uses))
      return error("unterminated operand list");
    // Quoted operands ("loop") are labels: assembly writes them bare.
    std::string Unquoted;
    for (StringRef Piece : splitTopLevel(I.Uses, ',')) {
      Piece = Piece.trim();
      if (Piece.size() >= 2 && Piece.front() == '"' && Piece.back() == '"')
        Piece = Piece.drop_front().drop_back();
      Unquoted += (Unquoted.empty() ? "" : ", ") + Piece.str();
    }
    I.Uses = std::move(Unquoted);
    advance();
  }
  if (Tok.isPunct('{'))
    if (Error E = parseDict(I.Attrs, &I.Mods))
      return E;
  if (Error E = I.Attrs.checkKeys("an instruction",
                                  {"issueCycles", "latencyCycles", "leading", "asm"}))
    return errorAt(I.Line, I.Column, toString(std::move(E)));
  BB.Insts.push_back(std::move(I));
  return Error::success();
}

Error StirParser::parseBlockBody(StirBlock &BB) {
  for (;;) {
    if (Tok.isPunct('}') || Tok.is(StirToken::Kind::Caret) || Tok.is(StirToken::Kind::Eof))
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
  while (!Tok.isPunct('}')) {
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
    } else if (!F.Blocks.empty() || Tok.is(StirToken::Kind::Eof)) {
      return error("expected '^block:' or '}'");
    } else {
      BB.Name = "bb0";
    }
    if (Error E = parseBlockBody(BB))
      return E;
    F.Blocks.push_back(std::move(BB));
  }
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
    return error("expected st.func, st.text or '}'");
  }
  if (!Tok.is(StirToken::Kind::Eof))
    return error("unexpected text after the module");
  M.Trailing = std::move(Pending);
  return M;
}

/// Puts the assembly text back together, remembering where each line of it
/// came from in the `.stir` file.
struct Synthesis {
  std::string Text;
  std::vector<unsigned> StirLineOf; // per synthesized line (1-based)
  std::vector<const StirFunc *> SourceOrder;

  void append(StringRef Chunk, unsigned StirLine) {
    for (char C : Chunk)
      if (C == '\n')
        StirLineOf.push_back(StirLine);
    Text += Chunk;
  }
};

Expected<Synthesis> synthesize(const StirModule &M, StirParser &P, StringRef File) {
  Synthesis S;
  S.StirLineOf.push_back(0);
  // Source order: functions with a position go there; the rest keep their
  // printed order around them.
  std::vector<const StirFunc *> Order(M.Funcs.size(), nullptr);
  std::vector<const StirFunc *> Floating;
  for (const StirFunc &F : M.Funcs) {
    const AttrValue *Pos = F.Attrs.find("position");
    if (Pos && Pos->kind() == AttrValue::Kind::Integer && Pos->asInteger() >= 0 &&
        size_t(Pos->asInteger()) < Order.size() && !Order[Pos->asInteger()])
      Order[Pos->asInteger()] = &F;
    else
      Floating.push_back(&F);
  }
  size_t Next = 0;
  for (const StirFunc *&Slot : Order)
    if (!Slot)
      Slot = Floating[Next++];
  S.SourceOrder = Order;

  for (const StirFunc *F : Order) {
    for (const auto &[Text, Line] : F->Preamble)
      S.append(Text, Line);
    for (const StirBlock &BB : F->Blocks) {
      if (const AttrValue *L = BB.Attrs.find("leading"))
        S.append(L->asString(), BB.Line);
      if (const AttrValue *A = BB.Attrs.find("asm"))
        S.append(A->asString(), BB.Line);
      else if (!isSyntheticBlockName(BB.Name))
        S.append(BB.Name + ":\n", BB.Line);
      for (const StirInst &I : BB.Insts) {
        if (const AttrValue *L = I.Attrs.find("leading"))
          S.append(L->asString(), I.Line);
        std::string Stmt;
        if (const AttrValue *A = I.Attrs.find("asm")) {
          Stmt = A->asString().str();
        } else {
          Stmt = rebuildStatement(I.Mnemonic, I.Defs, I.Uses);
        }
        if (StringRef(Stmt).contains('\n'))
          return sourceError(File, I.Line, I.Column, P.lineText(I.Line),
                             "an instruction's 'asm' must be a single line");
        S.append(Stmt + "\n", I.Line);
      }
    }
  }
  for (const auto &[Text, Line] : M.Trailing)
    S.append(Text, Line);
  const AttrValue *FinalNewline = M.Attrs.find("final_newline");
  if (FinalNewline && !FinalNewline->asBool() && StringRef(S.Text).ends_with("\n"))
    S.Text.pop_back();
  return S;
}

/// The block of \p Mod where \p SF starts: its labelled first block, else
/// the block of its first instruction (\p FirstInst indexes \p Insts).
BasicBlock *firstBlockOf(Module &Mod, const StirFunc &SF, size_t FirstInst,
                         const std::vector<Instruction *> &Insts) {
  if (SF.Blocks.empty())
    return nullptr;
  const StirBlock &First = SF.Blocks.front();
  if (!isSyntheticBlockName(First.Name) || First.Attrs.find("asm"))
    for (Function &F : Mod.functions())
      if (BasicBlock *BB = F.findBlock(First.Name))
        return BB;
  if (First.Insts.empty() || FirstInst >= Insts.size())
    return nullptr;
  Instruction *I = Insts[FirstInst];
  BasicBlock *BB = I->parent();
  return &BB->instructions().front() == I ? BB : nullptr;
}

/// The kind of the edge \p From -> \p To, read off \p From's terminator.
EdgeKind edgeKind(const Function &F, const BasicBlock &From, const BasicBlock &To) {
  auto It = std::find_if(F.blocks().begin(), F.blocks().end(),
                         [&](const BasicBlock &BB) { return &BB == &From; });
  bool IsNext = It != F.blocks().end() && std::next(It) != F.blocks().end() &&
                &*std::next(It) == &To;
  const Instruction *Last = From.empty() ? nullptr : &From.instructions().back();
  // A conditional branch to the next block has two edges to it: the branch
  // edge comes first, then the fall-through.
  bool Again = llvm::is_contained(From.successors(), &To);
  if (Last && isBranch(*Last) && !Again) {
    for (const std::string &Target : getBranchTargets(*Last))
      if (To.hasLabel() && To.label() == Target)
        return Last->facts().has(IF_ComputedTarget) ? EdgeKind::LongBranch : EdgeKind::Branch;
  }
  return IsNext ? EdgeKind::FallThrough : EdgeKind::Branch;
}

/// Lays `.stir` modifiers, cycle overrides and block splits over the module
/// the `.s` reader built from the synthesized text.
Error overlay(Module &Mod, const Synthesis &S, StirParser &P, StringRef File) {
  std::vector<Instruction *> Insts;
  for (Function &F : Mod.functions())
    for (BasicBlock &BB : F.blocks())
      for (Instruction &I : BB.instructions())
        Insts.push_back(&I);
  size_t Index = 0;
  for (const StirFunc *F : S.SourceOrder)
    for (const StirBlock &BB : F->Blocks)
      for (const StirInst &SI : BB.Insts) {
        if (Index >= Insts.size())
          return sourceError(File, SI.Line, SI.Column, P.lineText(SI.Line),
                             "statement did not assemble to an instruction");
        Instruction &I = *Insts[Index++];
        for (const auto &[Key, Attrs] : SI.Mods) {
          Expected<std::unique_ptr<Modifier>> M = Modifier::fromAttrs(Key, Attrs);
          if (!M)
            return sourceError(File, SI.Line, SI.Column, P.lineText(SI.Line),
                               "mod." + Key + ": " + toString(M.takeError()));
          I.setModifier(std::move(*M));
        }
        auto [DefaultIssue, DefaultLatency] = defaultCycles(I, Mod.target());
        int64_t Issue = 0, Latency = 0;
        if (const AttrValue *V = SI.Attrs.find("issueCycles"))
          Issue = V->asInteger();
        if (const AttrValue *V = SI.Attrs.find("latencyCycles"))
          Latency = V->asInteger();
        if ((Issue > 0 && unsigned(Issue) != DefaultIssue) ||
            (Latency > 0 && unsigned(Latency) != DefaultLatency))
          I.setCycleOverrides(Issue > 0 ? unsigned(Issue) : 0,
                              Latency > 0 ? unsigned(Latency) : 0);
      }
  if (Index != Insts.size())
    return createStringError(inconvertibleErrorCode(),
                             File + ": error: the assembly holds more instructions "
                                    "than the .stir file lists");

  // Unlabelled blocks (`^bb3`) start where the `.stir` file says.
  Index = 0;
  for (const StirFunc *F : S.SourceOrder)
    for (const StirBlock &SB : F->Blocks) {
      if (!SB.Insts.empty() && isSyntheticBlockName(SB.Name) && !SB.Attrs.find("asm") &&
          Index > 0) {
        Instruction *First = Insts[Index];
        BasicBlock *BB = First->parent();
        if (&BB->instructions().front() != First) {
          auto It = BB->instructions().begin();
          while (&*It != First)
            ++It;
          BB->parent()->splitBlock(*BB, It);
        }
      }
      Index += SB.Insts.size();
    }
  for (Function &F : Mod.functions())
    F.renumberBlocks();

  // Function boundaries: the text gives the kernels and `.type @function`
  // symbols; a `st.func` whose first block lies inside another function (a
  // callee split off by CallTargetRecoveryPass) becomes a function again.
  std::vector<Function *> FuncOf(S.SourceOrder.size(), nullptr);
  Index = 0;
  for (size_t K = 0; K < S.SourceOrder.size(); ++K) {
    const StirFunc &SF = *S.SourceOrder[K];
    BasicBlock *Start = firstBlockOf(Mod, SF, Index, Insts);
    size_t FirstInst = Index;
    for (const StirBlock &SB : SF.Blocks)
      Index += SB.Insts.size();
    if (!Start) {
      // No clear start (an empty unlabelled first block): the function that
      // holds its first instruction, left as the text made it.
      if (FirstInst < Index && FirstInst < Insts.size())
        FuncOf[K] = Insts[FirstInst]->parent()->parent();
      continue;
    }
    Function *Owner = Start->parent();
    if (&Owner->blocks().front() != Start) {
      std::string Name = SF.Name;
      if (const AttrValue *N = SF.Attrs.find("name"))
        Name = N->asString().str();
      Owner = &Mod.splitFunction(*Owner, *Start, Name);
      if (const AttrValue *Kernel = SF.Attrs.find("kernel"))
        Owner->setEntry(Kernel->asBool());
    }
    FuncOf[K] = Owner;
  }

  // Explicit CFG edges, within each function; the kind follows from the
  // block's terminator.
  for (size_t K = 0; K < S.SourceOrder.size(); ++K) {
    Function *F = FuncOf[K];
    if (!F)
      continue;
    StringMap<BasicBlock *> ByName;
    for (BasicBlock &BB : F->blocks())
      ByName.try_emplace(BB.name(), &BB);
    for (const StirBlock &SB : S.SourceOrder[K]->Blocks) {
      if (SB.Successors.empty())
        continue;
      BasicBlock *From = ByName.lookup(SB.Name);
      for (const std::string &To : SB.Successors) {
        BasicBlock *Target = ByName.lookup(To);
        if (!From || !Target)
          return sourceError(File, SB.Line, 1, P.lineText(SB.Line),
                             "successor '^" + To + "' is not a block of this function");
        From->addSuccessor(Target, edgeKind(*F, *From, *Target));
      }
    }
  }
  return Error::success();
}

} // namespace

Expected<std::unique_ptr<Module>> readStir(std::unique_ptr<MemoryBuffer> Buffer,
                                           const ReaderOptions &Opts) {
  std::string File = Buffer->getBufferIdentifier().str();
  StirParser P(Buffer->getBuffer(), File);
  Expected<StirModule> Parsed = P.parse();
  if (!Parsed)
    return Parsed.takeError();
  Expected<Synthesis> S = synthesize(*Parsed, P, File);
  if (!S)
    return S.takeError();
  ReaderOptions AsmOpts = Opts;
  AsmOpts.MapLine = [&](unsigned Line) -> std::optional<OriginalLine> {
    if (Line >= S->StirLineOf.size() || !S->StirLineOf[Line])
      return std::nullopt;
    unsigned L = S->StirLineOf[Line];
    return OriginalLine{File, L, 1, P.lineText(L).str()};
  };
  Expected<std::unique_ptr<Module>> M =
      readAsm(MemoryBuffer::getMemBufferCopy(S->Text, File), AsmOpts);
  if (!M)
    return M.takeError();
  if (!Parsed->Name.empty())
    (*M)->setName(Parsed->Name);
  if (Error E = overlay(**M, *S, P, File))
    return std::move(E);
  return M;
}

} // namespace stinkytofu
