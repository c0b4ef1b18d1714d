//===- FuncMapPatcher.cpp - Add or replace .sqtt_funcmap ------------------===//
#include "asm-instrument/elf/FuncMapPatcher.h"
#include "stinkytofu/object/ElfImage.h"
#include "asm-instrument/funcmap/FuncMapPrinter.h"
#include "llvm/ADT/Twine.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Support/MathExtras.h"
#include <cstring>
#include <optional>
#include <vector>

using namespace llvm;
using namespace llvm::object;

namespace stinkytofu::elf {

namespace {

struct Range {
  uint64_t Begin = 0, End = 0;
  bool overlaps(const Range &O) const { return Begin < O.End && O.Begin < End; }
};

/// Everything in the file other than the funcmap data and the section name
/// table: the ELF header, the program header table, the segments and the
/// other sections' data (and the old section header table when
/// \p WithSectionTable).
std::vector<Range> keptRanges(const ElfImage &Img, std::optional<unsigned> Skip1, unsigned Skip2,
                              bool WithSectionTable) {
  const Elf_Ehdr &H = Img.header();
  std::vector<Range> Out{{0, sizeof(Elf_Ehdr)}};
  if (H.e_phnum != 0)
    Out.push_back({H.e_phoff, H.e_phoff + uint64_t(H.e_phnum) * H.e_phentsize});
  for (const Elf_Phdr &P : Img.programHeaders())
    if (P.p_filesz != 0)
      Out.push_back({P.p_offset, P.p_offset + P.p_filesz});
  auto Secs = Img.sections();
  for (unsigned I = 1; I < Secs.size(); ++I)
    if (I != Skip1 && I != Skip2 && Secs[I].sh_type != ELF::SHT_NOBITS && Secs[I].sh_size != 0)
      Out.push_back({Secs[I].sh_offset, Secs[I].sh_offset + Secs[I].sh_size});
  if (WithSectionTable && !Secs.empty())
    Out.push_back({H.e_shoff, H.e_shoff + Secs.size() * sizeof(Elf_Shdr)});
  return Out;
}

void padTo(std::string &Out, uint64_t Align) {
  Out.resize(alignTo(Out.size(), Align), '\0');
}

/// Builds the patched image from the first \p Cutoff bytes of the input:
/// those bytes, the funcmap data, the section name table when it has to move
/// (it lacks the name, or lies past the cutoff) and a new section header
/// table. Fails when something other than the funcmap and the name table
/// lies past the cutoff.
Expected<std::string> build(const ElfImage &Img, std::optional<unsigned> FIdx, uint64_t Cutoff,
                            StringRef Data) {
  StringRef In = Img.bytes();
  auto Secs = Img.sections();
  unsigned SIdx = Img.sectionNameTableIndex();
  const Elf_Shdr &SHdr = Secs[SIdx];
  for (const Range &R : keptRanges(Img, FIdx, SIdx, /*WithSectionTable=*/false))
    if (R.End > Cutoff)
      return createStringError("data past the cut");

  StringRef ShStr = Img.sectionNameTable();
  uint32_t NameOff = 0;
  bool AddName = false;
  if (FIdx) {
    NameOff = Secs[*FIdx].sh_name;
  } else if (size_t P = ShStr.find(StringRef(".sqtt_funcmap\0", 14)); P != StringRef::npos) {
    NameOff = uint32_t(P);
  } else {
    AddName = true;
  }
  bool MoveNames = AddName || SHdr.sh_offset + SHdr.sh_size > Cutoff;

  std::string Out = In.take_front(Cutoff).str();
  if (FIdx) {
    // Zero the old funcmap text when nothing else shares its bytes.
    const Elf_Shdr &F = Secs[*FIdx];
    Range Old{F.sh_offset, F.sh_offset + F.sh_size};
    bool Shared = false;
    for (const Range &R : keptRanges(Img, FIdx, 0, /*WithSectionTable=*/true))
      Shared |= R.overlaps(Old);
    if (Range{SHdr.sh_offset, SHdr.sh_offset + SHdr.sh_size}.overlaps(Old))
      Shared = true;
    if (!Shared && Old.End <= Cutoff && Old.End > Old.Begin)
      std::memset(Out.data() + Old.Begin, 0, Old.End - Old.Begin);
  }

  uint64_t DataOff = Out.size();
  Out += Data;
  uint64_t NamesOff = SHdr.sh_offset, NamesSize = SHdr.sh_size;
  if (MoveNames) {
    uint64_t Align = SHdr.sh_addralign;
    padTo(Out, isPowerOf2_64(Align) && Align <= 64 ? Align : 1);
    NamesOff = Out.size();
    Out += ShStr;
    if (AddName) {
      NameOff = uint32_t(ShStr.size());
      Out += StringRef(".sqtt_funcmap\0", 14);
    }
    NamesSize = Out.size() - NamesOff;
  }
  if (uint64_t(NameOff) >= NamesSize)
    return createStringError("section name offset past the name table");

  padTo(Out, 8); // Elf64_Shdr alignment
  uint64_t TableOff = Out.size();
  std::vector<Elf_Shdr> Hdrs(Secs.begin(), Secs.end());
  Elf_Shdr F;
  std::memset(&F, 0, sizeof(F));
  F.sh_name = NameOff;
  F.sh_type = ELF::SHT_PROGBITS;
  F.sh_offset = DataOff;
  F.sh_size = Data.size();
  F.sh_addralign = 1;
  if (FIdx)
    Hdrs[*FIdx] = F;
  else
    Hdrs.push_back(F);
  Hdrs[SIdx].sh_offset = NamesOff;
  Hdrs[SIdx].sh_size = NamesSize;

  Elf_Ehdr H = Img.header();
  if (H.e_shnum == 0) {
    Hdrs[0].sh_size = Hdrs.size(); // extended section numbering
  } else if (Hdrs.size() >= ELF::SHN_LORESERVE) {
    return createStringError("too many sections to add .sqtt_funcmap");
  } else {
    H.e_shnum = uint16_t(Hdrs.size());
  }
  H.e_shoff = TableOff;
  Out.append(reinterpret_cast<const char *>(Hdrs.data()), Hdrs.size() * sizeof(Elf_Shdr));
  std::memcpy(Out.data(), &H, sizeof(H));
  return std::move(Out);
}

} // namespace

bool isFuncMapSectionText(StringRef Contents) {
  if (Contents.empty())
    return true;
  if (Contents.back() != '\0')
    return false;
  for (char C : Contents.rtrim('\0')) {
    unsigned char U = static_cast<unsigned char>(C);
    if (U < 0x20 && C != '\n' && C != '\r' && C != '\t')
      return false;
    if (U == 0x7f)
      return false;
  }
  return true;
}

Expected<std::string> patchFuncMapSection(StringRef Input, StringRef SectionBytes) {
  Expected<ElfImage> Img = ElfImage::create(Input);
  if (!Img)
    return Img.takeError();
  if (!Img->isAMDGPU()) {
    if (!Img->findSections(".hip_fatbin").empty())
      return createStringError(
          "host ELF with an offload bundle in .hip_fatbin: extract the code objects "
          "(sqtt-funcmap extract), patch each one and bundle them again");
    return createStringError("not an AMDGPU code object (" + elfMachineName(Img->machine()) + ")");
  }
  if (Img->sections().empty())
    return createStringError("no section header table");
  unsigned SIdx = Img->sectionNameTableIndex();
  if (SIdx == 0)
    return createStringError("no section name table (e_shstrndx is 0)");

  SmallVector<unsigned, 1> Found = Img->findSections(funcmap::FuncMapSectionName);
  if (Found.size() > 1)
    return createStringError("more than one .sqtt_funcmap section");
  std::optional<unsigned> FIdx;
  if (!Found.empty()) {
    FIdx = Found.front();
    const Elf_Shdr &F = Img->sections()[*FIdx];
    if (*FIdx == SIdx)
      return createStringError(".sqtt_funcmap is the section name table");
    if (F.sh_type != ELF::SHT_PROGBITS)
      return createStringError("existing .sqtt_funcmap section has type " +
                               getELFSectionTypeName(ELF::EM_AMDGPU, F.sh_type) +
                               ", expected SHT_PROGBITS: not a funcmap, refusing to replace it");
    if (F.sh_flags & ELF::SHF_ALLOC)
      return createStringError(
          "existing .sqtt_funcmap section is allocated (SHF_ALLOC): it is part of "
          "the loaded image and cannot be replaced after linking");
    if (!isFuncMapSectionText(Img->sectionContents(F)))
      return createStringError(
          "existing .sqtt_funcmap section does not hold funcmap text (NUL-terminated "
          "ASCII): refusing to replace it");
  }

  // An image this patcher wrote ends in exactly what build() appends after
  // the funcmap's offset: start from there again, so patching is idempotent.
  uint64_t Cutoff = Input.size();
  if (FIdx) {
    const Elf_Shdr &F = Img->sections()[*FIdx];
    Expected<std::string> Same = build(*Img, FIdx, F.sh_offset, Img->sectionContents(F));
    if (Same && *Same == Input)
      Cutoff = F.sh_offset;
    else
      consumeError(Same.takeError());
  }
  Expected<std::string> Out = build(*Img, FIdx, Cutoff, SectionBytes);
  if (!Out)
    return Out.takeError();

  // The result must read back with the new contents.
  Expected<ElfImage> Check = ElfImage::create(*Out);
  if (!Check)
    return createStringError("internal error: patched image does not verify: " +
                             toString(Check.takeError()));
  SmallVector<unsigned, 1> Again = Check->findSections(funcmap::FuncMapSectionName);
  if (Again.size() != 1 || Check->sectionContents(Check->sections()[Again[0]]) != SectionBytes)
    return createStringError("internal error: patched image does not hold the new .sqtt_funcmap");
  return Out;
}

} // namespace stinkytofu::elf
