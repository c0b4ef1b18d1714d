//===- BundleWriter.cpp - Write clang-offload-bundler bundles -------------===//
#include "stinkytofu/object/BundleWriter.h"
#include "stinkytofu/object/CodeObjectScanner.h"
#include "stinkytofu/object/ElfImage.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Support/Compression.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/MD5.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace llvm;

namespace stinkytofu::elf {

namespace {

constexpr uint64_t EntryAlignment = 4096;

template <typename T> void appendLE(std::string &Out, T V) {
  char Bytes[sizeof(T)];
  support::endian::write<T, llvm::endianness::little>(Bytes, V);
  Out.append(Bytes, sizeof(T));
}

void appendU64(std::string &Out, uint64_t V) { appendLE<uint64_t>(Out, V); }

/// A bundle of the input and where it lies.
struct PlacedBundle {
  OffloadBundle Bundle;
  unsigned Section = 0; ///< Its .hip_fatbin section; 0 in a bundle file.
  uint64_t Room = 0;    ///< Bytes from its start to the next bundle or the end.
  bool Last = false;    ///< No bundle after it in its section.
};

/// The bundles of \p Bundles' data (\p Size bytes), placed.
void place(std::vector<OffloadBundle> &Bundles, unsigned Section, uint64_t Size,
           std::vector<PlacedBundle> &Out) {
  for (size_t I = 0; I < Bundles.size(); ++I) {
    uint64_t Next = I + 1 < Bundles.size() ? Bundles[I + 1].Start : Size;
    Out.push_back({std::move(Bundles[I]), Section, Next - Bundles[I].Start,
                   I + 1 == Bundles.size()});
  }
}

/// \p Host with the bundle \p Old replaced by \p NewBundle (file comment
/// of BundleWriter.h).
Expected<std::string> replaceInHost(const ElfImage &Host, const PlacedBundle &Old,
                                    StringRef NewBundle) {
  const Elf_Shdr &Sec = Host.sections()[Old.Section];
  std::string Out = Host.bytes().str();
  if (NewBundle.size() <= Old.Room) {
    uint64_t At = Sec.sh_offset + Old.Bundle.Start;
    Out.replace(At, Old.Room, NewBundle.str() + std::string(Old.Room - NewBundle.size(), '\0'));
    return Out;
  }
  if (Host.header().e_type != ELF::ET_REL || !Old.Last)
    return createStringError("the new bundle (" + Twine(NewBundle.size()) +
                             " bytes) does not fit the " + Twine(Old.Room) +
                             " bytes the old one has in .hip_fatbin, and " +
                             (Host.header().e_type != ELF::ET_REL
                                  ? "a linked file's sections cannot grow"
                                  : "a bundle other than the section's last cannot grow") +
                             " (--compress writes it compressed)");
  StringRef Contents = Host.sectionContents(Sec);
  Out.resize(alignTo(Out.size(), std::max<uint64_t>(Sec.sh_addralign, 1)), '\0');
  uint64_t NewOffset = Out.size();
  Out += Contents.take_front(Old.Bundle.Start);
  Out += NewBundle;
  // The section header: the ELF64 little-endian layout ElfImage checked.
  uint64_t Header = Host.header().e_shoff + uint64_t(Old.Section) * Host.header().e_shentsize;
  support::endian::write64le(&Out[Header + offsetof(ELF::Elf64_Shdr, sh_offset)], NewOffset);
  support::endian::write64le(&Out[Header + offsetof(ELF::Elf64_Shdr, sh_size)],
                             Old.Bundle.Start + NewBundle.size());
  return Out;
}

bool matches(const BundleEntry &E, StringRef Wanted) {
  return E.Id == Wanted || parseBundleEntryId(E.Id).TargetId == Wanted;
}

/// The processor of a target id: "gfx90a" of "gfx90a:xnack-".
StringRef processor(StringRef TargetId) { return TargetId.split(':').first; }

} // namespace

std::string writeOffloadBundle(ArrayRef<BundleEntry> Entries) {
  uint64_t HeaderSize = BundleMagic.size() + 8;
  for (const BundleEntry &E : Entries)
    HeaderSize += 24 + E.Id.size();
  std::string Out;
  Out += BundleMagic;
  appendU64(Out, Entries.size());
  uint64_t Offset = HeaderSize;
  SmallVector<uint64_t, 8> Offsets;
  for (const BundleEntry &E : Entries) {
    Offset = alignTo(Offset, EntryAlignment);
    Offsets.push_back(Offset);
    appendU64(Out, Offset);
    appendU64(Out, E.Data.size());
    appendU64(Out, E.Id.size());
    Out += E.Id;
    Offset += E.Data.size();
  }
  for (auto [E, At] : zip(Entries, Offsets)) {
    Out.resize(At, '\0');
    Out += E.Data;
  }
  return Out;
}

Expected<std::string> compressOffloadBundle(StringRef Bundle) {
  compression::Format Format = compression::zstd::isAvailable() ? compression::Format::Zstd
                                                                : compression::Format::Zlib;
  if (const char *Why = compression::getReasonIfUnsupported(Format))
    return createStringError(Twine("cannot compress the bundle: ") + Why);
  SmallVector<uint8_t, 0> Compressed;
  compression::compress(compression::Params(Format), arrayRefFromStringRef(Bundle), Compressed);
  constexpr uint64_t HeaderSize = 4 + 2 + 2 + 3 * 8;
  std::string Out;
  Out += CompressedBundleMagic;
  appendLE<uint16_t>(Out, 3);
  appendLE<uint16_t>(Out, uint16_t(Format));
  appendU64(Out, HeaderSize + Compressed.size());
  appendU64(Out, Bundle.size());
  appendU64(Out, MD5::hash(arrayRefFromStringRef(Bundle)).low());
  Out += toStringRef(Compressed);
  return Out;
}

Expected<RepackedBundle> repackBundleEntry(StringRef Input, StringRef Wanted,
                                           StringRef CodeObject, const RepackOptions &Options) {
  std::vector<PlacedBundle> Bundles;
  std::optional<ElfImage> Host;
  if (startsWithBundleMagic(Input)) {
    Expected<std::vector<OffloadBundle>> Read = readOffloadBundles(Input);
    if (!Read)
      return Read.takeError();
    place(*Read, 0, Input.size(), Bundles);
  } else {
    if (!Input.starts_with("\x7f" "ELF"))
      return createStringError("not an offload bundle or ELF file");
    Expected<ElfImage> Image = ElfImage::create(Input);
    if (!Image)
      return Image.takeError();
    Host.emplace(std::move(*Image));
    Expected<std::vector<std::vector<OffloadBundle>>> FatBins = readFatBinSections(*Host);
    if (!FatBins)
      return FatBins.takeError();
    if (FatBins->empty())
      return createStringError(
          "neither an offload bundle nor an ELF file with a .hip_fatbin section");
    for (auto [Index, Section] : zip(Host->findSections(".hip_fatbin"), *FatBins))
      place(Section, Index, Host->sections()[Index].sh_size, Bundles);
  }

  PlacedBundle *Holder = nullptr;
  size_t Replaced = 0;
  std::vector<std::string> Ids;
  for (PlacedBundle &B : Bundles)
    for (size_t I = 0; I < B.Bundle.Entries.size(); ++I) {
      Ids.push_back(B.Bundle.Entries[I].Id);
      if (!matches(B.Bundle.Entries[I], Wanted))
        continue;
      if (Holder)
        return createStringError("--bundle-entry " + Wanted +
                                 " matches several bundle entries; give the full entry id");
      Holder = &B;
      Replaced = I;
    }
  if (!Holder)
    return createStringError("no bundle entry for --bundle-entry " + Wanted + " (it holds " +
                             join(Ids, ", ") + ")");

  BundleEntry &Entry = Holder->Bundle.Entries[Replaced];
  if (!isAMDGPUBundleEntry(Entry.Id))
    return createStringError("bundle entry " + Entry.Id + " holds no AMDGPU code object");
  // A copy: ElfImage needs its bytes aligned.
  std::unique_ptr<MemoryBuffer> Copy = MemoryBuffer::getMemBufferCopy(CodeObject);
  Expected<ElfImage> New = ElfImage::create(Copy->getBuffer());
  if (!New)
    return createStringError("the replacement code object: " + toString(New.takeError()));
  if (!New->isAMDGPU())
    return createStringError("the replacement is not an AMDGPU code object (" +
                             elfMachineName(New->machine()) + ")");
  StringRef EntryTarget = parseBundleEntryId(Entry.Id).TargetId;
  std::string NewTarget = New->amdgpuTargetId();
  if (processor(EntryTarget) != processor(NewTarget))
    return createStringError("the replacement code object is for " + NewTarget + ", bundle entry " +
                             Entry.Id + " for " + EntryTarget);

  Entry.Data = CodeObject;
  std::string NewBundle = writeOffloadBundle(Holder->Bundle.Entries);
  if (Options.Compress) {
    Expected<std::string> Compressed = compressOffloadBundle(NewBundle);
    if (!Compressed)
      return Compressed.takeError();
    NewBundle = std::move(*Compressed);
  }
  if (!Host || Options.BundleOnly)
    return RepackedBundle{std::move(NewBundle), Entry.Id, false};
  Expected<std::string> NewHost = replaceInHost(*Host, *Holder, NewBundle);
  if (!NewHost)
    return NewHost.takeError();
  return RepackedBundle{std::move(*NewHost), Entry.Id, true};
}

} // namespace stinkytofu::elf
