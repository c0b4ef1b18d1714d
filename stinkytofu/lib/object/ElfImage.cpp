//===- ElfImage.cpp - A checked little-endian ELF64 image -----------------===//
#include "stinkytofu/object/ElfImage.h"
#include "stinkytofu/support/HexString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Support/Format.h"

using namespace llvm;
using namespace llvm::object;

namespace stinkytofu::elf {

namespace {

/// True when [Offset, Offset + Size) lies inside a file of \p FileSize bytes.
bool inBounds(uint64_t Offset, uint64_t Size, uint64_t FileSize) {
  return Offset <= FileSize && Size <= FileSize - Offset;
}

} // namespace

Expected<ElfImage> ElfImage::create(StringRef Bytes) {
  if (Bytes.size() < 4 || !Bytes.starts_with("\x7f" "ELF"))
    return createStringError("not an ELF file");
  if (Bytes.size() < ELF::EI_NIDENT)
    return createStringError("truncated ELF header (" + Twine(Bytes.size()) + " bytes)");
  uint8_t Class = Bytes[ELF::EI_CLASS];
  uint8_t Data = Bytes[ELF::EI_DATA];
  if (Class == ELF::ELFCLASS32)
    return createStringError("32-bit ELF (ELFCLASS32) is not supported: expected a 64-bit "
                             "little-endian AMDGPU code object");
  if (Class != ELF::ELFCLASS64)
    return createStringError("invalid ELF class " + Twine(unsigned(Class)));
  if (Data == ELF::ELFDATA2MSB)
    return createStringError("big-endian ELF (ELFDATA2MSB) is not supported: expected a 64-bit "
                             "little-endian AMDGPU code object");
  if (Data != ELF::ELFDATA2LSB)
    return createStringError("invalid ELF data encoding " + Twine(unsigned(Data)));
  if (Bytes.size() < sizeof(Elf_Ehdr))
    return createStringError("truncated ELF header (" + Twine(Bytes.size()) + " of " +
                             Twine(sizeof(Elf_Ehdr)) + " bytes)");
  Expected<ELFFile<ELFT>> File = ELFFile<ELFT>::create(Bytes);
  if (!File)
    return File.takeError();
  ElfImage Image(Bytes, std::move(*File));
  if (Error E = Image.check())
    return std::move(E);
  if (Error E = Image.readSymbols())
    return std::move(E);
  return std::move(Image);
}

Error ElfImage::check() {
  const Elf_Ehdr &H = header();
  uint64_t Size = Bytes.size();
  if (H.e_shoff != 0) {
    if (H.e_shentsize != sizeof(Elf_Shdr))
      return createStringError("unexpected e_shentsize " + Twine(H.e_shentsize) + " (expected " +
                               Twine(sizeof(Elf_Shdr)) + ")");
    if (H.e_shnum != 0 && !inBounds(H.e_shoff, uint64_t(H.e_shnum) * sizeof(Elf_Shdr), Size))
      return createStringError("section header table (offset " + hexString(H.e_shoff) + ", " +
                               Twine(H.e_shnum) +
                               " entries) extends past the end of the file (size " +
                               hexString(Size) + "): truncated or corrupt");
  }
  Expected<ELFT::ShdrRange> Secs = File.sections();
  if (!Secs)
    return Secs.takeError();
  Sections = *Secs;
  for (size_t I = 0; I < Sections.size(); ++I) {
    const Elf_Shdr &S = Sections[I];
    if (S.sh_type != ELF::SHT_NOBITS && S.sh_type != ELF::SHT_NULL &&
        !inBounds(S.sh_offset, S.sh_size, Size))
      return createStringError("section " + Twine(I) + " (offset " + hexString(S.sh_offset) +
                               ", size " + hexString(S.sh_size) +
                               ") extends past the end of the file (size " + hexString(Size) +
                               "): truncated or corrupt");
  }

  if (H.e_phoff != 0 && H.e_phnum != 0 && H.e_phentsize != sizeof(Elf_Phdr))
    return createStringError("unexpected e_phentsize " + Twine(H.e_phentsize) + " (expected " +
                             Twine(sizeof(Elf_Phdr)) + ")");
  Expected<ELFT::PhdrRange> Phdrs = File.program_headers();
  if (!Phdrs)
    return Phdrs.takeError();
  Segments = *Phdrs;
  for (size_t I = 0; I < Segments.size(); ++I) {
    const Elf_Phdr &P = Segments[I];
    if (!inBounds(P.p_offset, P.p_filesz, Size))
      return createStringError("program header " + Twine(I) + " (offset " + hexString(P.p_offset) +
                               ", size " + hexString(P.p_filesz) +
                               ") extends past the end of the file (size " + hexString(Size) +
                               "): truncated or corrupt");
  }

  if (Sections.empty())
    return Error::success();
  ShStrIndex = H.e_shstrndx == ELF::SHN_XINDEX ? uint32_t(Sections[0].sh_link) : H.e_shstrndx;
  if (ShStrIndex == 0)
    return Error::success(); // no section names
  Expected<StringRef> Names = File.getSectionStringTable(Sections);
  if (!Names)
    return Names.takeError();
  ShStrTab = *Names;
  for (size_t I = 1; I < Sections.size(); ++I)
    if (Sections[I].sh_name >= ShStrTab.size())
      return createStringError("section " + Twine(I) + " has a name offset " +
                               hexString(Sections[I].sh_name) +
                               " past the end of the section name table");
  return Error::success();
}

Error ElfImage::readSymbols() {
  for (unsigned Type : {ELF::SHT_SYMTAB, ELF::SHT_DYNSYM}) {
    for (const Elf_Shdr &Sec : Sections) {
      if (Sec.sh_type != Type)
        continue;
      Expected<ELFT::SymRange> Syms = File.symbols(&Sec);
      if (!Syms)
        return Syms.takeError();
      Expected<StringRef> StrTab = File.getStringTableForSymtab(Sec, Sections);
      if (!StrTab)
        return StrTab.takeError();
      for (const ELFT::Sym &Sym : *Syms) {
        if (Sym.st_shndx == ELF::SHN_UNDEF || Sym.st_shndx == ELF::SHN_ABS)
          continue;
        Expected<StringRef> Name = Sym.getName(*StrTab);
        if (!Name)
          return Name.takeError();
        if (Name->empty())
          continue;
        SymbolInfo Info{Sym.st_value, Sym.getType()};
        auto [It, New] = Symbols.try_emplace(*Name, Info);
        if (!New && It->second.Type != ELF::STT_FUNC && Info.Type == ELF::STT_FUNC)
          It->second = Info;
      }
    }
  }
  return Error::success();
}

StringRef ElfImage::sectionName(const Elf_Shdr &S) const {
  if (S.sh_name >= ShStrTab.size())
    return "";
  return StringRef(ShStrTab.data() + S.sh_name); // the table ends in NUL
}

StringRef ElfImage::sectionContents(const Elf_Shdr &S) const {
  if (S.sh_type == ELF::SHT_NOBITS || S.sh_type == ELF::SHT_NULL)
    return "";
  return Bytes.substr(S.sh_offset, S.sh_size);
}

SmallVector<unsigned, 1> ElfImage::findSections(StringRef Name) const {
  SmallVector<unsigned, 1> Out;
  for (size_t I = 1; I < Sections.size(); ++I)
    if (sectionName(Sections[I]) == Name)
      Out.push_back(I);
  return Out;
}

std::string elfMachineName(uint16_t Machine) {
  switch (Machine) {
  case ELF::EM_AMDGPU:
    return "EM_AMDGPU";
  case ELF::EM_X86_64:
    return "EM_X86_64";
  case ELF::EM_AARCH64:
    return "EM_AARCH64";
  case ELF::EM_PPC64:
    return "EM_PPC64";
  case ELF::EM_RISCV:
    return "EM_RISCV";
  case ELF::EM_NONE:
    return "EM_NONE";
  default:
    return "machine " + std::to_string(Machine);
  }
}

StringRef amdgpuProcessorName(unsigned Mach) {
  switch (Mach) {
#define MACH(NAME, VALUE)                                                                          \
  case ELF::EF_AMDGPU_MACH_AMDGCN_##VALUE:                                                         \
    return NAME;
    MACH("gfx600", GFX600) MACH("gfx601", GFX601) MACH("gfx602", GFX602)
    MACH("gfx700", GFX700) MACH("gfx701", GFX701) MACH("gfx702", GFX702)
    MACH("gfx703", GFX703) MACH("gfx704", GFX704) MACH("gfx705", GFX705)
    MACH("gfx801", GFX801) MACH("gfx802", GFX802) MACH("gfx803", GFX803)
    MACH("gfx805", GFX805) MACH("gfx810", GFX810)
    MACH("gfx900", GFX900) MACH("gfx902", GFX902) MACH("gfx904", GFX904)
    MACH("gfx906", GFX906) MACH("gfx908", GFX908) MACH("gfx909", GFX909)
    MACH("gfx90a", GFX90A) MACH("gfx90c", GFX90C) MACH("gfx942", GFX942)
    MACH("gfx950", GFX950)
    MACH("gfx1010", GFX1010) MACH("gfx1011", GFX1011) MACH("gfx1012", GFX1012)
    MACH("gfx1013", GFX1013) MACH("gfx1030", GFX1030) MACH("gfx1031", GFX1031)
    MACH("gfx1032", GFX1032) MACH("gfx1033", GFX1033) MACH("gfx1034", GFX1034)
    MACH("gfx1035", GFX1035) MACH("gfx1036", GFX1036)
    MACH("gfx1100", GFX1100) MACH("gfx1101", GFX1101) MACH("gfx1102", GFX1102)
    MACH("gfx1103", GFX1103) MACH("gfx1150", GFX1150) MACH("gfx1151", GFX1151)
    MACH("gfx1152", GFX1152) MACH("gfx1153", GFX1153)
    MACH("gfx1200", GFX1200) MACH("gfx1201", GFX1201)
    MACH("gfx1250", GFX1250) MACH("gfx1251", GFX1251)
    MACH("gfx9-generic", GFX9_GENERIC) MACH("gfx9-4-generic", GFX9_4_GENERIC)
    MACH("gfx10-1-generic", GFX10_1_GENERIC) MACH("gfx10-3-generic", GFX10_3_GENERIC)
    MACH("gfx11-generic", GFX11_GENERIC) MACH("gfx12-generic", GFX12_GENERIC)
#undef MACH
  default:
    return "";
  }
}

std::string ElfImage::amdgpuTargetId() const {
  if (!isAMDGPU())
    return "";
  uint32_t Flags = header().e_flags;
  StringRef Processor = amdgpuProcessorName(Flags & ELF::EF_AMDGPU_MACH);
  if (Processor.empty())
    return "";
  std::string Id = Processor.str();
  // Code object v4 and later: ANY leaves the feature out of the target id.
  if (header().e_ident[ELF::EI_ABIVERSION] >= ELF::ELFABIVERSION_AMDGPU_HSA_V4) {
    switch (Flags & ELF::EF_AMDGPU_FEATURE_SRAMECC_V4) {
    case ELF::EF_AMDGPU_FEATURE_SRAMECC_ON_V4:
      Id += ":sramecc+";
      break;
    case ELF::EF_AMDGPU_FEATURE_SRAMECC_OFF_V4:
      Id += ":sramecc-";
      break;
    }
    switch (Flags & ELF::EF_AMDGPU_FEATURE_XNACK_V4) {
    case ELF::EF_AMDGPU_FEATURE_XNACK_ON_V4:
      Id += ":xnack+";
      break;
    case ELF::EF_AMDGPU_FEATURE_XNACK_OFF_V4:
      Id += ":xnack-";
      break;
    }
  }
  return Id;
}

} // namespace stinkytofu::elf
