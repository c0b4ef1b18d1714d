//===- Verifier.cpp - Structural invariants of the Asm IR -----------------===//
#include "stinkytofu/analysis/Verifier.h"
#include "stinkytofu/ir/BranchVocabulary.h"
#include "stinkytofu/ir/OperandMapping.h"
#include "stinkytofu/ir/StatementText.h"
#include "stinkytofu/support/Diagnostics.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/raw_ostream.h"
#include <map>
#include <optional>
#include <set>

using namespace llvm;

namespace stinkytofu {

namespace {

/// Collects diagnostics in `file:line:col: error: message` form.
class Reporter {
public:
  explicit Reporter(const Module &M) : M(M) {}

  /// A problem with \p I (located at it when it has a source location).
  void at(const Instruction &I, const Twine &Message) {
    SourceLocation L = I.location();
    if (!L.isValid()) {
      inContext(I.parent(), "'" + I.mnemonic() + "' (no source location): " + Message);
      return;
    }
    // The source text starts at the beginning of its line exactly when the
    // column is just past its indentation; only then can a caret be drawn.
    StringRef Line = I.sourceText().split('\n').first.rtrim("\r");
    size_t Indent = Line.size() - Line.ltrim(" \t").size();
    if (!Line.empty() && Indent + 1 == L.Column)
      Out += renderDiagnostic(M.fileName(), L.Line, L.Column, Line, SourceMgr::DK_Error,
                              Message);
    else
      Out += (M.fileName() + ":" + Twine(L.Line) + ":" + Twine(L.Column) +
              ": error: " + Message + "\n")
                 .str();
    ++Count;
  }

  /// A problem with a block as a whole (at its label when it has one).
  void at(const BasicBlock &BB, const Twine &Message) {
    SourceLocation L = BB.location();
    if (!L.isValid()) {
      inContext(&BB, Message);
      return;
    }
    Out += (M.fileName() + ":" + Twine(L.Line) + ":" + Twine(L.Column) + ": error: " +
            Message + "\n")
               .str();
    ++Count;
  }

  /// A problem with a block that has no location: named by function/block.
  void inContext(const BasicBlock *BB, const Twine &Message) {
    std::string Where;
    if (BB && BB->parent())
      Where = ("in function '" + BB->parent()->name() + "', block '" + BB->name() + "': ")
                  .str();
    else if (BB)
      Where = ("in block '" + BB->name() + "': ").str();
    Out += (M.fileName() + ": error: " + Where + Message + "\n").str();
    ++Count;
  }

  void plain(const Twine &Message) {
    Out += (M.fileName() + ": error: " + Message + "\n").str();
    ++Count;
  }

  Error finish() {
    if (!Count)
      return Error::success();
    return createStringError(inconvertibleErrorCode(), StringRef(Out).rtrim("\n"));
  }

private:
  const Module &M;
  std::string Out;
  unsigned Count = 0;
};

std::string blockList(const std::set<const BasicBlock *> &Blocks,
                      const Function &F) {
  // In layout order, so messages are deterministic.
  std::string S = "{";
  bool First = true;
  for (const BasicBlock &BB : F.blocks())
    if (Blocks.count(&BB)) {
      S += (First ? "^" : ", ^") + BB.name().str();
      First = false;
    }
  for (const BasicBlock *BB : Blocks)
    if (BB->parent() != &F) {
      S += (First ? "^" : ", ^") + BB->name().str() + " (another function)";
      First = false;
    }
  return S + "}";
}

void verifyParents(const Module &M, Reporter &R) {
  for (const Function &F : M.functions()) {
    if (F.parent() != &M)
      R.plain("function '" + F.name() + "' does not point at its module");
    for (const BasicBlock &BB : F.blocks()) {
      if (BB.parent() != &F)
        R.plain("block '" + BB.name() + "' of function '" + F.name() +
                "' does not point at its function");
      for (const Instruction &I : BB.instructions()) {
        if (I.parent() != &BB)
          R.at(I, "instruction does not point at its block '" + BB.name() + "'");
        if (I.hasStaleMC())
          R.at(I, "operands of '" + I.mnemonic() +
                      "' were replaced without new MC instructions (edit through "
                      "InstBuilder::setOperands or rewrite)");
      }
    }
  }
}

/// The keys under which an instruction's operand check is shared with its
/// repeats. The check reads the operands, the MC instruction and the target,
/// nothing else. The operands of an instruction as written (not modified by
/// a pass) are its statement text parsed for the target, except that a
/// register whose brackets hold a symbol (`v[vgprValuC+4]`) takes the
/// symbol's value where the statement stands. Only a symbol the file
/// assigns more than once can have two values there (ModuleAssembler::
/// reassignedSymbols); the operand parser looks up names its brackets hold,
/// so any it looks up that has two values is one of those that the text of
/// the brackets contains. The key is the text, the values of those symbols
/// at the statement's place and the MC instruction: its opcode and each
/// operand's kind and value (an expression by its kind alone, all the
/// mapping reads of one). A last operand that is an expression in
/// parentheses (`(label-.Lpc)&4294967295`, one per call of a call-dense
/// kernel) is left out of the text: the operand parser types it an
/// expression whatever it holds (expressionTail), and the mapping reads
/// only that.
class RepeatKeys {
public:
  explicit RepeatKeys(const Module &M) : Symbols(M.hasAssembler() ? &M.assembler() : nullptr) {}

  /// Writes \p I's key into \p Key; false when its check is not shared.
  bool keyOf(const Instruction &I, const MCInst &MI, std::string &Key) {
    if (I.isModified())
      return false;
    StringRef Text = I.sourceText();
    bool Symbolic = false;
    for (size_t Open = Text.find('['); Open != StringRef::npos; Open = Text.find('[', Open + 1)) {
      StringRef Inner = Text.substr(Open + 1).take_until([](char C) { return C == ']'; });
      Symbolic |= !all_of(Inner, [](char C) { return isDigit(C) || C == ':' || isSpace(C); });
    }
    Key.clear();
    auto Word = [&](uint64_t V) { Key.append(reinterpret_cast<const char *>(&V), sizeof(V)); };
    // The text's length first: no text is a prefix of another's key.
    size_t Tail = expressionTail(Text);
    StringRef Kept = Text.take_front(Tail);
    Word(Kept.size());
    Key += Kept;
    Key += Tail == Text.size() ? 't' : 'e';
    if (Symbolic) {
      // Operands parsed by another assembler took values this one does not
      // know.
      if (!Symbols || !Symbols->isFileText(Text))
        return false;
      ArrayRef<StringRef> Named = reassignedNamed(Text);
      if (!Named.empty()) {
        // Where the operand text starts, as the instruction splits it.
        StringRef Body = splitStatement(Text.rtrim("\r\n")).Body;
        for (StringRef Name : Named) {
          std::optional<int64_t> V = Symbols->symbolValueFor(Name, Body);
          Key += V ? 'v' : 'n';
          Word(V.value_or(0));
        }
      }
    }
    Word(MI.getOpcode());
    for (const MCOperand &Op : MI) {
      if (Op.isReg()) {
        Key += 'r';
        Word(Op.getReg().id());
      } else if (Op.isImm()) {
        Key += 'i';
        Word(Op.getImm());
      } else if (Op.isSFPImm()) {
        Key += 's';
        Word(Op.getSFPImm());
      } else if (Op.isDFPImm()) {
        Key += 'd';
        Word(Op.getDFPImm());
      } else if (Op.isExpr()) {
        Key += 'e';
      } else {
        return false;
      }
    }
    return true;
  }

private:
  static bool isExpressionChar(char C) {
    switch (C) {
    case '_': case '.': case '$': case '@': case '(': case ')': case '+': case '-':
    case '*': case '%': case '&': case '|': case '^': case '<': case '>': case '~':
    case '!': case '=':
      return true;
    default:
      return isAlnum(C);
    }
  }

  /// Where \p Text's last operand starts when it is an expression in
  /// parentheses, else the text's size. Its piece (splitTopLevel, after a
  /// comma at depth 0 outside strings and comments) is one word with no
  /// brackets, quotes, commas, white space or comment markers, starting
  /// with `(`: classifyOperand strips no modifier that would leave a
  /// register, immediate or call there, so it types the operand an
  /// expression whatever it says. The comma is found from the end: a text
  /// whose last character is not `)` or an expression's is not looked at
  /// further.
  static size_t expressionTail(StringRef Text) {
    if (!Text.contains('('))
      return Text.size(); // most statements, found at memchr's speed
    StringRef Code = Text;
    while (!Code.empty() && isSpace(Code.back()))
      Code = Code.drop_back();
    size_t Start = Code.size();
    while (Start && isExpressionChar(Code[Start - 1]))
      --Start;
    if (Start == Code.size() || Code[Start] != '(')
      return Text.size();
    size_t Comma = Start;
    while (Comma && (Code[Comma - 1] == ' ' || Code[Comma - 1] == '\t'))
      --Comma;
    if (!Comma || Code[Comma - 1] != ',')
      return Text.size();
    --Comma;
    // The tail's parentheses balance and never close one the text before
    // opened; that text has no quote or comment marker and leaves no
    // parenthesis or bracket open at the comma.
    int Depth = 0;
    for (char C : Code.drop_front(Start)) {
      Depth += C == '(' ? 1 : C == ')' ? -1 : 0;
      if (Depth < 0)
        return Text.size();
    }
    if (Depth)
      return Text.size();
    for (char C : Code.take_front(Comma)) {
      if (C == '"' || C == '\'' || C == ';' || C == '/' || C == '#')
        return Text.size();
      Depth += (C == '(' || C == '[') ? 1 : (C == ')' || C == ']') ? -1 : 0;
      if (Depth < 0)
        return Text.size();
    }
    return Depth ? Text.size() : Comma;
  }

  /// The symbols assigned more than once whose names the brackets of
  /// \p Text contain, once per distinct text, in the assembler's order.
  /// Texts repeat their brackets (`v[vgprValuC+4:vgprValuC+4+1]`) far more
  /// than whole: the names each bracket's inside contains are searched once
  /// per distinct inside (namedIn).
  ArrayRef<StringRef> reassignedNamed(StringRef Text) {
    auto [It, New] = Named.try_emplace(Text);
    if (!New)
      return It->second;
    ArrayRef<StringRef> Names = Symbols->reassignedSymbols();
    BitVector Contained(Names.size());
    for (size_t Open = Text.find('['); Open != StringRef::npos; Open = Text.find('[', Open + 1))
      Contained |= namedIn(Text.substr(Open + 1).take_until([](char C) { return C == ']'; }));
    for (unsigned K : Contained.set_bits())
      It->second.push_back(Names[K]);
    return It->second;
  }

  /// Which reassigned symbols (by index) the bracket inside \p Inner
  /// contains.
  const BitVector &namedIn(StringRef Inner) {
    auto [It, New] = NamedInBrackets.try_emplace(Inner);
    if (New) {
      ArrayRef<StringRef> Names = Symbols->reassignedSymbols();
      It->second.resize(Names.size());
      for (unsigned K = 0; K < Names.size(); ++K)
        if (Inner.contains(Names[K]))
          It->second.set(K);
    }
    return It->second;
  }

  const ModuleAssembler *Symbols;
  StringMap<SmallVector<StringRef, 2>> Named;
  StringMap<BitVector> NamedInBrackets;
};

/// Every register an instruction names in its text is a register of its MC
/// instruction, in the same order: what a pass reads from the operands is
/// what the hardware executes. A Tensile kernel repeats most of its
/// statements (one text in four is new): a repeat of a statement that
/// passed is not parsed again (RepeatKeys).
void verifyOperandsAgreeWithMC(const Module &M, Reporter &R) {
  const TargetInfo &TI = M.target();
  RepeatKeys Keys(M);
  StringSet<> Passed;
  std::string Key;
  for (const Function &F : M.functions())
    for (const BasicBlock &BB : F.blocks())
      for (const Instruction &I : BB.instructions()) {
        if (I.kind() != InstKind::Machine || I.hasStaleMC() || I.mcInsts().size() != 1)
          continue;
        bool Keyed = Keys.keyOf(I, I.mcInsts().front(), Key);
        if (Keyed && Passed.contains(Key))
          continue;
        SmallVector<std::optional<unsigned>, 8> Map = mapOperandsToMC(I, TI);
        bool Agrees = true;
        for (unsigned K = 0; K < I.numOperands(); ++K) {
          const Operand &Op = I.operand(K);
          if (Op.isRegister() && Op.firstReg() && !Map[K]) {
            Agrees = false;
            R.at(I, "operand " + Twine(K) + " '" + Op.spelling() + "' of '" +
                        I.mnemonic() + "' is not a register of its MC instruction");
          }
        }
        if (Keyed && Agrees)
          Passed.insert(Key);
      }
}

void verifyLabels(const Module &M, Reporter &R) {
  StringMap<const BasicBlock *> Seen;
  for (const Function &F : M.functions())
    for (const BasicBlock &BB : F.blocks()) {
      if (!BB.hasLabel())
        continue;
      auto [It, Inserted] = Seen.try_emplace(BB.label(), &BB);
      if (Inserted)
        continue;
      const BasicBlock &First = *It->second;
      std::string Where = First.location().isValid()
                              ? (" (first defined at line " +
                                 Twine(First.location().Line) + ")")
                                    .str()
                              : "";
      R.at(BB, "label '" + BB.label() + "' is defined more than once" + Where);
    }
}

void verifyBranchTargets(const Module &M, Reporter &R) {
  for (const Function &F : M.functions())
    for (const BasicBlock &BB : F.blocks())
      for (const Instruction &I : BB.instructions()) {
        if (!isBranch(I))
          continue;
        for (const std::string &Target : getBranchTargets(I)) {
          StringRef Label = M.resolveAlias(Target);
          if (F.findBlock(Label))
            continue;
          const Function *Owner = nullptr;
          for (const Function &Other : M.functions())
            if (&Other != &F && Other.findBlock(Label))
              Owner = &Other;
          if (Owner)
            R.at(I, "branch target '" + Label + "' is a label of function '" +
                        Owner->name() + "', not of '" + F.name() + "'");
          else
            R.at(I, "branch target '" + Label + "' is not a label in this module");
        }
      }
}

/// The successors the CFG contract gives a block, from its last instruction.
std::set<const BasicBlock *> contractSuccessors(const Function &F,
                                                Function::BlockList::const_iterator It) {
  std::set<const BasicBlock *> Succs;
  const BasicBlock &BB = *It;
  const BasicBlock *Next = std::next(It) == F.blocks().end() ? nullptr : &*std::next(It);
  const Instruction *Last = BB.empty() ? nullptr : &BB.instructions().back();
  if (Last && isBranch(*Last)) {
    for (const std::string &Target : getBranchTargets(*Last)) {
      const Module *M = F.parent();
      if (const BasicBlock *To = F.findBlock(M ? M->resolveAlias(Target) : Target))
        Succs.insert(To);
    }
    if (isConditionalBranch(*Last) && Next)
      Succs.insert(Next);
    return Succs;
  }
  if (Last && isProgramEnd(*Last))
    return Succs;
  if (Next)
    Succs.insert(Next);
  return Succs;
}

void verifyCFG(const Function &F, Reporter &R) {
  bool HasEdges = false;
  for (const BasicBlock &BB : F.blocks())
    HasEdges |= !BB.successors().empty() || !BB.predecessors().empty();
  if (!HasEdges)
    return;

  // Predecessor lists mirror successor lists (as multisets of edges).
  std::map<std::pair<const BasicBlock *, const BasicBlock *>, int> EdgeBalance;
  for (const BasicBlock &BB : F.blocks()) {
    if (BB.successors().size() != BB.successorKinds().size())
      R.inContext(&BB, "successor and edge-kind lists differ in length");
    for (const BasicBlock *S : BB.successors())
      ++EdgeBalance[{&BB, S}];
    for (const BasicBlock *P : BB.predecessors())
      --EdgeBalance[{P, &BB}];
  }
  for (auto &[Edge, Balance] : EdgeBalance)
    if (Balance != 0)
      R.inContext(Edge.first,
                  "edge ^" + Edge.first->name() + " -> ^" + Edge.second->name() +
                      (Balance > 0 ? " is missing from the predecessors of ^"
                                   : " is listed as a predecessor of ^") +
                      Edge.second->name() +
                      (Balance > 0 ? "" : " but is not a successor edge"));

  for (auto It = F.blocks().begin(); It != F.blocks().end(); ++It) {
    const BasicBlock &BB = *It;
    // Blocks end at branches and program ends.
    for (auto I = BB.instructions().begin(); I != BB.instructions().end(); ++I)
      if (std::next(I) != BB.instructions().end() && (isBranch(*I) || isProgramEnd(*I)))
        R.at(*I, "'" + I->mnemonic() + "' ends block '" + BB.name() +
                     "' but instructions follow it in the same block (CFG not rebuilt?)");

    std::set<const BasicBlock *> Actual(BB.successors().begin(), BB.successors().end());
    for (const BasicBlock *S : Actual)
      if (S->parent() != &F)
        R.inContext(&BB, "edge to block '" + S->name() + "' of another function");
    std::set<const BasicBlock *> Expected = contractSuccessors(F, It);
    if (Actual == Expected)
      continue;
    std::string Message = ("block '" + BB.name() + "' has successors " +
                           blockList(Actual, F) + " but the CFG contract gives " +
                           blockList(Expected, F))
                              .str();
    if (!BB.empty())
      R.at(BB.instructions().back(),
           Message + " for '" + BB.instructions().back().mnemonic() + "'");
    else
      R.at(BB, Message + " for an empty block");
  }
}

} // namespace

Error verifyModule(const Module &M) {
  Reporter R(M);
  verifyParents(M, R);
  verifyOperandsAgreeWithMC(M, R);
  verifyLabels(M, R);
  verifyBranchTargets(M, R);
  for (const Function &F : M.functions())
    verifyCFG(F, R);
  return R.finish();
}

} // namespace stinkytofu
