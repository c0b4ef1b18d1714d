//===- TargetInfo.cpp - LLVM MC description of one AMDGPU target ---------===//
#include "stinkytofu/hw/TargetInfo.h"
#include "stinkytofu/hw/HardwareModel.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/MC/MCParser/MCAsmParser.h"
#include "llvm/MC/MCParser/MCTargetAsmParser.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/TargetSelect.h"
#include <cstring>
#include <map>
#include <mutex>

using namespace llvm;

namespace stinkytofu {

namespace {

void initializeAMDGPU() {
  static std::once_flag Once;
  std::call_once(Once, [] {
    LLVMInitializeAMDGPUTargetInfo();
    LLVMInitializeAMDGPUTargetMC();
    LLVMInitializeAMDGPUAsmParser();
  });
}

/// Splits "amdgcn-amd-amdhsa--gfx90a:xnack+:sramecc-" (or "gfx90a:xnack-")
/// into the processor and an MC feature string.
void splitTargetId(StringRef TargetId, std::string &Processor,
                   std::string &Features) {
  StringRef Rest = TargetId.trim();
  size_t Dashes = Rest.rfind("--");
  if (Dashes != StringRef::npos)
    Rest = Rest.substr(Dashes + 2);
  SmallVector<StringRef, 4> Parts;
  Rest.split(Parts, ':');
  Processor = Parts.front().lower();
  std::string F;
  for (StringRef Feature : ArrayRef(Parts).drop_front()) {
    if (Feature.empty())
      continue;
    char Sign = Feature.back();
    if (Sign != '+' && Sign != '-')
      continue;
    if (!F.empty())
      F += ',';
    F += Sign;
    F += Feature.drop_back().str();
  }
  Features = F;
}

} // namespace

ArrayRef<StringRef> TargetInfo::supportedProcessors() {
  return HardwareModel::processors();
}

namespace {
/// The TargetInfos no holder has now, by target id. LLVM's MC objects are
/// not read-only while used (MCRegisterInfo fills an alias cache on demand;
/// a target parser may change the subtarget it is handed), so a TargetInfo
/// is handed to one holder at a time (a module, and what it shares it with)
/// and comes back here when the holder lets go: threads never share one, and
/// one thread working on one module after another builds each target once.
/// Never destroyed: a holder may let go during static destruction.
struct TargetPool {
  std::mutex Lock;
  std::map<std::string, std::vector<const TargetInfo *>, std::less<>> Idle;
};
TargetPool &targetPool() {
  static TargetPool *Pool = new TargetPool;
  return *Pool;
}
} // namespace

Expected<std::shared_ptr<const TargetInfo>> TargetInfo::get(StringRef TargetId) {
  TargetPool &Pool = targetPool();
  auto Lease = [&Pool, Key = TargetId.str()](const TargetInfo *TI) {
    return std::shared_ptr<const TargetInfo>(TI, [&Pool, Key](const TargetInfo *Back) {
      std::lock_guard<std::mutex> Guard(Pool.Lock);
      Pool.Idle[Key].push_back(Back);
    });
  };
  {
    std::lock_guard<std::mutex> Guard(Pool.Lock);
    if (auto It = Pool.Idle.find(TargetId); It != Pool.Idle.end() && !It->second.empty()) {
      const TargetInfo *TI = It->second.back();
      It->second.pop_back();
      return Lease(TI);
    }
  }

  // Built outside the lock: threads starting on different targets do not
  // wait for each other.
  initializeAMDGPU();
  std::unique_ptr<TargetInfo> TI(new TargetInfo());
  splitTargetId(TargetId, TI->Processor, TI->Features);
  TI->Hardware = HardwareModel::lookup(TI->Processor);
  if (!TI->Hardware)
    return createStringError(inconvertibleErrorCode(),
                             "unsupported target '" + TargetId.str() +
                                 "' (supported: " +
                                 join(supportedProcessors(), ", ") + ")");
  TI->TheTriple = Triple("amdgcn-amd-amdhsa");
  std::string Err;
  TI->TheTarget = TargetRegistry::lookupTarget(TI->TheTriple, Err);
  if (!TI->TheTarget)
    return createStringError(inconvertibleErrorCode(), Err);
  TI->MRI.reset(TI->TheTarget->createMCRegInfo(TI->TheTriple));
  TI->MAI.reset(TI->TheTarget->createMCAsmInfo(*TI->MRI, TI->TheTriple, TI->Options));
  TI->MII.reset(TI->TheTarget->createMCInstrInfo());
  TI->STI.reset(TI->TheTarget->createMCSubtargetInfo(TI->TheTriple, TI->Processor,
                                                     TI->Features));
  if (!TI->MRI || !TI->MAI || !TI->MII || !TI->STI)
    return createStringError(inconvertibleErrorCode(),
                             "cannot create the LLVM MC objects for " + TargetId.str());
  return Lease(TI.release());
}

TargetInfo::~TargetInfo() = default;

/// Whether an MC register name carries a subtarget encoding token. MC spells
/// register names in upper case; the tokens are lower case and are the last
/// part of the name or come right before its 16-bit half suffix
/// (M0_gfxpre11, SGPR_NULL_gfx11plus_LO16), so the tail tells without
/// scanning the long tuple names.
static bool hasEncodingToken(StringRef Name) {
  Name.consume_back("_LO16") || Name.consume_back("_HI16");
  // A character search: rsplit's substring search, over MC's 20,000
  // register names, was a quarter of the indexing.
  size_t Cut = Name.rfind('_');
  return Cut != StringRef::npos && Cut + 1 < Name.size() && isLower(Name[Cut + 1]);
}

/// The name without its encoding tokens (M0_gfxpre11 -> M0,
/// SGPR_NULL_gfx11plus_LO16 -> SGPR_NULL_LO16).
static std::string genericRegisterName(StringRef Name) {
  SmallVector<StringRef, 8> Parts;
  Name.split(Parts, '_');
  std::string Generic;
  for (StringRef P : Parts) {
    if (P == "ci" || P == "vi" || P == "gfxpre11" || P == "gfx11plus" || P == "gfx9plus")
      continue;
    if (!Generic.empty())
      Generic += '_';
    Generic += P;
  }
  return Generic;
}

bool TargetInfo::dsReadsM0(unsigned Opcode, bool Gds) const {
  StringRef Suffix = Hardware->dsM0FreeVariant();
  if (Suffix.empty() || Gds)
    return true;
  M0FreeDsOnce([&] {
    // DS_READ_B32_vi encodes DS_READ_B32; DS_READ_B32_gfx9 is its M0-free
    // twin. Only names starting with DS are kept (a few hundred of some
    // twenty thousand opcodes): a twin's name minus the suffix is a DS_
    // name cut at an underscore, at least `DS`.
    StringSet<> Free;
    SmallVector<std::pair<unsigned, StringRef>, 0> Ds;
    for (unsigned Op = 0, E = MII->getNumOpcodes(); Op != E; ++Op)
      if (StringRef Name = MII->getName(Op); Name.starts_with("DS")) {
        if (Name.starts_with("DS_"))
          Ds.emplace_back(Op, Name);
        if (Name.consume_back(Suffix))
          Free.insert(Name);
      }
    M0FreeDs.assign(MII->getNumOpcodes(), false);
    for (auto [Op, Name] : Ds) {
      size_t Cut = Name.rfind('_');
      M0FreeDs[Op] = Cut != StringRef::npos && Free.contains(Name.take_front(Cut));
    }
  });
  return Opcode >= M0FreeDs.size() || !M0FreeDs[Opcode];
}

int TargetInfo::tiedDef(unsigned Opcode, unsigned Op) const {
  const MCInstrDesc &Desc = MII->get(Opcode);
  if (Op < Desc.getNumOperands())
    if (int Tied = Desc.getOperandConstraint(Op, MCOI::TIED_TO); Tied >= 0)
      return Tied;
  PseudoOfOnce([&] {
    // S_BITSET1_B32_gfx11 encodes S_BITSET1_B32: the name less its last
    // lower-case token.
    StringMap<unsigned> ByName;
    for (unsigned O = 0, E = MII->getNumOpcodes(); O != E; ++O)
      ByName[MII->getName(O)] = O;
    PseudoOf.assign(MII->getNumOpcodes(), 0);
    for (unsigned O = 0, E = MII->getNumOpcodes(); O != E; ++O) {
      StringRef Name = MII->getName(O);
      size_t Cut = Name.rfind('_');
      if (Cut == StringRef::npos || Cut + 1 >= Name.size() || !isLower(Name[Cut + 1]))
        continue;
      if (auto It = ByName.find(Name.take_front(Cut)); It != ByName.end())
        PseudoOf[O] = It->second;
    }
  });
  unsigned Pseudo = Opcode < PseudoOf.size() ? PseudoOf[Opcode] : 0;
  if (!Pseudo)
    return -1;
  const MCInstrDesc &PseudoDesc = MII->get(Pseudo);
  if (PseudoDesc.getNumOperands() != Desc.getNumOperands())
    return -1;
  return PseudoDesc.getOperandConstraint(Op, MCOI::TIED_TO);
}

unsigned TargetInfo::RegisterNameInfo::getHashValue(StringRef Name) {
  size_t N = Name.size();
  uint64_t Head = 0, Tail = 0;
  std::memcpy(&Head, Name.data(), std::min<size_t>(N, 8));
  if (N > 8)
    std::memcpy(&Tail, Name.data() + N - 8, 8);
  // MurmurHash3's finalizer: every input bit reaches the low bits, which
  // pick the bucket.
  uint64_t H = Head ^ (Tail * 0x9E3779B97F4A7C15ull) ^ (uint64_t(N) << 56);
  H ^= H >> 33;
  H *= 0xFF51AFD7ED558CCDull;
  H ^= H >> 33;
  H *= 0xC4CEB9FE1A85EC53ull;
  H ^= H >> 33;
  return unsigned(H);
}

/// The register files MC names <FILE><n> (32-bit registers) and
/// <FILE><n>_<FILE><n+1>... (tuples), <FILE><n>_LO16 (halves).
static constexpr StringRef FilePrefixes[] = {"SGPR", "VGPR", "AGPR", "TTMP"};
static constexpr RegClass FileClasses[] = {RegClass::SGPR, RegClass::VGPR, RegClass::AGPR,
                                           RegClass::TTMP};

/// The file whose prefix \p Name starts with, or none.
static std::optional<unsigned> fileOf(StringRef Name) {
  for (unsigned F = 0; F < std::size(FilePrefixes); ++F)
    if (Name.starts_with(FilePrefixes[F]))
      return F;
  return std::nullopt;
}

void TargetInfo::indexRegisters() const {
  unsigned N = MRI->getNumRegs();
  ClassOfReg.assign(N, uint8_t(RegClass::Special));
  IndexOfReg.assign(N, -1);
  CanonicalOf.resize(N);
  std::vector<MCRegister> *FileRegs[] = {&SGPRs, &VGPRs, &AGPRs, &TTMPs};
  SmallVector<unsigned, 64> Encodings; // registers with a subtarget token
  for (unsigned R = 0; R < N; ++R) {
    CanonicalOf[R] = MCRegister(R);
    if (R == 0)
      continue;
    StringRef Name = MRI->getName(R);
    if (hasEncodingToken(Name))
      Encodings.push_back(R);
    // MC names the 32-bit registers <FILE><n>; tuples (SGPR0_SGPR1) and
    // halves (VGPR0_LO16) carry suffixes but start with their file's name.
    std::optional<unsigned> F = fileOf(Name);
    if (!F) {
      RegByName.try_emplace(Name, MCRegister(R));
      continue;
    }
    ClassOfReg[R] = uint8_t(FileClasses[*F]);
    StringRef Digits = Name.drop_front(FilePrefixes[*F].size());
    unsigned Index;
    if (all_of(Digits, isDigit) && !Digits.getAsInteger(10, Index)) {
      std::vector<MCRegister> &Regs = *FileRegs[*F];
      if (Regs.size() <= Index)
        Regs.resize(Index + 1);
      Regs[Index] = MCRegister(R);
      IndexOfReg[R] = int32_t(Index);
    } else if (FileClasses[*F] == RegClass::SGPR || FileClasses[*F] == RegClass::TTMP) {
      // The few hundred SGPR and TTMP tuple names are indexed now: the
      // encodings below look some of them up.
      FileNames[*F].try_emplace(Name, MCRegister(R));
    }
  }
  for (unsigned F = 0; F < std::size(FilePrefixes); ++F)
    if (FileClasses[F] == RegClass::SGPR || FileClasses[F] == RegClass::TTMP)
      FileNamesOnce[F]([] {}); // indexed above
  // Subtarget encodings (M0_gfxpre11, TTMP0_TTMP1_gfx9plus, FLAT_SCR_LO_vi,
  // SGPR_NULL_gfx11plus_LO16) map to the generic register of the same name
  // without the token.
  for (unsigned R : Encodings)
    if (MCRegister G = lookupRegister(genericRegisterName(MRI->getName(R))))
      CanonicalOf[R] = G;
}

MCRegister TargetInfo::lookupRegister(StringRef MCName) const {
  std::optional<unsigned> F = fileOf(MCName);
  if (!F)
    return RegByName.lookup(MCName);
  // A plain 32-bit register, from the tables being built (not reg32, which
  // would wait for the indexing that may be calling this).
  const std::vector<MCRegister> *FileRegs[] = {&SGPRs, &VGPRs, &AGPRs, &TTMPs};
  const std::vector<MCRegister> &Regs = *FileRegs[*F];
  StringRef Digits = MCName.drop_front(FilePrefixes[*F].size());
  unsigned Index;
  if (all_of(Digits, isDigit) && !Digits.getAsInteger(10, Index) && Index < Regs.size())
    if (MCRegister R = Regs[Index]; R.isValid() && MRI->getName(R) == MCName)
      return R;
  FileNamesOnce[*F]([&] {
    for (unsigned R = 1, N = MRI->getNumRegs(); R < N; ++R)
      if (StringRef Name = MRI->getName(R); Name.starts_with(FilePrefixes[*F]))
        FileNames[*F].try_emplace(Name, MCRegister(R));
  });
  return FileNames[*F].lookup(MCName);
}

MCRegister TargetInfo::findRegister(StringRef MCName) const {
  ensureIndexed();
  return lookupRegister(MCName);
}

MCRegister TargetInfo::reg32(RegClass Class, unsigned Index) const {
  ensureIndexed();
  const std::vector<MCRegister> *Regs = nullptr;
  switch (Class) {
  case RegClass::SGPR: Regs = &SGPRs; break;
  case RegClass::VGPR: Regs = &VGPRs; break;
  case RegClass::AGPR: Regs = &AGPRs; break;
  case RegClass::TTMP: Regs = &TTMPs; break;
  default: return MCRegister();
  }
  return Index < Regs->size() ? (*Regs)[Index] : MCRegister();
}

SmallVector<MCRegister, 4> TargetInfo::covered32(MCRegister Reg) const {
  SmallVector<MCRegister, 4> Out;
  if (indexOf(Reg)) {
    Out.push_back(Reg);
    return Out;
  }
  for (MCSubRegIterator Sub(Reg, MRI.get()); Sub.isValid(); ++Sub)
    if (indexOf(*Sub))
      Out.push_back(*Sub);
  if (Out.empty())
    Out.push_back(Reg);
  llvm::sort(Out, [&](MCRegister A, MCRegister B) {
    return *indexOf(A) < *indexOf(B);
  });
  return Out;
}

std::string TargetInfo::asmName(MCRegister Reg) const {
  static constexpr StringRef Letters[] = {"", "s", "v", "a", "ttmp", ""};
  RegClass C = classOf(Reg);
  if (C == RegClass::SGPR || C == RegClass::VGPR || C == RegClass::AGPR ||
      C == RegClass::TTMP) {
    SmallVector<MCRegister, 4> Regs = covered32(Reg);
    if (Regs.size() == 1 && indexOf(Regs[0]) && Regs[0] == Reg)
      return (Letters[unsigned(C)] + Twine(*indexOf(Reg))).str();
    if (indexOf(Regs.front()) && indexOf(Regs.back()))
      return (Letters[unsigned(C)] + "[" + Twine(*indexOf(Regs.front())) + ":" +
              Twine(*indexOf(Regs.back())) + "]")
          .str();
  }
  return StringRef(MRI->getName(canonical(Reg))).lower();
}

TargetAsmParser::TargetAsmParser() = default;
TargetAsmParser::TargetAsmParser(TargetAsmParser &&) = default;
TargetAsmParser::~TargetAsmParser() = default;

TargetAsmParser TargetInfo::createAsmParser(llvm::SourceMgr &SM, llvm::MCContext &Ctx,
                                            llvm::MCStreamer &Out, unsigned Buffer) const {
  TargetAsmParser P;
  P.Parser.reset(llvm::createMCAsmParser(SM, Ctx, Out, *MAI, Buffer));
  P.TargetParser.reset(
      TheTarget->createMCAsmParser(*STI, *P.Parser, *MII, Options));
  if (P.TargetParser)
    P.Parser->setTargetParser(*P.TargetParser);
  return P;
}

std::string TargetInfo::printMC(const llvm::MCInst &Inst) const {
  PrinterOnce([this] {
    Printer.reset(TheTarget->createMCInstPrinter(TheTriple, MAI->getAssemblerDialect(), *MAI,
                                                 *MII, *MRI));
  });
  // The printer writes a few bytes at a time: into a buffer on the stack,
  // not a string grown by each write (a disassembly prints every line).
  SmallString<128> Text;
  raw_svector_ostream OS(Text);
  {
    std::lock_guard<std::mutex> Guard(PrinterLock);
    Printer->printInst(&Inst, /*Address=*/0, /*Annot=*/"", *STI, OS);
  }
  return Text.str().trim().str();
}

} // namespace stinkytofu
