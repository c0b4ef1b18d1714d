//===- InstBuilder.cpp - Creating instructions without re-parsing ---------===//
#include "stinkytofu/mc/InstBuilder.h"
#include "stinkytofu/hw/HardwareModel.h"
#include "stinkytofu/hw/VgprMsb.h"
#include "stinkytofu/hw/VgprSpelling.h"
#include "llvm/ADT/StringSwitch.h"
#include "stinkytofu/mc/AssemblerState.h"
#include "stinkytofu/ir/OperandMapping.h"
#include "stinkytofu/mc/InstructionFormatter.h"
#include "stinkytofu/mc/OperandParser.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/MC/MCAsmInfo.h"
#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCExpr.h"
#include "llvm/MC/MCSymbol.h"

using namespace llvm;

namespace stinkytofu {

// --- Operands ------------------------------------------------------------

BuildOperand BuildOperand::reg(RegFile File, unsigned First, unsigned Count) {
  BuildOperand Op;
  Op.K = Kind::Register;
  Op.File = File;
  Op.First = First;
  Op.Count = Count ? Count : 1;
  return Op;
}

BuildOperand BuildOperand::special(StringRef Name) {
  BuildOperand Op;
  Op.K = Kind::Special;
  Op.Name = Name.str();
  return Op;
}

BuildOperand BuildOperand::imm(int64_t Value) {
  BuildOperand Op;
  Op.K = Kind::Immediate;
  Op.Value = Value;
  return Op;
}

BuildOperand BuildOperand::hexImm(uint64_t Value, bool LowerCase) {
  BuildOperand Op = imm(int64_t(Value));
  Op.Hex = true;
  Op.LowerHex = LowerCase;
  return Op;
}

BuildOperand BuildOperand::mcReg(MCRegister Reg, const TargetInfo &TI) {
  if (std::optional<RegisterRange> R = registerRangeOf(Reg, TI))
    return reg(R->File, R->First, R->Count);
  return special(TI.asmName(Reg));
}

BuildOperand BuildOperand::label(StringRef Name) {
  BuildOperand Op;
  Op.K = Kind::Label;
  Op.Name = Name.str();
  return Op;
}

BuildOperand BuildOperand::expression(const MCExpr *E, std::string Spelling) {
  BuildOperand Op;
  Op.K = Kind::Expression;
  Op.Expr = E;
  Op.Name = std::move(Spelling);
  return Op;
}

BuildOperand BuildOperand::text(StringRef Spelling) {
  BuildOperand Op;
  Op.K = Kind::Text;
  Op.Name = Spelling.str();
  return Op;
}

BuildOperand BuildOperand::hwreg(StringRef Name, unsigned Offset, unsigned Width) {
  return text(("hwreg(" + Name + ", " + Twine(Offset) + ", " + Twine(Width) + ")").str());
}

BuildOperand BuildOperand::hwreg(StringRef Name) { return text(("hwreg(" + Name + ")").str()); }

BuildOperand BuildOperand::scope(MemoryScope S) {
  static constexpr StringRef Names[] = {"SCOPE_CU", "SCOPE_SE", "SCOPE_DEV", "SCOPE_SYS"};
  BuildOperand Op;
  Op.K = Kind::Modifier;
  Op.Name = ("scope:" + Names[unsigned(S)]).str();
  return Op;
}

BuildOperand BuildOperand::waitcnt(const WaitcntFields &Fields) {
  SmallVector<std::string, 3> Parts;
  auto Add = [&](StringRef Counter, const std::optional<unsigned> &N) {
    if (N)
      Parts.push_back((Counter + "(" + Twine(*N) + ")").str());
  };
  Add("vmcnt", Fields.VmCnt);
  Add("expcnt", Fields.ExpCnt);
  Add("lgkmcnt", Fields.LgkmCnt);
  // No field at all: wait for nothing, which MC spells as the full mask.
  return text(Parts.empty() ? "0xffff" : join(Parts, " "));
}

InstSpec waitSpec(const WaitStatement &W) {
  InstSpec S{W.Mnemonic.str(), {}};
  if (W.NullFirst)
    S.Operands.push_back(BuildOperand::special("null"));
  if (W.Immediate) {
    S.Operands.push_back(BuildOperand::hexImm(*W.Immediate));
    return S;
  }
  WaitcntFields F;
  for (auto [Name, Count] : W.Fields) {
    std::optional<unsigned> *Slot = StringSwitch<std::optional<unsigned> *>(Name)
                                        .Case("vmcnt", &F.VmCnt)
                                        .Case("expcnt", &F.ExpCnt)
                                        .Case("lgkmcnt", &F.LgkmCnt)
                                        .Default(nullptr);
    if (!Slot) // a counter s_waitcnt does not name: as the statement writes it
      return {W.Mnemonic.str(), {BuildOperand::text(StringRef(W.text()).split(' ').second)}};
    *Slot = Count;
  }
  S.Operands.push_back(BuildOperand::waitcnt(F));
  return S;
}

InstSpec modelStatementSpec(StringRef Statement) {
  auto [Mnemonic, Operands] = Statement.trim().split(' ');
  InstSpec S{Mnemonic.str(), {}};
  if (!Operands.trim().empty())
    S.Operands.push_back(BuildOperand::text(Operands.trim()));
  return S;
}

void BuildOperand::appendKey(SmallVectorImpl<char> &Key) const {
  auto Append = [&](const auto &V) {
    const char *Bytes = reinterpret_cast<const char *>(&V);
    Key.append(Bytes, Bytes + sizeof(V));
  };
  Key.push_back(char(K));
  switch (K) {
  case Kind::Register:
    Key.push_back(char(File));
    Key.push_back(char(Mods));
    Append(First);
    Append(Count);
    return;
  case Kind::Immediate:
    Key.push_back(char(Hex) | char(LowerHex) << 1);
    Append(Value);
    return;
  case Kind::Special:
  case Kind::Label:
  case Kind::Expression: // its symbols are the module's, named as printed
  case Kind::Modifier:
  case Kind::Text:
    Key.append(Name.begin(), Name.end());
    Key.push_back('\0');
    return;
  }
}

void appendSpecKey(StringRef Mnemonic, ArrayRef<BuildOperand> Operands,
                   SmallVectorImpl<char> &Key) {
  Key.append(Mnemonic.begin(), Mnemonic.end());
  Key.push_back('\0');
  for (const BuildOperand &Op : Operands)
    Op.appendKey(Key);
}

BuildOperand BuildOperand::depctr(const DepCtrFields &Fields) {
  SmallVector<std::string, 7> Parts;
  auto Add = [&](StringRef Field, const std::optional<unsigned> &N) {
    if (N)
      Parts.push_back(("depctr_" + Field + "(" + Twine(*N) + ")").str());
  };
  Add("va_vdst", Fields.VaVdst);
  Add("va_sdst", Fields.VaSdst);
  Add("va_ssrc", Fields.VaSsrc);
  Add("va_vcc", Fields.VaVcc);
  Add("sa_sdst", Fields.SaSdst);
  Add("vm_vsrc", Fields.VmVsrc);
  Add("hold_cnt", Fields.HoldCnt);
  // No field: wait for nothing, every field at its maximum.
  return text(Parts.empty() ? "0xffff" : join(Parts, " "));
}

static StringRef aluDependencyName(AluDependency D) {
  static constexpr StringRef Names[] = {
      "NO_DEP",      "VALU_DEP_1",  "VALU_DEP_2",  "VALU_DEP_3",
      "VALU_DEP_4",  "TRANS32_DEP_1", "TRANS32_DEP_2", "TRANS32_DEP_3",
      "FMA_ACCUM_CYCLE_1", "SALU_CYCLE_1", "SALU_CYCLE_2", "SALU_CYCLE_3"};
  return Names[unsigned(D)];
}

BuildOperand BuildOperand::delayAlu(const DelayAluFields &Fields) {
  std::string Spelling = ("instid0(" + aluDependencyName(Fields.First) + ")").str();
  if (Fields.Second != AluDependency::NoDep) {
    static constexpr StringRef Skips[] = {"SAME", "NEXT", "SKIP_1", "SKIP_2", "SKIP_3",
                                          "SKIP_4"};
    // An out-of-range skip is spelled as a number, which MC rejects.
    std::string Skip = Fields.Skip < std::size(Skips) ? Skips[Fields.Skip].str()
                                                      : std::to_string(Fields.Skip);
    // MC prints no instskip(SAME) (fields at 0 are left out); neither do we.
    if (Fields.Skip)
      Spelling += " | instskip(" + Skip + ")";
    Spelling += " | instid1(" + aluDependencyName(Fields.Second).str() + ")";
  }
  return text(Spelling);
}

BuildOperand BuildOperand::withSourceModifiers(unsigned Mask) const {
  BuildOperand Op = *this;
  Op.Mods = uint8_t(Mask);
  return Op;
}

BuildOperand BuildOperand::copyOf(const Operand &O) {
  if (O.isRegister() && O.firstReg() && !O.isSymbolicRegister() && O.half() == RegHalf::Full) {
    BuildOperand R = reg(O.regFile(), *O.firstReg(), O.regCount())
                         .withSourceModifiers(O.sourceModifiers());
    // A register the source spelled its own way (`v[0]`) keeps its spelling.
    if (R.spelling() == O.spelling())
      return R;
  }
  if (O.isImmediate() && O.immediate() && imm(*O.immediate()).spelling() == O.spelling())
    return imm(*O.immediate());
  return text(O.spelling());
}

static StringRef filePrefix(RegFile File) {
  switch (File) {
  case RegFile::VGPR:
    return "v";
  case RegFile::SGPR:
    return "s";
  case RegFile::AGPR:
    return "a";
  case RegFile::TTMP:
    return "ttmp";
  case RegFile::None:
    break;
  }
  return "";
}

std::string BuildOperand::spelling() const {
  switch (K) {
  case Kind::Register: {
    std::string S = Count == 1 ? (filePrefix(File) + Twine(First)).str()
                               : (filePrefix(File) + "[" + Twine(First) + ":" +
                                  Twine(First + Count - 1) + "]")
                                     .str();
    if (Mods & SrcModSext)
      S = "sext(" + S + ")";
    if (Mods & SrcModAbs)
      S = "|" + S + "|";
    if (Mods & SrcModNeg)
      S = "-" + S;
    return S;
  }
  case Kind::Immediate:
    return Hex ? "0x" + utohexstr(uint64_t(Value), LowerHex) : itostr(Value);
  case Kind::Special:
  case Kind::Label:
  case Kind::Expression:
  case Kind::Modifier:
  case Kind::Text:
    return Name;
  }
  return Name;
}

// --- Shapes and placeholders ----------------------------------------------

namespace {

/// The symbols prototypes are assembled with for a label and for an
/// expression (in the builder's own context).
constexpr StringLiteral LabelPlaceholder = ".Lstinkytofu_builder_label";
constexpr StringLiteral ExpressionPlaceholder = ".Lstinkytofu_builder_expression";

bool refersTo(const MCOperand &MO, StringRef Symbol) {
  const auto *Ref = MO.isExpr() ? dyn_cast<MCSymbolRefExpr>(MO.getExpr()) : nullptr;
  return Ref && Ref->getSymbol().getName() == Symbol;
}

/// Immediates of one class share an encoding form: an inline constant, or a
/// 32-bit or a wider literal.
char immediateClass(int64_t V) {
  if (V >= -16 && V <= 64)
    return 'i';
  return isInt<32>(V) || isUInt<32>(V) ? 'l' : 'w';
}

/// What a prototype is keyed by: the mnemonic and, per operand, what kind of
/// value it is (values themselves only for text and special registers).
SmallString<64> shapeKey(StringRef Mnemonic, ArrayRef<BuildOperand> Ops) {
  SmallString<64> Key;
  for (char C : Mnemonic)
    Key.push_back(toLower(C));
  for (const BuildOperand &Op : Ops) {
    Key.push_back('\x1f');
    Key.push_back(char(Op.kind()));
    switch (Op.kind()) {
    case BuildOperand::Kind::Register:
      Key.push_back(char(Op.regFile()));
      Key.push_back(char(Op.sourceModifiers()));
      Key.push_back(char(Op.count())); // at most 32
      break;
    case BuildOperand::Kind::Immediate:
      Key.push_back(immediateClass(Op.immediate()));
      break;
    case BuildOperand::Kind::Label:
    case BuildOperand::Kind::Expression:
      break;
    case BuildOperand::Kind::Special:
    case BuildOperand::Kind::Modifier:
    case BuildOperand::Kind::Text:
      Key.append(Op.name());
      Key.push_back('\0');
      break;
    }
  }
  return Key;
}

/// The operands a prototype is assembled with: registers and immediates get
/// values no other operand of the statement has, so that each can be found
/// in the MC instruction. Tuples are aligned to their size (up to 4), as the
/// register files require.
std::vector<BuildOperand> placeholders(ArrayRef<BuildOperand> Ops) {
  std::vector<BuildOperand> Out;
  unsigned NextReg[5] = {0, 0, 0, 0, 0};
  // Literals fit 16 bits, so that a shape of an instruction taking a 16-bit
  // immediate (`s_ttracedata_imm 0x3f80`) has a prototype too.
  int64_t NextInline = 1, NextLiteral = 0x4501, NextWide = 0x123456789ab;
  for (const BuildOperand &Op : Ops) {
    switch (Op.kind()) {
    case BuildOperand::Kind::Register: {
      unsigned &Next = NextReg[unsigned(Op.regFile())];
      unsigned Align = Op.count() >= 4 ? 4 : Op.count() >= 2 ? 2 : 1;
      Next = alignTo(Next, Align);
      Out.push_back(
          BuildOperand::reg(Op.regFile(), Next, Op.count()).withSourceModifiers(Op.sourceModifiers()));
      Next += Op.count();
      break;
    }
    case BuildOperand::Kind::Immediate:
      switch (immediateClass(Op.immediate())) {
      case 'i':
        Out.push_back(BuildOperand::imm(NextInline++));
        break;
      case 'l':
        Out.push_back(BuildOperand::imm(NextLiteral++));
        break;
      default:
        Out.push_back(BuildOperand::imm(NextWide++));
        break;
      }
      break;
    case BuildOperand::Kind::Label:
      Out.push_back(BuildOperand::label(LabelPlaceholder));
      break;
    case BuildOperand::Kind::Expression:
      // A symbol: MC holds it as an expression operand, as it holds any
      // expression there.
      Out.push_back(BuildOperand::label(ExpressionPlaceholder));
      break;
    case BuildOperand::Kind::Special:
    case BuildOperand::Kind::Modifier:
    case BuildOperand::Kind::Text:
      Out.push_back(Op);
      break;
    }
  }
  return Out;
}

/// The MC register of \p Count registers of \p File from \p First
/// (`SGPR4_SGPR5`), or an invalid one.
MCRegister mcRegister(const TargetInfo &TI, RegFile File, unsigned First, unsigned Count) {
  StringRef Name;
  switch (File) {
  case RegFile::VGPR:
    Name = "VGPR";
    break;
  case RegFile::SGPR:
    Name = "SGPR";
    break;
  case RegFile::AGPR:
    Name = "AGPR";
    break;
  case RegFile::TTMP:
    Name = "TTMP";
    break;
  case RegFile::None:
    return MCRegister();
  }
  SmallVector<std::string, 4> Parts;
  for (unsigned I = 0; I < Count; ++I)
    Parts.push_back((Name + Twine(First + I)).str());
  return TI.findRegister(join(Parts, "_"));
}

} // namespace

/// Where each typed operand sits in the MC instruction(s).
struct InstBuilder::Prototype {
  InstKind Kind = InstKind::Machine;
  SmallVector<MCInst, 1> Insts;
  /// Per operand, the (instruction, MC operand) positions holding it;
  /// empty for operands that are copied as they are (text, specials).
  std::vector<SmallVector<std::pair<unsigned, unsigned>, 2>> Positions;
  /// False when some register, immediate or label was not found: every new
  /// instance is assembled from its text.
  bool Patchable = true;
};

// --- The builder -----------------------------------------------------------

InstBuilder::InstBuilder(Module &M)
    : M(M), Target(M.target()),
      Scratch(std::make_unique<AssemblerState>(M.targetPtr())) {
  if (!M.hasAssembler())
    M.setAssembler(std::make_unique<AssemblerState>(M.targetPtr()));
}

InstBuilder::~InstBuilder() = default;

Instruction InstBuilder::describe(StringRef Mnemonic, ArrayRef<BuildOperand> Operands,
                                  InstKind Kind) const {
  std::vector<Operand> Typed;
  Typed.reserve(Operands.size());
  auto NoSymbols = [](StringRef) -> std::optional<int64_t> { return std::nullopt; };
  for (const BuildOperand &Op : Operands) {
    std::string Spelling = Op.spelling();
    switch (Op.kind()) {
    case BuildOperand::Kind::Register: {
      Operand R(OperandKind::Register, std::move(Spelling));
      R.setRegister(Op.regFile(), Op.first(), Op.count(), /*IsSymbolic=*/false);
      R.setSourceModifiers(Op.sourceModifiers(), RegHalf::Full);
      Typed.push_back(std::move(R));
      break;
    }
    case BuildOperand::Kind::Immediate: {
      Operand I(OperandKind::Immediate, std::move(Spelling));
      I.setImmediate(Op.immediate());
      Typed.push_back(std::move(I));
      break;
    }
    case BuildOperand::Kind::Label:
      Typed.emplace_back(OperandKind::Symbol, std::move(Spelling));
      break;
    case BuildOperand::Kind::Expression:
      Typed.emplace_back(OperandKind::Expression, std::move(Spelling));
      break;
    case BuildOperand::Kind::Modifier:
      Typed.emplace_back(OperandKind::Modifier, std::move(Spelling));
      break;
    case BuildOperand::Kind::Special:
    case BuildOperand::Kind::Text:
      for (const Operand &Part : parseOperands(Spelling, Target, NoSymbols))
        Typed.push_back(Part);
      break;
    }
  }
  return Instruction(Kind, Mnemonic.lower(), std::move(Typed));
}

Expected<SmallVector<MCInst, 1>> InstBuilder::assembleText(StringRef Text,
                                                         ModuleAssembler &In) {
  ++Assembled;
  Expected<SmallVector<MCInst, 1>> Insts = In.assembleStatement(Text);
  if (!Insts)
    return createStringError(inconvertibleErrorCode(),
                             "cannot assemble '" + Text.trim() + "': " +
                                 toString(Insts.takeError()));
  return Insts;
}

InstBuilder::Prototype InstBuilder::makePrototype(StringRef Mnemonic,
                                                  ArrayRef<BuildOperand> Placeholders,
                                                  SmallVector<MCInst, 1> Insts) {
  Prototype P;
  P.Kind = Insts.size() > 1 ? InstKind::MacroCall : InstKind::Machine;
  P.Insts = std::move(Insts);
  P.Positions.resize(Placeholders.size());
  for (auto [OpIndex, Op] : enumerate(Placeholders)) {
    auto Matches = [&](const MCOperand &MO) {
      switch (Op.kind()) {
      case BuildOperand::Kind::Register:
        return MO.isReg() &&
               MO.getReg() == mcRegister(Target, Op.regFile(), Op.first(), Op.count());
      case BuildOperand::Kind::Immediate:
        return MO.isImm() && MO.getImm() == Op.immediate();
      case BuildOperand::Kind::Label: // a label's or an expression's placeholder
        return refersTo(MO, Op.name());
      default:
        return false;
      }
    };
    if (Op.kind() == BuildOperand::Kind::Special || Op.kind() == BuildOperand::Kind::Modifier ||
        Op.kind() == BuildOperand::Kind::Text)
      continue;
    for (auto [InstIndex, Inst] : enumerate(P.Insts))
      for (unsigned I = 0; I < Inst.getNumOperands(); ++I)
        if (Matches(Inst.getOperand(I)))
          P.Positions[OpIndex].emplace_back(InstIndex, I);
    if (P.Positions[OpIndex].empty())
      P.Patchable = false;
  }
  // An expression a text operand wrote (`L-.Lpost_addpc0`) refers to
  // symbols of the builder's own context, which a copy would keep pointing
  // at after the builder is gone: such a shape is assembled from its text,
  // in the module's context, for every instance.
  for (auto [InstIndex, Inst] : enumerate(P.Insts))
    for (unsigned I = 0; I < Inst.getNumOperands(); ++I)
      if (Inst.getOperand(I).isExpr() &&
          !any_of(P.Positions, [&](const auto &Held) {
            return is_contained(Held, std::make_pair(unsigned(InstIndex), I));
          }))
        P.Patchable = false;
  return P;
}

Error InstBuilder::assemblePrototypes(ArrayRef<const InstSpec *> Specs) {
  // One buffer: a label before each statement tells whose instructions
  // follow (the labels live in the builder's own context).
  std::string Text;
  std::vector<std::vector<BuildOperand>> Holders;
  for (auto [Index, Spec] : enumerate(Specs)) {
    Holders.push_back(placeholders(Spec->Operands));
    Instruction Shape = describe(Spec->Mnemonic, Holders.back(), InstKind::Machine);
    Text += (".Lstinkytofu_prototype_" + Twine(Index) + ":\n" + Spec->Mnemonic + " " +
             formatOperands(Shape) + "\n")
                .str();
  }
  ++Assembled;
  Expected<AssembledFile> File = Scratch->assembleStatements(Text);
  if (!File) {
    // Say which statement MC refused: assemble them one by one.
    consumeError(File.takeError());
    for (const InstSpec *Spec : Specs)
      if (Expected<const Prototype *> P = prototypeFor(Spec->Mnemonic, Spec->Operands); !P)
        return P.takeError();
    return Error::success();
  }
  std::vector<SmallVector<MCInst, 1>> Insts(Specs.size());
  int Current = -1;
  for (const AsmEvent &E : File->Events) {
    if (E.K == AsmEvent::Kind::Label && E.Symbol.starts_with(".Lstinkytofu_prototype_"))
      Current = std::stoi(E.Symbol.drop_front(strlen(".Lstinkytofu_prototype_")).str());
    else if (E.K == AsmEvent::Kind::Instruction && Current >= 0)
      Insts[Current].push_back(PackedMCInsts::unpack(File->Insts.record(E.Inst), 1)[0]);
  }
  for (auto [Index, Spec] : enumerate(Specs)) {
    SmallString<64> Key = shapeKey(Spec->Mnemonic, Spec->Operands);
    if (Insts[Index].empty())
      return createStringError(inconvertibleErrorCode(),
                               "'" + Spec->Mnemonic + "' is not an instruction");
    Shapes.try_emplace(Key, std::make_unique<Prototype>(makePrototype(
                                Spec->Mnemonic, Holders[Index], std::move(Insts[Index]))));
  }
  return Error::success();
}

Expected<const InstBuilder::Prototype *>
InstBuilder::prototypeFor(StringRef Mnemonic, ArrayRef<BuildOperand> Operands) {
  SmallString<64> Key = shapeKey(Mnemonic, Operands);
  auto It = Shapes.find(Key);
  if (It != Shapes.end())
    return It->second.get();
  std::vector<BuildOperand> Holders = placeholders(Operands);
  Instruction Shape = describe(Mnemonic, Holders, InstKind::Machine);
  std::string Text = (Mnemonic + " " + formatOperands(Shape)).str();
  Expected<SmallVector<MCInst, 1>> Insts = assembleText(Text, *Scratch);
  if (!Insts) {
    // The placeholders may be what MC refused (a register the instruction
    // cannot take), or a text operand names a symbol of the module
    // (`v[vgprX]`): the statement as asked decides, in the module's context,
    // and its shape is then assembled from its text every time.
    consumeError(Insts.takeError());
    Instruction Asked = describe(Mnemonic, Operands, InstKind::Machine);
    Expected<SmallVector<MCInst, 1>> Real =
        assembleText((Mnemonic + " " + formatOperands(Asked)).str(), M.assembler());
    if (!Real)
      return Real.takeError();
    auto P = std::make_unique<Prototype>(makePrototype(Mnemonic, Operands, std::move(*Real)));
    P->Patchable = false;
    return Shapes.try_emplace(Key, std::move(P)).first->second.get();
  }
  return Shapes
      .try_emplace(Key, std::make_unique<Prototype>(
                            makePrototype(Mnemonic, Holders, std::move(*Insts))))
      .first->second.get();
}

Expected<Instruction> InstBuilder::instantiate(const Prototype &P, StringRef Mnemonic,
                                               ArrayRef<BuildOperand> Operands) {
  Instruction I = describe(Mnemonic, Operands, P.Kind);
  if (!P.Patchable) {
    // In the module's context: the instance's expressions outlive the builder.
    Expected<SmallVector<MCInst, 1>> Insts =
        assembleText((Mnemonic + " " + formatOperands(I)).str(), M.assembler());
    if (!Insts)
      return Insts.takeError();
    I.setMC(std::move(*Insts), Target);
    return std::move(I);
  }
  SmallVector<MCInst, 1> Insts = P.Insts;
  MCContext &Ctx = M.assembler().context();
  for (auto [OpIndex, Op] : enumerate(Operands)) {
    if (P.Positions[OpIndex].empty())
      continue;
    MCOperand New;
    switch (Op.kind()) {
    case BuildOperand::Kind::Register: {
      MCRegister Reg = mcRegister(Target, Op.regFile(), Op.first(), Op.count());
      if (!Reg.isValid())
        return createStringError(inconvertibleErrorCode(), "no register '" + Op.spelling() +
                                                               "' on " + Target.processor());
      New = MCOperand::createReg(Reg);
      break;
    }
    case BuildOperand::Kind::Immediate:
      New = MCOperand::createImm(Op.immediate());
      break;
    case BuildOperand::Kind::Label:
      New = MCOperand::createExpr(
          MCSymbolRefExpr::create(Ctx.getOrCreateSymbol(Op.name()), Ctx));
      break;
    case BuildOperand::Kind::Expression:
      New = MCOperand::createExpr(Op.expression());
      break;
    default:
      continue;
    }
    for (auto [InstIndex, MCIndex] : P.Positions[OpIndex])
      Insts[InstIndex].getOperand(MCIndex) = New;
  }
  I.setMC(std::move(Insts), Target);
  return std::move(I);
}

Expected<Instruction> InstBuilder::build(StringRef Mnemonic, ArrayRef<BuildOperand> Operands) {
  // A branch mostly goes to a label of its own, an offset is between labels
  // of its own: neither is kept.
  bool Kept = none_of(Operands, [](const BuildOperand &Op) {
    return Op.kind() == BuildOperand::Kind::Label ||
           Op.kind() == BuildOperand::Kind::Expression;
  });
  SmallString<64> Key;
  if (Kept) {
    appendSpecKey(Mnemonic, Operands, Key);
    if (auto It = Built.find(Key); It != Built.end())
      return It->second.clone();
  }
  Expected<const Prototype *> P = prototypeFor(Mnemonic, Operands);
  if (!P)
    return P.takeError();
  Expected<Instruction> I = instantiate(**P, Mnemonic, Operands);
  // A shape assembled from its text for each instance (its operands name
  // the module's symbols) is assembled anew each time.
  if (!I || !Kept || !(*P)->Patchable)
    return I;
  return Built.try_emplace(Key, std::move(*I)).first->second.clone();
}

Expected<std::vector<Instruction>> InstBuilder::buildAll(ArrayRef<InstSpec> Specs) {
  std::vector<const InstSpec *> New;
  StringSet<> Seen;
  for (const InstSpec &Spec : Specs) {
    SmallString<64> Key = shapeKey(Spec.Mnemonic, Spec.Operands);
    if (!Shapes.contains(Key) && Seen.insert(Key).second)
      New.push_back(&Spec);
  }
  if (!New.empty())
    if (Error E = assemblePrototypes(New))
      return std::move(E);
  std::vector<Instruction> Out;
  Out.reserve(Specs.size());
  for (const InstSpec &Spec : Specs) {
    Expected<Instruction> I = build(Spec);
    if (!I)
      return I.takeError();
    Out.push_back(std::move(*I));
  }
  return std::move(Out);
}

Error InstBuilder::rewrite(Instruction &I, ArrayRef<BuildOperand> Operands) {
  Expected<Instruction> New = build(I.mnemonicSpelling(), Operands);
  if (!New)
    return New.takeError();
  SmallVector<MCInst, 1> Insts(New->mcInsts().begin(), New->mcInsts().end());
  I.setOperands(New->operands());
  I.setMC(std::move(Insts), Target);
  return Error::success();
}

Error InstBuilder::setOperands(Instruction &I, std::vector<Operand> Operands) {
  Instruction Probe(I.kind(), I.mnemonic().str(), Operands);
  std::string Text = (I.mnemonicSpelling() + " " + formatOperands(Probe)).str();
  // MC takes VGPRs 256 and up only in their low spelling; the operands then
  // get the registers written, as the reader gives them (asm/HighVgprInput).
  std::optional<std::string> Low =
      Target.hardware().hasHighVgprs() ? padHighVgprsToLow(Text) : std::nullopt;
  Expected<Instruction> New = parse(Low ? *Low : Text);
  if (!New)
    return New.takeError();
  SmallVector<MCInst, 1> Insts(New->mcInsts().begin(), New->mcInsts().end());
  if (Low) {
    if (Insts.size() != 1)
      return createStringError(inconvertibleErrorCode(),
                               "VGPRs 256 and up are set in plain instructions only: '" + Text +
                                   "'");
    if (Error E = VgprMsbCodec(Target).raiseWritten(Insts.front(), Text))
      return E;
  }
  I.setOperands(std::move(Operands));
  I.setMC(std::move(Insts), Target);
  return Error::success();
}

MCContext &InstBuilder::context() const { return M.assembler().context(); }

const MCExpr *InstBuilder::labelDifference(StringRef Plus, StringRef Minus,
                                           int64_t Addend) const {
  MCContext &Ctx = context();
  const MCExpr *Difference =
      MCBinaryExpr::createSub(MCSymbolRefExpr::create(Ctx.getOrCreateSymbol(Plus), Ctx),
                              MCSymbolRefExpr::create(Ctx.getOrCreateSymbol(Minus), Ctx), Ctx);
  if (!Addend)
    return Difference;
  // As MC reads what it prints: `L-P-4` subtracts 4.
  if (Addend < 0 && Addend != INT64_MIN)
    return MCBinaryExpr::createSub(Difference, MCConstantExpr::create(-Addend, Ctx), Ctx);
  return MCBinaryExpr::createAdd(Difference, MCConstantExpr::create(Addend, Ctx), Ctx);
}

BuildOperand InstBuilder::expression(const MCExpr *E) const {
  std::string Spelling;
  raw_string_ostream OS(Spelling);
  Target.asmInfo().printExpr(OS, *E);
  return BuildOperand::expression(E, std::move(Spelling));
}

Expected<BuildOperand> InstBuilder::printedDepctr(StringRef Mnemonic, const DepCtrFields &Fields) {
  Expected<Instruction> Wait = build(Mnemonic, {BuildOperand::depctr(Fields)});
  if (!Wait)
    return Wait.takeError();
  if (Wait->mcInsts().size() != 1)
    return BuildOperand::depctr(Fields);
  std::string Printed = Target.printMC(Wait->mcInsts()[0]);
  return BuildOperand::text(StringRef(Printed).split(' ').second.trim());
}

Expected<Instruction> createInstruction(Module &M, StringRef Text) {
  Expected<SmallVector<MCInst, 1>> Insts = M.assembler().assembleStatement(Text);
  if (!Insts)
    return Insts.takeError();
  Statement S = splitStatement(Text.trim());
  auto Lookup = [&](StringRef Sym) { return M.assembler().symbolValue(Sym); };
  Instruction I(Insts->size() > 1 ? InstKind::MacroCall : InstKind::Machine,
                S.Mnemonic.lower(), parseOperands(S.Body, M.target(), Lookup));
  I.setTrailingComment(S.Comment.str());
  I.setMC(std::move(*Insts), M.target());
  return std::move(I);
}

Expected<Instruction> InstBuilder::parse(StringRef Statement) {
  auto It = Texts.find(Statement);
  if (It == Texts.end()) {
    ++Assembled;
    Expected<Instruction> I = createInstruction(M, Statement);
    if (!I)
      return createStringError(inconvertibleErrorCode(), "cannot assemble '" +
                                                             Statement.trim() + "': " +
                                                             toString(I.takeError()));
    It = Texts.try_emplace(Statement, std::move(*I)).first;
  }
  return It->second.clone();
}

} // namespace stinkytofu
