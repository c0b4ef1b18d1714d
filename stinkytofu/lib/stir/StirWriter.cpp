//===- StirWriter.cpp - Writing the textual IR (`.stir`) ------------------===//
#include "stinkytofu/stir/StirWriter.h"
#include "stinkytofu/asm/WordBranchSpelling.h"
#include "stinkytofu/mc/DerivedModifiers.h"
#include "stinkytofu/hw/HardwareModel.h"
#include "stinkytofu/stir/StirImplicitOperands.h"
#include "stinkytofu/stir/StirLexer.h"
#include "stinkytofu/mc/InstructionFormatter.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/Support/Regex.h"
#include <algorithm>
#include <list>

using namespace llvm;

namespace stinkytofu {

/// The operands as `.stir` prints them: the definitions, then the uses, each
/// use with the modifiers that follow it (`v7 dst_sel:DWORD`).
static std::pair<std::vector<std::string>, std::vector<std::string>>
printedOperands(const Instruction &I, unsigned Defs) {
  std::vector<std::string> DefSpellings, UsePieces;
  for (unsigned D = 0; D < Defs; ++D)
    DefSpellings.push_back(I.operand(D).spelling().str());
  for (unsigned U = Defs; U < I.numOperands(); ++U) {
    const Operand &Op = I.operand(U);
    if (Op.isModifier() && !UsePieces.empty())
      UsePieces.back() += (" " + Op.spelling()).str();
    else
      UsePieces.push_back(Op.spelling().str());
  }
  return {DefSpellings, UsePieces};
}

std::string rebuildStatement(StringRef Mnemonic, ArrayRef<std::string> Defs,
                             ArrayRef<std::string> Uses, SmallVectorImpl<size_t> *Offsets) {
  std::string Text = "\t";
  if (Offsets)
    Offsets->push_back(Text.size());
  Text += Mnemonic;
  bool First = true;
  for (ArrayRef<std::string> Pieces : {Defs, Uses})
    for (const std::string &Piece : Pieces) {
      Text += First ? " " : ", ";
      First = false;
      if (Offsets)
        Offsets->push_back(Text.size());
      Text += Piece;
    }
  return Text;
}

unsigned numPrintedDefs(const Instruction &I, const TargetInfo &TI) {
  if (I.kind() != InstKind::Machine || I.mcInsts().empty())
    return 0;
  // A VOPD pair (`v_dual_x ... :: v_dual_y ...`) names its second
  // definition after the `::`: only the leading one prints before `=`.
  unsigned Defs = TI.instrInfo().get(I.mcInsts().front().getOpcode()).getNumDefs();
  if (llvm::any_of(I.operands(), [](const Operand &Op) { return Op.spelling() == "::"; }))
    Defs = std::min(Defs, 1u);
  unsigned Leading = 0;
  for (const Operand &Op : I.operands()) {
    if (Op.isModifier() || Leading == Defs)
      break;
    ++Leading;
  }
  return Leading;
}

std::pair<unsigned, unsigned> defaultCycles(const Instruction &I, const TargetInfo &TI) {
  if (I.kind() == InstKind::Machine)
    return {TI.hardware().classify(I.mnemonic()).IssueCycles,
            TI.hardware().classify(I.mnemonic()).LatencyCycles};
  // A macro call costs what it expands to: the issue cycles add up, the
  // longest latency counts. Classes come from MC's opcode names.
  unsigned Issue = 0, Latency = 0;
  for (const MCInst &Inst : I.mcInsts()) {
    const InstClass &C =
        TI.hardware().classify(StringRef(TI.instrInfo().getName(Inst.getOpcode())).lower());
    Issue += C.IssueCycles;
    Latency = std::max(Latency, C.LatencyCycles);
  }
  return {std::max(Issue, 1u), std::max(Latency, 1u)};
}

bool isSyntheticBlockName(StringRef Name) {
  static const Regex BB("^bb[0-9]+$");
  return BB.match(Name);
}

namespace {

/// `@name` or `^name`; quoted (`@"my-kernel"`) when the name holds a
/// character a bare name cannot.
void printName(raw_ostream &OS, char Sigil, StringRef Name) {
  OS << Sigil;
  if (isBareStirName(Name))
    OS << Name;
  else
    printQuoted(OS, Name);
}

class StirPrinter {
public:
  StirPrinter(const Module &M, raw_ostream &OS) : M(M), OS(OS) {}
  void print();

private:
  void printFunction(const Function &F, int Position);
  std::string printBlock(const BasicBlock &BB, StringRef Carried);
  void printInstruction(const Instruction &I, StringRef Leading);
  void printText(StringRef Text, StringRef Indent) {
    OS << Indent << "st.text ";
    printQuoted(OS, Text);
    OS << "\n";
  }

  const Module &M;
  raw_ostream &OS;
  /// The function's word branches an edit moved (WordBranchSpelling.h):
  /// written with labels, as the `.s` writer writes them, so that the
  /// `.stir` read back reaches the same targets.
  RespelledWordBranches Respelled;
};

void StirPrinter::print() {
  OS << "st.module ";
  printName(OS, '@', M.name());
  if (M.endsWithoutNewline())
    OS << " attributes { final_newline = false }";
  OS << " {\n";
  // Text items travel with the function that follows them in the source, so
  // functions can print entry first and still give back the source order.
  // Directives a pass left after a function's last instruction are text
  // after the function too.
  std::vector<std::pair<const Function *, std::vector<StringRef>>> Order;
  std::vector<StringRef> Pending;
  std::list<std::string> Tails;
  for (const ModuleItem &Item : M.items()) {
    if (Item.K == ModuleItem::Kind::Text) {
      Pending.push_back(Item.Contents);
      continue;
    }
    Order.emplace_back(Item.Func, std::move(Pending));
    Pending.clear();
    if (!Item.Func->blocks().empty())
      if (std::string Tail = Item.Func->blocks().back().trailingText(); !Tail.empty())
        Pending.push_back(Tails.emplace_back(std::move(Tail)));
  }
  std::vector<const Function *> PrintOrder = M.functionsInPrintOrder();
  for (size_t P = 0; P < PrintOrder.size(); ++P) {
    int SourcePosition = -1;
    for (size_t S = 0; S < Order.size(); ++S)
      if (Order[S].first == PrintOrder[P])
        SourcePosition = int(S);
    for (StringRef T : Order[SourcePosition].second)
      printText(T, "  ");
    printFunction(*PrintOrder[P], SourcePosition == int(P) ? -1 : SourcePosition);
  }
  for (StringRef T : Pending)
    printText(T, "  ");
  OS << "}\n";
}

void StirPrinter::printFunction(const Function &F, int Position) {
  OS << "  st.func ";
  printName(OS, '@', F.isEntry() && &F == M.entry() ? StringRef("entry") : F.name());
  OS << "()";
  AttrDict Attrs;
  if (F.isEntry() && &F != M.entry())
    Attrs.add("kernel", AttrValue::boolean(true));
  if (F.isEntry() && &F == M.entry() && F.name() != M.name())
    Attrs.add("name", AttrValue::string(F.name().str()));
  if (Position >= 0)
    Attrs.add("position", AttrValue::integer(Position));
  if (!Attrs.empty()) {
    OS << " attributes ";
    Attrs.print(OS);
  }
  OS << " {\n";
  // What cannot be re-spelled is the `.s` writer's error; the `.stir`
  // keeps the words as read.
  llvm::Expected<RespelledWordBranches> R = respelledWordBranches(M, F);
  Respelled = R ? std::move(*R) : RespelledWordBranches();
  if (!R)
    llvm::consumeError(R.takeError());
  // A block's trailing directives print before the next block's label.
  std::string Carried;
  for (const BasicBlock &BB : F.blocks())
    Carried = printBlock(BB, Carried);
  OS << "  }\n";
}

/// Prints \p BB, with \p Carried (text left after the previous block's last
/// instruction) in front of its own leading text, and returns the text left
/// after its own last instruction.
std::string StirPrinter::printBlock(const BasicBlock &BB, StringRef Carried) {
  OS << "  ";
  printName(OS, '^', BB.name());
  OS << ":";
  AttrDict Attrs;
  if (std::string Leading = (Carried + BB.leadingText()).str(); !Leading.empty())
    Attrs.add("leading", AttrValue::string(Leading));
  std::string DefaultLabel = BB.hasLabel() ? (BB.label() + ":\n").str() : "";
  bool Ambiguous = BB.hasLabel() && isSyntheticBlockName(BB.label());
  bool LabelWritten = !BB.hasUnwrittenLabel() || Respelled.Labels.contains(BB.label());
  if (BB.labelText() != DefaultLabel || Ambiguous)
    Attrs.add("asm", AttrValue::string(BB.hasLabel() && BB.labelText().empty() && LabelWritten
                                           ? DefaultLabel
                                           : BB.labelText().str()));
  if (!Attrs.empty()) {
    OS << " ";
    Attrs.print(OS);
  }
  OS << "\n";
  // `.stir` has no directive items: a directive prints in the leading text
  // of the instruction after it, which is where the reader finds it.
  std::string Pending;
  for (const BlockItem &Item : BB.items()) {
    Pending += Item.leadingText();
    if (const auto *D = dyn_cast<Directive>(&Item)) {
      Pending += D->text();
      continue;
    }
    printInstruction(cast<Instruction>(Item), Pending);
    Pending.clear();
  }
  if (!BB.successors().empty()) {
    // The fall-through first, as the reference lists them; the reader
    // takes each edge's kind from the terminator, not from the order.
    SmallVector<size_t, 2> Order;
    for (size_t S = 0; S < BB.successors().size(); ++S)
      Order.push_back(S);
    std::stable_partition(Order.begin(), Order.end(), [&](size_t S) {
      return BB.successorKinds()[S] == EdgeKind::FallThrough;
    });
    OS << "    Successors: ";
    ListSeparator Comma;
    for (size_t S : Order)
      printName(OS << Comma, '^', BB.successors()[S]->name());
    OS << "\n";
  }
  return Pending;
}

void StirPrinter::printInstruction(const Instruction &I, StringRef Leading) {
  const TargetInfo &TI = M.target();
  unsigned Defs = numPrintedDefs(I, TI);
  auto [DefSpellings, Uses] = printedOperands(I, Defs);
  OS << "    ";
  for (unsigned D = 0; D < Defs; ++D)
    OS << (D ? ", " : "") << DefSpellings[D];
  if (Defs)
    OS << " = ";
  // The parentheses even when empty (`"st.s_endpgm"()`), as the reference
  // prints every instruction.
  OS << "\"st." << I.mnemonic() << "\"(" << join(Uses, ", ") << ")";
  AttrDict Attrs;
  auto [Issue, Latency] = defaultCycles(I, TI);
  Attrs.add("issueCycles", AttrValue::integer(I.issueCyclesOverride()
                                                  ? I.issueCyclesOverride()
                                                  : Issue));
  Attrs.add("latencyCycles", AttrValue::integer(I.latencyCyclesOverride()
                                                    ? I.latencyCyclesOverride()
                                                    : Latency));
  for (const auto &Mod : I.modifiers()) {
    if (Mod->isPrivate())
      continue;
    AttrDict ModAttrs;
    // A derived modifier prints what the instruction is now, recomputed.
    std::optional<AttrDict> Derived;
    if (Mod->isDerived())
      Derived = deriveModifier(Mod->kind(), I, TI);
    if (Derived)
      ModAttrs = std::move(*Derived);
    else
      Mod->toAttrs(ModAttrs);
    OS.flush();
    std::string Rendered;
    raw_string_ostream RS(Rendered);
    ModAttrs.print(RS);
    Attrs.add(("mod." + Mod->key()).str(), AttrValue::ident(Rendered));
  }
  if (!Leading.empty())
    Attrs.add("leading", AttrValue::string(Leading.str()));
  std::string Text = I.sourceText().str();
  if (!Text.empty() && Respelled.Lines.contains(I.location().Line) && I.getModifier<LabelData>())
    Text = respelledBranchText(I);
  else if (Text.empty() || I.isModified())
    Text = formatInstruction(I, AsmStyle::around(I)) + "\n";
  StringRef Line = StringRef(Text).drop_back(StringRef(Text).ends_with("\n") ? 1 : 0);
  // `asm` is printed unless the reader gives the text back from the
  // operands: it unquotes a quoted operand and respells (or leaves out) one
  // in the reference's register spellings (`VCC`, `SCC0`).
  std::vector<std::string> ReadUses;
  for (const std::string &Use : Uses)
    ReadUses.push_back(unquotedOperand(Use).str());
  auto ReaderRespells = [&](const std::string &Op) {
    return isReferenceRegisterSpelling(Op, TI);
  };
  if (Line != rebuildStatement(I.mnemonic(), DefSpellings, ReadUses) ||
      any_of(DefSpellings, ReaderRespells) || any_of(ReadUses, ReaderRespells))
    Attrs.add("asm", AttrValue::string(Line.str()));
  OS << " ";
  Attrs.print(OS);
  OS << "\n";
}

} // namespace

void writeStir(const Module &M, raw_ostream &OS) { StirPrinter(M, OS).print(); }

} // namespace stinkytofu
