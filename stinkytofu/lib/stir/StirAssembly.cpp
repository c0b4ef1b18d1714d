//===- StirAssembly.cpp - The assembly a `.stir` file stands for ----------===//
#include "stinkytofu/stir/StirAssembly.h"
#include "stinkytofu/stir/StirImplicitOperands.h"
#include "stinkytofu/stir/StirWriter.h"
#include "stinkytofu/support/Diagnostics.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"

using namespace llvm;

namespace stinkytofu {

namespace {

/// How many trailing definitions and uses a reading leaves out of the
/// assembly as implicit registers.
struct Dropped {
  size_t Defs = 0, Uses = 0;
  bool operator==(const Dropped &) const = default;
};

/// The operands MC is given for one instruction, and the readings to try.
struct OperandReading {
  /// The operands as MC writes them: the reference's register spellings
  /// (`vcc_lo0`, `VCC`) respelled (`vcc_lo`, `vcc`).
  std::vector<std::string> Defs, Uses;
  /// The special register each operand names, if any.
  std::vector<std::optional<SpecialRegisterOperand>> DefRegs, UseRegs;
  /// The readings to try, in order: as many as possible of the trailing
  /// registers in the reference's spellings (which are not assembly) are
  /// implicit, down to none; then trailing registers written as assembly
  /// are left out too, as few as possible. Without trailing special
  /// registers, the one reading that leaves nothing out.
  SmallVector<Dropped, 4> Readings;
  size_t Current = 0; ///< the reading in use
  const Dropped &dropped() const { return Readings[Current]; }
  bool hasChoice() const { return Readings.size() > 1; }
};

/// Where a piece of a synthesized instruction line comes from.
struct ColumnOrigin {
  size_t SynthColumn;    ///< 1-based, in the synthesized line
  const StirOperand *Op; ///< null for the mnemonic
};

class Assembly {
public:
  Assembly(const StirModule &M, const StirParser &P, StringRef File, const ReaderOptions &Opts);
  Expected<std::unique_ptr<Module>> read();

private:
  std::shared_ptr<const TargetInfo> target() const;
  void readOperands(const TargetInfo *TI);
  Error synthesize();
  Expected<std::unique_ptr<Module>> readOnce(bool AllowUnknown);
  bool diagnosed(size_t Inst) const { return DiagnosedLines.contains(LineOfInst[Inst]); }
  std::pair<unsigned, unsigned> origin(unsigned SynthLine, unsigned SynthColumn) const;
  /// The first register operand of instruction \p K that \p I, as MC read
  /// it, contradicts (StirImplicitOperands.h), as a diagnostic.
  std::optional<std::string> contradiction(size_t K, const Instruction &I,
                                           const TargetInfo &TI) const;

  const StirModule &M;
  const StirParser &P;
  StringRef File;
  const ReaderOptions &Opts;
  std::vector<const StirFunc *> SourceOrder;
  std::vector<const StirInst *> Insts;
  std::vector<OperandReading> Readings;        // per instruction
  std::vector<SmallVector<ColumnOrigin, 4>> Origins; // per instruction
  std::vector<unsigned> LineOfInst;            // per instruction
  // The synthesized text and, per line (1-based), its `.stir` line and the
  // instruction on it (-1: none).
  std::string Text;
  std::vector<unsigned> StirLineOf;
  std::vector<int> InstOnLine;
  /// Synthesized lines the last read reported something about.
  DenseSet<unsigned> DiagnosedLines;
};

Assembly::Assembly(const StirModule &M, const StirParser &P, StringRef File,
                   const ReaderOptions &Opts)
    : M(M), P(P), File(File), Opts(Opts) {
  SourceOrder = sourceOrder(M);
  for (const StirFunc *F : SourceOrder)
    for (const StirBlock &BB : F->Blocks)
      for (const StirInst &I : BB.Insts)
        Insts.push_back(&I);
  Readings.resize(Insts.size());
  Origins.resize(Insts.size());
  LineOfInst.resize(Insts.size());
}

/// The target the `.s` reader will pick for the text: its `.amdgcn_target`,
/// else --arch, else the default. Null when there is none: the reader
/// reports that.
std::shared_ptr<const TargetInfo> Assembly::target() const {
  std::optional<std::string> Directive;
  auto Look = [&](StringRef Verbatim) {
    if (!Directive)
      Directive = findTargetDirective(Verbatim);
  };
  auto LookAttr = [&](const AttrDict &Attrs, StringRef Key) {
    if (const AttrValue *V = Attrs.find(Key))
      Look(V->asString());
  };
  for (const StirFunc *F : SourceOrder) {
    for (const auto &Item : F->Preamble)
      Look(Item.first);
    for (const StirBlock &BB : F->Blocks) {
      LookAttr(BB.Attrs, "leading");
      for (const StirInst &I : BB.Insts)
        LookAttr(I.Attrs, "leading");
    }
  }
  for (const auto &Item : M.Trailing)
    Look(Item.first);
  std::string Id = Directive      ? *Directive
                   : Opts.Arch.empty() ? Opts.DefaultArch
                                       : Opts.Arch;
  Expected<std::shared_ptr<const TargetInfo>> TI = TargetInfo::get(Id);
  if (!TI) {
    consumeError(TI.takeError());
    return nullptr;
  }
  return *TI;
}

void Assembly::readOperands(const TargetInfo *TI) {
  for (size_t K = 0; K < Insts.size(); ++K) {
    const StirInst &I = *Insts[K];
    OperandReading &R = Readings[K];
    auto Read = [&](const std::vector<StirOperand> &Ops, std::vector<std::string> &Spellings,
                    std::vector<std::optional<SpecialRegisterOperand>> &Regs,
                    size_t &Reference, size_t &Special) {
      for (const StirOperand &Op : Ops) {
        Regs.push_back(TI ? parseSpecialRegister(Op.Text, *TI) : std::nullopt);
        bool Respell = Regs.back() && !Regs.back()->AsmSpelling;
        Spellings.push_back(Respell ? TI->asmName(Regs.back()->Reg) : Op.Text);
      }
      auto FromEnd = [&](size_t N) { return Regs[Ops.size() - 1 - N]; };
      while (Special < Ops.size() && FromEnd(Special))
        ++Special;
      while (Reference < Special && !FromEnd(Reference)->AsmSpelling)
        ++Reference;
    };
    if (I.Attrs.find("asm")) {
      R.Readings.push_back({});
      continue; // its text is given: nothing to choose
    }
    Dropped Reference, Special;
    Read(I.Defs, R.Defs, R.DefRegs, Reference.Defs, Special.Defs);
    Read(I.Uses, R.Uses, R.UseRegs, Reference.Uses, Special.Uses);
    // Implicit registers follow the explicit ones: among the trailing
    // ones, the first may still be assembly operands (`vcc` of
    // `s_and_saveexec_b64 s[4:5], vcc`, then EXEC and SCC implicit).
    for (size_t Total = Reference.Defs + Reference.Uses + 1; Total-- > 0;)
      for (size_t D = std::min(Reference.Defs, Total) + 1; D-- > 0;)
        if (Total - D <= Reference.Uses)
          R.Readings.push_back({D, Total - D});
    for (size_t Total = 1; Total <= Special.Defs + Special.Uses; ++Total)
      for (size_t D = std::min(Special.Defs, Total) + 1; D-- > 0;)
        if (Total - D <= Special.Uses && (D > Reference.Defs || Total - D > Reference.Uses))
          R.Readings.push_back({D, Total - D});
  }
}

Error Assembly::synthesize() {
  Text.clear();
  StirLineOf.assign(1, 0);
  InstOnLine.assign(1, -1);
  auto Append = [&](StringRef Chunk, unsigned StirLine, int Inst = -1) {
    for (char C : Chunk)
      if (C == '\n') {
        StirLineOf.push_back(StirLine);
        InstOnLine.push_back(Inst);
      }
    Text += Chunk;
  };
  size_t K = 0;
  for (const StirFunc *F : SourceOrder) {
    for (const auto &[Verbatim, Line] : F->Preamble)
      Append(Verbatim, Line);
    for (const StirBlock &BB : F->Blocks) {
      if (isEmptyLastBlock(*F, BB))
        continue;
      if (const AttrValue *L = BB.Attrs.find("leading"))
        Append(L->asString(), BB.Line);
      if (const AttrValue *A = BB.Attrs.find("asm"))
        Append(A->asString(), BB.Line);
      else if (!isSyntheticBlockName(BB.Name))
        Append(BB.Name + ":\n", BB.Line);
      for (const StirInst &I : BB.Insts) {
        if (const AttrValue *L = I.Attrs.find("leading"))
          Append(L->asString(), I.Line);
        // The statement may share its line with a label written before it.
        size_t Base = Text.size() - (StringRef(Text).rfind('\n') + 1);
        const OperandReading &R = Readings[K];
        Origins[K].clear();
        std::string Stmt;
        if (const AttrValue *A = I.Attrs.find("asm")) {
          Stmt = A->asString().str();
        } else {
          ArrayRef<std::string> Defs = R.Defs, Uses = R.Uses;
          Defs = Defs.drop_back(R.dropped().Defs);
          Uses = Uses.drop_back(R.dropped().Uses);
          SmallVector<size_t, 8> Offsets;
          Stmt = rebuildStatement(I.Mnemonic, Defs, Uses, &Offsets);
          for (size_t J = 0; J < Offsets.size(); ++J)
            Origins[K].push_back({Base + Offsets[J] + 1,
                                  J == 0                ? nullptr
                                  : J <= Defs.size() ? &I.Defs[J - 1]
                                                     : &I.Uses[J - 1 - Defs.size()]});
        }
        if (StringRef(Stmt).contains('\n'))
          return sourceError(File, I.Line, I.Column, P.lineText(I.Line),
                             "an instruction's 'asm' must be a single line");
        LineOfInst[K] = StirLineOf.size();
        Append(Stmt + "\n", I.Line, int(K));
        ++K;
      }
    }
  }
  for (const auto &[Verbatim, Line] : M.Trailing)
    Append(Verbatim, Line);
  const AttrValue *FinalNewline = M.Attrs.find("final_newline");
  if (FinalNewline && !FinalNewline->asBool() && StringRef(Text).ends_with("\n"))
    Text.pop_back();
  return Error::success();
}

Expected<std::unique_ptr<Module>> Assembly::readOnce(bool AllowUnknown) {
  DiagnosedLines.clear();
  ReaderOptions AsmOpts = Opts;
  AsmOpts.AllowUnknownInstructions = AllowUnknown;
  AsmOpts.MapPosition = [this](unsigned Line,
                               unsigned Column) -> std::optional<OriginalLine> {
    DiagnosedLines.insert(Line);
    if (Line >= StirLineOf.size() || !StirLineOf[Line])
      return std::nullopt;
    auto [L, C] = origin(Line, Column);
    return OriginalLine{File.str(), L, C, P.lineText(L).str()};
  };
  return readAsm(MemoryBuffer::getMemBufferCopy(Text, File.str()), AsmOpts);
}

/// The `.stir` line and column of column \p SynthColumn of the instruction
/// on synthesized line \p SynthLine: the same character of the operand (or
/// mnemonic) it falls in, else the operand's start.
std::pair<unsigned, unsigned> Assembly::origin(unsigned SynthLine,
                                               unsigned SynthColumn) const {
  if (SynthLine >= InstOnLine.size() || InstOnLine[SynthLine] < 0)
    return {SynthLine < StirLineOf.size() ? StirLineOf[SynthLine] : 0, 1};
  size_t K = InstOnLine[SynthLine];
  const StirInst &I = *Insts[K];
  std::pair<unsigned, unsigned> Where{I.Line, I.Column};
  for (const ColumnOrigin &O : Origins[K]) {
    if (O.SynthColumn > SynthColumn)
      break;
    size_t Into = SynthColumn - O.SynthColumn;
    StringRef Written = O.Op ? StringRef(O.Op->Text) : StringRef(I.Mnemonic);
    unsigned Start = O.Op ? O.Op->Column : I.MnemonicColumn;
    Where = {O.Op ? O.Op->Line : I.Line, Start + unsigned(Into < Written.size() ? Into : 0)};
  }
  return Where;
}

std::optional<std::string> Assembly::contradiction(size_t K, const Instruction &I,
                                                   const TargetInfo &TI) const {
  const StirInst &SI = *Insts[K];
  const OperandReading &R = Readings[K];
  auto Check = [&](const std::vector<StirOperand> &Ops,
                   const std::vector<std::optional<SpecialRegisterOperand>> &Regs,
                   size_t LeftOut, RegisterClaim Implicit) -> std::optional<std::string> {
    for (size_t J = 0; J < Regs.size(); ++J) {
      bool Implied = J >= Regs.size() - LeftOut;
      if (!Regs[J] || (!Implied && Regs[J]->AsmSpelling))
        continue; // assembly as written: MC has judged it
      const StirOperand &Op = Ops[J];
      if (Error E = checkRegisterClaim(I, Op.Text, Regs[J]->Reg,
                                       Implied ? Implicit : RegisterClaim::Operand, TI))
        return renderDiagnostic(File, Op.Line, Op.Column, P.lineText(Op.Line),
                                SourceMgr::DK_Error, toString(std::move(E)));
    }
    return std::nullopt;
  };
  if (auto D = Check(SI.Defs, R.DefRegs, R.dropped().Defs, RegisterClaim::ImplicitDef))
    return D;
  return Check(SI.Uses, R.UseRegs, R.dropped().Uses, RegisterClaim::ImplicitUse);
}

Expected<std::unique_ptr<Module>> Assembly::read() {
  std::shared_ptr<const TargetInfo> TI = target();
  readOperands(TI.get());
  bool Choices = any_of(Readings, [](const OperandReading &R) { return R.hasChoice(); });
  // While readings are being chosen, MC has to reject a statement rather
  // than keep it as an opaque instruction.
  bool AllowUnknown = Opts.AllowUnknownInstructions && !Choices;
  auto Attempt = [&](bool Unknown) -> Expected<std::unique_ptr<Module>> {
    AllowUnknown = Unknown;
    if (Error E = synthesize())
      return std::move(E);
    return readOnce(Unknown);
  };
  // Per instruction, what MC contradicts in the last reading it assembled.
  std::vector<std::optional<std::string>> Contradicted(Insts.size());
  auto FindContradictions = [&](Module &Mod) {
    std::vector<const Instruction *> Read;
    for (const Function &F : Mod.functions())
      for (const BasicBlock &BB : F.blocks())
        for (const Instruction &I : BB.instructions())
          Read.push_back(&I);
    bool Any = false;
    for (size_t K = 0; K < Insts.size() && Read.size() == Insts.size(); ++K) {
      Contradicted[K] = contradiction(K, *Read[K], Mod.target());
      Any |= Contradicted[K].has_value();
    }
    return Any;
  };

  // An instruction MC rejects, or contradicts, is read the next way.
  Expected<std::unique_ptr<Module>> Mod = Attempt(AllowUnknown);
  for (;;) {
    bool Advanced = false;
    bool Failed = Mod ? FindContradictions(**Mod) : true;
    if (!Failed)
      break;
    for (size_t K = 0; K < Readings.size(); ++K) {
      OperandReading &R = Readings[K];
      bool Rejected = Mod ? Contradicted[K].has_value() : diagnosed(K);
      if (Rejected && R.Current + 1 < R.Readings.size()) {
        ++R.Current;
        Advanced = true;
      }
    }
    if (!Advanced)
      break;
    if (!Mod)
      consumeError(Mod.takeError());
    Mod = Attempt(false);
  }
  // One that fits no reading is reported: a contradiction says the most...
  auto Contradiction = [&]() -> std::optional<Error> {
    for (size_t K = 0; K < Insts.size(); ++K)
      if (Contradicted[K] && (Mod || diagnosed(K))) {
        if (!Mod)
          consumeError(Mod.takeError());
        return createStringError(inconvertibleErrorCode(),
                                 StringRef(*Contradicted[K]).rtrim("\n"));
      }
    return std::nullopt;
  };
  if (std::optional<Error> E = Contradiction())
    return std::move(*E);
  // ...else MC's errors, for the reading it prefers.
  if (!Mod && Choices) {
    bool Restored = false;
    for (size_t K = 0; K < Readings.size(); ++K)
      if (Readings[K].Current && diagnosed(K)) {
        Readings[K].Current = 0;
        Restored = true;
      }
    if (Restored) {
      consumeError(Mod.takeError());
      Mod = Attempt(false);
      if (Mod)
        FindContradictions(**Mod);
      if (std::optional<Error> E = Contradiction())
        return std::move(*E);
    }
    if (!Mod && Opts.AllowUnknownInstructions) {
      consumeError(Mod.takeError());
      Mod = Attempt(true);
    }
  }
  return Mod;
}

} // namespace

bool isEmptyLastBlock(const StirFunc &F, const StirBlock &BB) {
  return F.Blocks.size() > 1 && &BB == &F.Blocks.back() && BB.Insts.empty() &&
         !isSyntheticBlockName(BB.Name) && !BB.Attrs.find("leading") && !BB.Attrs.find("asm");
}

std::vector<const StirFunc *> sourceOrder(const StirModule &M) {
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
  return Order;
}

Expected<std::unique_ptr<Module>> assembleStir(const StirModule &M, const StirParser &P,
                                               StringRef File, const ReaderOptions &Opts) {
  return Assembly(M, P, File, Opts).read();
}

} // namespace stinkytofu
