//===- CodeObjectDisassembler.cpp - A code object as assembly -------------===//
#include "stinkytofu/disasm/CodeObjectDisassembler.h"
#include "DescriptorDecoder.h"
#include "MetadataNote.h"
#include "stinkytofu/emit/ObjectEmitter.h"
#include "stinkytofu/hw/TargetInfo.h"
#include "stinkytofu/mc/AssemblerState.h"
#include "stinkytofu/mc/CodeObjectVersion.h"
#include "stinkytofu/mc/CodeWordDecoder.h"
#include "stinkytofu/object/ElfImage.h"
#include "stinkytofu/support/HexString.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/MC/MCCodeEmitter.h"
#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCDisassembler/MCDisassembler.h"
#include "llvm/MC/MCExpr.h"
#include "llvm/MC/MCFixup.h"
#include "llvm/MC/MCInst.h"
#include "llvm/MC/MCInstrAnalysis.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/Allocator.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/StringSaver.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <mutex>
#include <optional>
#include <set>
#include <tuple>

using namespace llvm;

namespace stinkytofu {

using elf::ElfImage;
using elf::Elf_Shdr;

namespace {

/// The word the assembler fills code alignment with (`s_nop 0`).
constexpr uint32_t CodeAlignmentFill = 0xbf800000;

struct Symbol {
  std::string Name;
  uint64_t Value = 0, Size = 0;
  uint8_t Type = 0, Binding = 0, Visibility = 0;
  unsigned Section = 0;
};

/// Whether the disassembly can write \p Name unquoted, as one name MC and
/// the reader take: the assembly would otherwise read as something else
/// (`gcn-d` is a difference, `a%b` an error).
bool isPlainAssemblyName(StringRef Name) {
  return !Name.empty() && !isDigit(Name.front()) &&
         all_of(Name, [](char C) { return isAlnum(C) || C == '_' || C == '.' || C == '$'; });
}
constexpr const char *PlainNameRule =
    "has a name the disassembly cannot write (letters, digits, '_', '.' and '$', not starting "
    "with a digit)";

std::string escaped(StringRef Text) {
  std::string Out;
  raw_string_ostream OS(Out);
  printEscapedString(Text, OS);
  return Out;
}

/// The symbols of .symtab, or of .dynsym when there is no .symtab (a
/// stripped code object keeps its kernels there).
Expected<std::vector<Symbol>> readSymbols(const ElfImage &Object) {
  const Elf_Shdr *Table = nullptr;
  for (const Elf_Shdr &S : Object.sections())
    if (S.sh_type == ELF::SHT_SYMTAB || (S.sh_type == ELF::SHT_DYNSYM && !Table))
      Table = &S;
  std::vector<Symbol> Out;
  if (!Table)
    return Out;
  const auto &File = Object.file();
  auto Syms = File.symbols(Table);
  if (!Syms)
    return Syms.takeError();
  auto Strings = File.getStringTableForSymtab(*Table);
  if (!Strings)
    return Strings.takeError();
  for (const auto &Sym : *Syms) {
    if (Sym.st_shndx == ELF::SHN_UNDEF || Sym.st_shndx >= ELF::SHN_LORESERVE)
      continue;
    Expected<StringRef> Name = Sym.getName(*Strings);
    if (!Name)
      return Name.takeError();
    if (Name->empty() || Sym.st_shndx >= Object.sections().size())
      continue;
    if (!isPlainAssemblyName(*Name))
      return createStringError("symbol '" + escaped(*Name) + "' " + PlainNameRule);
    Out.push_back({Name->str(), Sym.st_value, Sym.st_size, Sym.getType(), Sym.getBinding(),
                   Sym.getVisibility(), Sym.st_shndx});
  }
  return Out;
}

/// The label of each branch target, by its offset in the section.
using LabelMap = DenseMap<uint64_t, std::string>;

bool isKernelDescriptor(const Symbol &S) {
  return S.Type == ELF::STT_OBJECT && StringRef(S.Name).ends_with(".kd");
}

class Disassembler {
public:
  Disassembler(const ElfImage &Object, const DisassemblyOptions &Options,
               KnownStatements *Known)
      : Object(Object), Options(Options), Known(Known) {}

  Expected<std::string> run();

private:
  struct Decoded {
    uint64_t Offset = 0; // in the section
    unsigned Size = 0;
    bool Valid = false;
    MCInst Inst;
    /// A branch's target in the section, when MC computes it.
    std::optional<uint64_t> Dest;
  };
  struct Function {
    const Symbol *Sym = nullptr;
    /// The symbol's name, made unique: local functions of linked objects
    /// may share one (two files' `static` helpers).
    std::string Name;
    uint64_t Begin = 0, End = 0; // section offsets
  };

  /// The address the section's bytes start at: symbol values are section
  /// offsets in a relocatable object, addresses otherwise.
  uint64_t base(const Elf_Shdr &S) const {
    return Object.header().e_type == ELF::ET_REL ? 0 : uint64_t(S.sh_addr);
  }
  Error setUp();
  /// The executable sections as assembly that LLVM MC assembles back into
  /// their bytes (\p Preamble first): an instruction whose text does not
  /// is kept as words (Opaque). Fills Known's instructions.
  llvm::Expected<std::string> provenCode(llvm::StringRef Preamble);
  /// Which of the distinct instruction texts \p Proof holds (one a line
  /// from \p FirstLine on, each to give \p Bytes) LLVM MC assembles into
  /// their bytes; each one that does gets its MC instruction in \p Insts
  /// (the offset of its record; the rest get none). \p ParserOwned marks
  /// those whose MC instruction points into the proof's MC context (an
  /// expression operand): that context dies with the proof, so the reader
  /// must parse such a line itself.
  Expected<std::vector<std::optional<PackedMCInsts::Offset>>>
  assembleDistinct(StringRef Proof, size_t FirstLine, ArrayRef<StringRef> Bytes,
                   PackedMCInsts &Insts, std::vector<bool> &ParserOwned) const;
  Error writeCodeSection(unsigned Index, raw_ostream &OS);
  void writeFunction(const Function &F, ArrayRef<Decoded> Insts,
                     const LabelMap &Labels, unsigned MaxAlignLog2,
                     raw_ostream &OS);
  /// How many instructions from \p Insts[I] on are alignment fill the
  /// assembler writes for `.p2align *Log2` (none when they are not): a run
  /// of `s_nop 0` ending at an aligned offset, no label at or inside it,
  /// after an instruction that does not fall through or at least two long.
  size_t alignmentRun(ArrayRef<Decoded> Insts, size_t I, uint64_t End,
                      const LabelMap &Labels, unsigned MaxAlignLog2,
                      StringRef Bytes, unsigned &Log2) const;
  void writeGap(StringRef Bytes, uint64_t Begin, uint64_t End, unsigned MaxAlignLog2,
                raw_ostream &OS);
  Error writeDescriptors(raw_ostream &OS);
  /// A descriptor no block reproduces, as data: its words and its code
  /// entry, the block it would be otherwise in a comment.
  void writeDescriptorBytes(const Symbol &KD, StringRef Kernel, StringRef Bytes,
                            const DecodedDescriptor &Decoded, raw_ostream &OS);

  const ElfImage &Object;
  const DisassemblyOptions &Options;
  /// What the reader need not parse again (null: nobody asked).
  KnownStatements *Known;
  std::shared_ptr<const TargetInfo> Target;
  std::unique_ptr<MCContext> Ctx;
  std::unique_ptr<MCDisassembler> MCDis;
  std::unique_ptr<MCInstrAnalysis> Analysis;
  std::vector<Symbol> Symbols;
  std::optional<DescriptorDecoder> DescriptorText;
  /// The name each function symbol has in the disassembly.
  DenseMap<const Symbol *, std::string> FunctionNames;
  /// An instruction written as text, and its text with the branch target
  /// as a number (what the proof assembles: it names no label).
  /// PrintedInst::LabelOperand of a line Known leaves to the reader.
  static constexpr int UnknownToReader = -2;
  struct PrintedInst {
    unsigned Section = 0;
    uint64_t Offset = 0;
    /// Its line in the code written: start and end (past the newline).
    size_t Line = 0, LineEnd = 0;
    /// Its text with the branch target as a number, and its bytes: the
    /// index in DistinctBytes.
    unsigned Distinct = 0;
    /// A branch written with a label: the operand that names it.
    int LabelOperand = -1;
    StringRef Label; // in Saved
  };
  std::vector<PrintedInst> Printed;
  /// The distinct texts printed (text, NUL, bytes -> index), their bytes,
  /// and their lines, in the order they came.
  StringMap<unsigned> Distinct;
  std::vector<StringRef> DistinctBytes;
  std::string DistinctLines;
  BumpPtrAllocator Allocator;
  StringSaver Saved{Allocator};
  /// (section index, offset) of instructions written as words.
  std::set<std::pair<unsigned, uint64_t>> Opaque;
};

Error Disassembler::setUp() {
  if (!Object.isAMDGPU())
    return createStringError("not an AMDGPU code object (" + elf::elfMachineName(Object.machine()) +
                             ")");
  std::string Id = Options.TargetId.empty() ? Object.amdgpuTargetId() : Options.TargetId;
  if (Id.empty())
    return createStringError("unknown AMDGPU processor in the ELF flags (" +
                             hexString(Object.header().e_flags) + ")");
  Expected<std::shared_ptr<const TargetInfo>> T = TargetInfo::get(Id);
  if (!T)
    return T.takeError();
  Target = std::move(*T);
  initializeAMDGPUDisassembler();
  Ctx = std::make_unique<MCContext>(Target->triple(), &Target->asmInfo(), &Target->regInfo(),
                                    &Target->subtargetInfo());
  MCDis.reset(Target->target().createMCDisassembler(Target->subtargetInfo(), *Ctx));
  Analysis.reset(Target->target().createMCInstrAnalysis(&Target->instrInfo()));
  if (!MCDis || !Analysis)
    return createStringError("LLVM has no AMDGPU disassembler");
  Expected<std::vector<Symbol>> Syms = readSymbols(Object);
  if (!Syms)
    return Syms.takeError();
  Symbols = std::move(*Syms);
  // Global names are unique; a local function's that repeats one gets a
  // suffix, in address order.
  StringSet<> Taken;
  std::vector<const Symbol *> Locals;
  for (const Symbol &S : Symbols) {
    if (S.Binding != ELF::STB_LOCAL)
      Taken.insert(S.Name);
    if (S.Type == ELF::STT_FUNC)
      FunctionNames[&S] = S.Name;
    if (S.Type == ELF::STT_FUNC && S.Binding == ELF::STB_LOCAL)
      Locals.push_back(&S);
  }
  stable_sort(Locals, [](const Symbol *A, const Symbol *B) {
    return std::tie(A->Section, A->Value) < std::tie(B->Section, B->Value);
  });
  for (const Symbol *S : Locals)
    for (unsigned N = 2; !Taken.insert(FunctionNames[S]).second; ++N)
      FunctionNames[S] = S->Name + "." + std::to_string(N);
  return Error::success();
}

Expected<std::string> Disassembler::run() {
  if (Error E = setUp())
    return std::move(E);
  unsigned AbiVersion = Object.header().e_ident[ELF::EI_ABIVERSION];
  // EI_ABIVERSION 1 is code object v3, 2 v4, ...; of a version MC cannot
  // write (CodeObjectVersion.h) the disassembly could not be assembled again.
  unsigned Version = AbiVersion + 2;
  if (!isWritableCodeObjectVersion(Version))
    return createStringError("ELF ABI version " + Twine(AbiVersion) + ": only code object v" +
                             Twine(MinWritableCodeObjectVersion) + " to v" +
                             Twine(MaxWritableCodeObjectVersion) + " (ABI versions " +
                             Twine(MinWritableCodeObjectVersion - 2) + " to " +
                             Twine(MaxWritableCodeObjectVersion - 2) + ") are supported");
  if (!Options.Kernel.empty() &&
      none_of(Symbols, [&](const Symbol &S) {
        return isKernelDescriptor(S) && StringRef(S.Name).drop_back(3) == Options.Kernel;
      }))
    return createStringError("no kernel named '" + Options.Kernel +
                             "' (--list-kernels lists them)");

  std::string TargetId = Options.TargetId.empty() ? Object.amdgpuTargetId() : Options.TargetId;
  std::string Preamble = "\t.amdgcn_target \"amdgcn-amd-amdhsa--" + TargetId +
                         "\"\n\t.amdhsa_code_object_version " + std::to_string(Version) +
                         "\n";
  DescriptorText.emplace(*MCDis, *Target, Preamble);
  if (Known)
    Known->TargetId = TargetId;
  Expected<std::string> Code = provenCode(Preamble);
  if (!Code)
    return Code.takeError();
  std::string Text = std::move(*Code);
  raw_string_ostream OS(Text);
  if (Error E = writeDescriptors(OS))
    return std::move(E);
  Expected<std::string> Metadata = metadataNoteYaml(Object, Options.Kernel);
  if (!Metadata)
    return Metadata.takeError();
  if (!Metadata->empty()) {
    size_t Begin = OS.tell();
    OS << "\t.amdgpu_metadata\n" << *Metadata << "\t.end_amdgpu_metadata\n";
    // Verified by LLVM's metadata verifier (MetadataNote.h).
    if (Known)
      Known->CheckedBlocks.emplace_back(Begin, OS.tell());
  }
  return Text;
}

Expected<std::string> Disassembler::provenCode(StringRef Preamble) {
  // Each round marks the instructions whose text LLVM MC assembles into
  // other bytes (as words, they may change what the next round prints: a
  // label no branch names any more).
  constexpr unsigned MaxRounds = 16;
  uint64_t CodeBytes = 0;
  for (const Elf_Shdr &S : Object.sections())
    if (S.sh_type == ELF::SHT_PROGBITS && (S.sh_flags & ELF::SHF_EXECINSTR))
      CodeBytes += S.sh_size;
  for (unsigned Round = 0; Round < MaxRounds; ++Round) {
    // The text is some twelve times the code's size: reserved, it is not
    // copied as it grows (pages never written cost nothing).
    std::string Code;
    Code.reserve(16 * CodeBytes + Preamble.size());
    Code.append(Preamble.data(), Preamble.size());
    raw_string_ostream OS(Code);
    Printed.clear();
    Printed.reserve(CodeBytes / 4); // at most one instruction per word
    Distinct.clear();
    DistinctBytes.clear();
    DistinctLines.clear();
    for (unsigned I = 1; I < Object.sections().size(); ++I) {
      const Elf_Shdr &S = Object.sections()[I];
      if (S.sh_type == ELF::SHT_PROGBITS && (S.sh_flags & ELF::SHF_EXECINSTR))
        if (Error E = writeCodeSection(I, OS))
          return std::move(E);
    }
    // Each distinct text with its bytes (writeFunction) is assembled once:
    // the lines of large kernels repeat (a tenth or less of them are
    // distinct), and a branch's text without its label does not depend on
    // where it is.
    std::string Proof = Preamble.str() + "\t.text\n";
    size_t FirstLine = Proof.size();
    Proof += DistinctLines;
    PackedMCInsts Insts;
    std::vector<bool> ParserOwned;
    Expected<std::vector<std::optional<PackedMCInsts::Offset>>> Assembled =
        assembleDistinct(Proof, FirstLine, DistinctBytes, Insts, ParserOwned);
    if (!Assembled)
      return Assembled.takeError();
    bool Marked = false;
    for (size_t I = 0; I < Printed.size(); ++I)
      if (!(*Assembled)[Printed[I].Distinct]) {
        Opaque.insert({Printed[I].Section, Printed[I].Offset});
        Marked = true;
      }
    if (Marked)
      continue;
    if (Known) {
      Known->Insts = std::move(Insts);
      Known->Instructions.clear();
      Known->Instructions.reserve(Printed.size());
      for (size_t I = 0; I < Printed.size(); ++I) {
        PrintedInst &P = Printed[I];
        if (P.LabelOperand == UnknownToReader || ParserOwned[P.Distinct])
          continue;
        Known->Instructions.push_back({P.Line, P.Line + 1, P.LineEnd,
                                       *(*Assembled)[P.Distinct], P.LabelOperand,
                                       P.Label.str()});
      }
    }
    return Code;
  }
  return createStringError("the disassembly does not assemble back into the code after " +
                           Twine(MaxRounds) + " rounds of keeping instructions as words");
}

Expected<std::vector<std::optional<PackedMCInsts::Offset>>>
Disassembler::assembleDistinct(StringRef Proof, size_t FirstLine, ArrayRef<StringRef> Bytes,
                               PackedMCInsts &Insts,
                               std::vector<bool> &ParserOwned) const {
  AssemblerState AS(Target);
  AS.setMemoizeStatements(false); // every line is distinct
  std::vector<AsmDiagnostic> Diags;
  AssembledFile Parsed =
      AS.assembleFile(MemoryBuffer::getMemBuffer(Proof, "<disassembly>"), Diags);
  for (const AsmDiagnostic &D : Diags)
    if (D.Diag.getKind() == SourceMgr::DK_Error)
      return createStringError("LLVM MC does not assemble the disassembly: " +
                               StringRef(renderDiagnostic(D.Diag)).rtrim("\n"));
  // The line of each text, and the MC instructions the parser made of it.
  std::vector<size_t> LineStarts;
  LineStarts.reserve(Bytes.size());
  for (size_t At = FirstLine; At < Proof.size(); At = Proof.find('\n', At) + 1)
    LineStarts.push_back(At);
  std::vector<SmallVector<PackedMCInsts::Offset, 1>> Made(Bytes.size());
  for (const AsmEvent &E : Parsed.Events) {
    if (E.K != AsmEvent::Kind::Instruction || E.Offset == AsmEvent::NoOffset ||
        E.Offset < FirstLine)
      continue;
    size_t Line = size_t(std::upper_bound(LineStarts.begin(), LineStarts.end(), E.Offset) -
                         LineStarts.begin()) - 1;
    if (Line < Made.size())
      Made[Line].push_back(E.Inst);
  }
  // Encoded as the object streamer encodes it: a text reproduces its bytes
  // when it is one instruction that encodes into them with no fixup.
  std::unique_ptr<MCCodeEmitter> Emitter(
      Target->target().createMCCodeEmitter(Target->instrInfo(), AS.context()));
  if (!Emitter)
    return createStringError("LLVM MC cannot encode instructions for " + Target->processor());
  std::vector<std::optional<PackedMCInsts::Offset>> Out(Bytes.size());
  ParserOwned.assign(Bytes.size(), false);
  SmallString<16> Encoded;
  SmallVector<MCFixup, 1> Fixups;
  for (size_t I = 0; I < Bytes.size(); ++I) {
    if (Made[I].size() != 1)
      continue;
    MCInst Inst = PackedMCInsts::unpack(Parsed.Insts.record(Made[I].front()), 1).front();
    Encoded.clear();
    Fixups.clear();
    Emitter->encodeInstruction(Inst, Encoded, Fixups, Target->subtargetInfo());
    if (!Fixups.empty() || Encoded.str() != Bytes[I])
      continue;
    Out[I] = Insts.append(Inst);
    ParserOwned[I] = any_of(Inst, [](const MCOperand &Op) { return Op.isExpr() || Op.isInst(); });
  }
  return Out;
}

Error Disassembler::writeCodeSection(unsigned Index, raw_ostream &OS) {
  const Elf_Shdr &S = Object.sections()[Index];
  StringRef Name = Object.sectionName(S);
  if (!isPlainAssemblyName(Name))
    return createStringError("code section '" + escaped(Name) + "' " + PlainNameRule);
  StringRef Bytes = Object.sectionContents(S);
  uint64_t Base = base(S);

  std::vector<Function> Functions;
  for (const Symbol &Sym : Symbols) {
    if (Sym.Section != Index || Sym.Type != ELF::STT_FUNC)
      continue;
    if (Sym.Value < Base || Sym.Value - Base > Bytes.size() ||
        Sym.Size > Bytes.size() - (Sym.Value - Base))
      return createStringError("function " + Sym.Name + " (" + hexString(Sym.Value) + ", " +
                               Twine(Sym.Size) + " bytes) lies outside section " + Name);
    Functions.push_back({&Sym, Sym.Name, Sym.Value - Base, Sym.Value - Base + Sym.Size});
  }
  stable_sort(Functions, [](const Function &A, const Function &B) { return A.Begin < B.Begin; });
  // An alias of a function already there adds no bytes.
  Functions.erase(std::unique(Functions.begin(), Functions.end(),
                              [](const Function &A, const Function &B) {
                                return A.Begin == B.Begin;
                              }),
                  Functions.end());
  for (Function &F : Functions)
    F.Name = FunctionNames.lookup(F.Sym);
  for (size_t I = 0; I < Functions.size(); ++I) {
    uint64_t Next = I + 1 < Functions.size() ? Functions[I + 1].Begin : Bytes.size();
    if (Functions[I].End == Functions[I].Begin || Functions[I].End > Next)
      Functions[I].End = Next;
  }

  // Decode every function, then name every branch target that starts an
  // instruction.
  std::vector<std::vector<Decoded>> Insts(Functions.size());
  BitVector Starts(Bytes.size()); // offsets where a decoded instruction starts
  std::vector<uint64_t> Targets;
  ArrayRef<uint8_t> Data = arrayRefFromStringRef(Bytes);
  for (size_t F = 0; F < Functions.size(); ++F) {
    // At most one instruction per word: never moved as it grows.
    Insts[F].reserve((Functions[F].End - Functions[F].Begin + 3) / 4);
    for (uint64_t Pos = Functions[F].Begin; Pos < Functions[F].End;) {
      Decoded D;
      D.Offset = Pos;
      ArrayRef<uint8_t> Window = Data.slice(Pos, Functions[F].End - Pos);
      std::optional<uint64_t> Size = decodeInstruction(*MCDis, D.Inst, Window, Base + Pos);
      D.Valid = Size.has_value();
      D.Size = D.Valid ? unsigned(*Size) : unsigned(std::min<uint64_t>(4, Window.size()));
      if (D.Valid) {
        Starts.set(Pos);
        uint64_t Dest = 0;
        if (Target->instrInfo().get(D.Inst.getOpcode()).isBranch() &&
            Analysis->evaluateBranch(D.Inst, Base + Pos, *Size, Dest) && Dest >= Base &&
            Dest - Base < Bytes.size()) {
          D.Dest = Dest - Base;
          Targets.push_back(Dest - Base);
        }
      }
      Pos += D.Size;
      Insts[F].push_back(std::move(D));
    }
  }
  LabelMap Labels;
  for (uint64_t T : Targets) {
    if (!Starts.test(T))
      continue;
    auto Owner = std::upper_bound(Functions.begin(), Functions.end(), T,
                                  [](uint64_t V, const Function &F) { return V < F.Begin; });
    const Function &F = *std::prev(Owner);
    if (!Labels.count(T))
      Labels.try_emplace(T, ".L" + F.Name + "_" + utohexstr(T - F.Begin, /*LowerCase=*/true));
  }
  // gfx101x: the assembler lengthens a branch to a label 0x3f words on
  // (LLVM's offset-0x3f workaround); the proof assembles the number, so
  // such a branch is kept as its word here.
  if (Target->subtargetInfo().checkFeatures("+offset-3f-bug"))
    for (const std::vector<Decoded> &FunctionInsts : Insts)
      for (const Decoded &D : FunctionInsts)
        if (D.Dest && Labels.count(*D.Dest) && D.Inst.getNumOperands() &&
            D.Inst.getOperand(0).isImm() && D.Inst.getOperand(0).getImm() == 0x3f)
          Opaque.insert({Index, D.Offset});

  OS << (Name == ".text" ? Twine("\t.text\n") : "\t.section\t" + Name + ",\"ax\",@progbits\n");
  unsigned AlignLog2 = S.sh_addralign > 1 ? Log2_64(S.sh_addralign) : 0;
  if (AlignLog2)
    OS << "\t.p2align " << AlignLog2 << "\n";
  uint64_t Pos = 0;
  for (size_t F = 0; F < Functions.size(); ++F) {
    writeGap(Bytes, Pos, Functions[F].Begin, AlignLog2, OS);
    Pos = Functions[F].End;
    if (!Options.Kernel.empty() && Functions[F].Sym->Name != Options.Kernel) {
      OS << "\t.fill " << Functions[F].End - Functions[F].Begin << ", 1, 0 ; "
         << Functions[F].Sym->Name << " (not selected)\n";
      continue;
    }
    writeFunction(Functions[F], Insts[F], Labels, AlignLog2, OS);
  }
  writeGap(Bytes, Pos, Bytes.size(), AlignLog2, OS);
  return Error::success();
}

size_t Disassembler::alignmentRun(ArrayRef<Decoded> Insts, size_t I, uint64_t End,
                                  const LabelMap &Labels,
                                  unsigned MaxAlignLog2, StringRef Bytes, unsigned &Log2) const {
  auto IsFill = [&](const Decoded &D) {
    return D.Valid && D.Size == 4 &&
           support::endian::read32le(Bytes.data() + D.Offset) == CodeAlignmentFill;
  };
  // A branch to the run runs it: its `s_nop 0`s are wait states (LLVM puts
  // a hazard's at the start of the block that needs it), not fill, which
  // lies before the label.
  if (I == 0 || !IsFill(Insts[I]) || !Insts[I - 1].Valid || IsFill(Insts[I - 1]) ||
      Labels.count(Insts[I].Offset))
    return 0;
  size_t J = I;
  while (J < Insts.size() && IsFill(Insts[J]) && !Labels.count(Insts[J].Offset))
    ++J;
  // Reached by falling through, one `s_nop 0` may be a hazard's wait state
  // (LLVM writes a longer wait as one `s_nop N`); a run of them is the fill.
  const MCInstrDesc &Before = Target->instrInfo().get(Insts[I - 1].Inst.getOpcode());
  if (!Before.isBarrier() && !Before.isReturn() && J - I < 2)
    return 0;
  uint64_t RunEnd = J < Insts.size() ? Insts[J].Offset : End;
  if (RunEnd == End)
    return 0;
  Log2 = std::min<unsigned>(MaxAlignLog2, countr_zero(RunEnd));
  if (Log2 < 2 || RunEnd - Insts[I].Offset >= (uint64_t(1) << Log2))
    return 0;
  return J - I;
}

void Disassembler::writeFunction(const Function &F, ArrayRef<Decoded> Insts,
                                 const LabelMap &Labels,
                                 unsigned MaxAlignLog2, raw_ostream &OS) {
  const Symbol &Sym = *F.Sym;
  StringRef Name = F.Name;
  if (Sym.Binding == ELF::STB_GLOBAL)
    OS << "\t.globl " << Name << "\n";
  else if (Sym.Binding == ELF::STB_WEAK)
    OS << "\t.weak " << Name << "\n";
  if (Sym.Visibility == ELF::STV_PROTECTED)
    OS << "\t.protected " << Name << "\n";
  else if (Sym.Visibility == ELF::STV_HIDDEN)
    OS << "\t.hidden " << Name << "\n";
  if (Name != Sym.Name)
    OS << "\t; " << Sym.Name << " (another function has that name)\n";
  OS << "\t.type " << Name << ",@function\n" << Name << ":\n";
  const MCInstrInfo &MII = Target->instrInfo();
  StringRef Bytes = Object.sectionContents(Object.sections()[Sym.Section]);
  SmallString<96> Key;
  for (size_t I = 0; I < Insts.size(); ++I) {
    const Decoded &D = Insts[I];
    if (auto It = Labels.find(D.Offset); It != Labels.end() && D.Offset != F.Begin)
      OS << It->second << ":\n";
    unsigned Log2 = 0;
    if (size_t Run = alignmentRun(Insts, I, F.End, Labels, MaxAlignLog2, Bytes, Log2)) {
      OS << "\t.p2align " << Log2 << "\n";
      I += Run - 1;
      continue;
    }
    bool Reassembles = D.Valid && !Opaque.count({Sym.Section, D.Offset});
    if (!Reassembles) {
      // Kept as it is: bytes MC cannot decode, or whose text it does not
      // assemble back into them.
      StringRef Raw = Bytes.substr(D.Offset, D.Size);
      bool Words = Raw.size() % 4 == 0;
      for (size_t I = 0; I < Raw.size(); I += Words ? 4 : 1) {
        OS << (I ? ", " : Words ? "\t.long " : "\t.byte ");
        if (Words)
          OS << hexString(support::endian::read32le(Raw.data() + I));
        else
          OS << hexString(uint8_t(Raw[I]));
      }
      if (D.Valid)
        OS << " ; " << Target->printMC(D.Inst) << " (LLVM MC assembles it into other bytes)\n";
      else
        OS << " ; undecodable\n";
      continue;
    }
    PrintedInst &P = Printed.emplace_back();
    P.Section = Sym.Section;
    P.Offset = D.Offset;
    std::string Text = Target->printMC(D.Inst);
    Key = Text;
    Key.push_back('\0');
    Key += Bytes.substr(D.Offset, D.Size);
    auto [Entry, New] = Distinct.try_emplace(Key, unsigned(DistinctBytes.size()));
    if (New) {
      DistinctBytes.push_back(Entry->getKey().split('\0').second);
      ((DistinctLines += '\t') += Text) += '\n';
    }
    P.Distinct = Entry->second;
    P.Line = OS.tell();
    if (auto It = D.Dest ? Labels.find(*D.Dest) : Labels.end(); It != Labels.end()) {
      MCInst Inst = D.Inst;
      const MCInstrDesc &Desc = MII.get(Inst.getOpcode());
      unsigned Named = 0;
      for (unsigned I = 0; I < Inst.getNumOperands() && I < Desc.getNumOperands(); ++I)
        if (Desc.operands()[I].OperandType == MCOI::OPERAND_PCREL && Inst.getOperand(I).isImm()) {
          Inst.getOperand(I) = MCOperand::createExpr(
              MCSymbolRefExpr::create(Ctx->getOrCreateSymbol(It->second), *Ctx));
          P.LabelOperand = int(I);
          ++Named;
        }
      // The reader parses a line naming more than one label itself.
      if (Named > 1)
        P.LabelOperand = UnknownToReader;
      P.Label = Saved.save(It->second);
      OS << "\t" << Target->printMC(Inst) << "\n";
    } else {
      OS << "\t" << Text << "\n";
    }
    P.LineEnd = OS.tell();
  }
  OS << "\t.size " << Name << ", .-" << Name << "\n";
}

void Disassembler::writeDescriptorBytes(const Symbol &KD, StringRef Kernel, StringRef Bytes,
                                        const DecodedDescriptor &Decoded, raw_ostream &OS) {
  OS << "\t; " << KD.Name << " kept as its bytes: " << Decoded.KeptAsBytes
     << "; otherwise it is:\n";
  for (StringRef Line : split(StringRef(Decoded.Block).rtrim(), '\n'))
    OS << "\t; " << Line.ltrim() << "\n";
  if (KD.Binding == ELF::STB_GLOBAL)
    OS << "\t.globl " << KD.Name << "\n";
  if (KD.Visibility == ELF::STV_PROTECTED)
    OS << "\t.protected " << KD.Name << "\n";
  OS << "\t.type " << KD.Name << ",@object\n" << KD.Name << ":\n";
  auto Words = [&](size_t From, size_t To) {
    for (size_t I = From; I < To; I += 4)
      OS << (I == From ? "\t.long " : ", ")
         << hexString(support::endian::read32le(Bytes.data() + I));
    OS << "\n";
  };
  // kernel_code_entry_byte_offset (bytes 16-23): from the descriptor to
  // the code, a PC-relative value the linker writes.
  Words(0, 16);
  OS << "\t.quad " << Kernel << " - . + 16\n";
  Words(24, 64);
  OS << "\t.size " << KD.Name << ", 64\n";
}

void Disassembler::writeGap(StringRef Bytes, uint64_t Begin, uint64_t End,
                            unsigned MaxAlignLog2, raw_ostream &OS) {
  if (Begin >= End)
    return;
  StringRef Gap = Bytes.slice(Begin, End);
  bool Words = Gap.size() % 4 == 0 && Begin % 4 == 0;
  uint32_t First = Words ? support::endian::read32le(Gap.data()) : 0;
  for (size_t I = 0; Words && I < Gap.size(); I += 4)
    Words = support::endian::read32le(Gap.data() + I) == First;
  if (Words && First == CodeAlignmentFill && End < Bytes.size()) {
    // The assembler's own alignment before a function: .p2align writes it
    // back and keeps the function aligned when code before it changes.
    unsigned Log2 = std::min<unsigned>(MaxAlignLog2, End ? countr_zero(End) : MaxAlignLog2);
    if (Log2 >= 2 && Gap.size() < (uint64_t(1) << Log2)) {
      OS << "\t.p2align " << Log2 << "\n";
      return;
    }
  }
  if (Words) {
    OS << "\t.fill " << Gap.size() / 4 << ", 4, " << hexString(First) << " ; padding\n";
    return;
  }
  for (size_t I = 0; I < Gap.size(); I += 16) {
    OS << "\t.byte ";
    for (size_t J = I; J < std::min(Gap.size(), I + 16); ++J)
      OS << (J > I ? ", " : "") << hexString(uint8_t(Gap[J]));
    OS << "\n";
  }
}

Error Disassembler::writeDescriptors(raw_ostream &OS) {
  std::vector<const Symbol *> Descriptors;
  for (const Symbol &S : Symbols)
    if (isKernelDescriptor(S))
      Descriptors.push_back(&S);
  stable_sort(Descriptors, [](const Symbol *A, const Symbol *B) { return A->Value < B->Value; });
  bool Relocatable = Object.header().e_type == ELF::ET_REL;
  Expected<StringMap<uint64_t>> Counts = metadataSgprCounts(Object);
  if (!Counts)
    return Counts.takeError();
  const StringMap<uint64_t> &SgprCounts = *Counts;
  bool First = true;
  for (const Symbol *KD : Descriptors) {
    StringRef Kernel = StringRef(KD->Name).drop_back(3);
    const Elf_Shdr &S = Object.sections()[KD->Section];
    StringRef Contents = Object.sectionContents(S);
    uint64_t Base = base(S);
    if (KD->Value < Base || KD->Value - Base > Contents.size() ||
        Contents.size() - (KD->Value - Base) < 64)
      return createStringError("kernel descriptor " + KD->Name + " (" + hexString(KD->Value) +
                               ") lies outside section " + Object.sectionName(S));
    StringRef Bytes = Contents.substr(KD->Value - Base, 64);
    if (!Relocatable) {
      // kernel_code_entry_byte_offset: from the descriptor to the code.
      int64_t Entry = int64_t(support::endian::read64le(Bytes.data() + 16));
      uint64_t Code = KD->Value + uint64_t(Entry);
      auto Function = find_if(Symbols, [&](const Symbol &F) {
        return F.Type == ELF::STT_FUNC && F.Name == Kernel;
      });
      if (Function == Symbols.end() || Function->Value != Code) {
        const Elf_Shdr &Text = Object.sections()[Function == Symbols.end() ? 0
                                                                          : Function->Section];
        bool InText = Function != Symbols.end() && Code >= Text.sh_addr &&
                      Code - Text.sh_addr < Text.sh_size;
        return createStringError(
            "kernel descriptor " + KD->Name + ": its code entry " + hexString(Code) +
            (InText ? " is not the start of " + Kernel.str() : Twine(" lies outside .text")));
      }
    }
    if (!Options.Kernel.empty() && Kernel != Options.Kernel)
      continue;
    auto Sgprs = SgprCounts.find(Kernel);
    Expected<DecodedDescriptor> Decoded =
        DescriptorText->decode(Kernel, arrayRefFromStringRef(Bytes), KD->Value,
                               Sgprs == SgprCounts.end() ? std::nullopt
                                                         : std::optional<uint64_t>(Sgprs->second));
    if (!Decoded)
      return Decoded.takeError();
    if (First)
      OS << "\t.rodata\n";
    First = false;
    OS << "\t.p2align 6\n";
    if (Decoded->KeptAsBytes.empty()) {
      // Assembled into the descriptor's bytes (DescriptorDecoder.h).
      size_t Begin = OS.tell();
      OS << Decoded->Block;
      if (Known)
        Known->CheckedBlocks.emplace_back(Begin, OS.tell());
      continue;
    }
    writeDescriptorBytes(*KD, Kernel, Bytes, *Decoded, OS);
  }
  return Error::success();
}

} // namespace

Expected<std::vector<std::string>> codeObjectKernels(const ElfImage &Object) {
  Expected<std::vector<Symbol>> Syms = readSymbols(Object);
  if (!Syms)
    return Syms.takeError();
  std::vector<const Symbol *> Descriptors;
  for (const Symbol &S : *Syms)
    if (isKernelDescriptor(S))
      Descriptors.push_back(&S);
  stable_sort(Descriptors, [](const Symbol *A, const Symbol *B) { return A->Value < B->Value; });
  std::vector<std::string> Names;
  for (const Symbol *S : Descriptors)
    Names.push_back(StringRef(S->Name).drop_back(3).str());
  return Names;
}

Expected<std::string> disassembleCodeObject(const ElfImage &Object,
                                            const DisassemblyOptions &Options,
                                            KnownStatements *Known) {
  if (Known)
    *Known = KnownStatements();
  return Disassembler(Object, Options, Known).run();
}

} // namespace stinkytofu
