//===- CodeObjectScanner.cpp - Find AMDGPU code objects in a file ---------===//
#include "stinkytofu/object/CodeObjectScanner.h"
#include "stinkytofu/object/ElfImage.h"
#include "stinkytofu/object/OffloadBundle.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/Twine.h"
#include "llvm/BinaryFormat/ELF.h"

using namespace llvm;

namespace stinkytofu::elf {

namespace {

class Scanner {
public:
  explicit Scanner(CodeObjectSet &Set) : Set(Set) {}

  /// Adds the AMDGPU entries of \p Bundles; \p Where ("" or ".hip_fatbin")
  /// starts each origin, e.g. ".hip_fatbin compressed (zstd v3) bundle 1,
  /// entry hipv4-amdgcn-amd-amdhsa--gfx90a".
  Error addBundles(std::vector<OffloadBundle> &Bundles, StringRef Where) {
    for (size_t I = 0; I < Bundles.size(); ++I) {
      OffloadBundle &B = Bundles[I];
      std::string Prefix = Where.empty() ? "" : Where.str() + " ";
      if (B.Compressed)
        Prefix += ("compressed (" + B.CompressionMethod + " v" + Twine(B.Version) + ") ").str();
      Prefix += "bundle";
      if (Bundles.size() > 1 || !Where.empty())
        Prefix += " " + std::to_string(I);
      for (const BundleEntry &E : B.Entries) {
        if (!isAMDGPUBundleEntry(E.Id) || E.Data.empty())
          continue;
        if (Error Err = add(E.Data, parseBundleEntryId(E.Id).TargetId, Prefix + ", entry " + E.Id,
                            E.Id))
          return Err;
      }
    }
    return Error::success();
  }

  /// Copies \p Bytes (bundle entries need not be aligned), checks it and
  /// adds it.
  Error add(StringRef Bytes, StringRef TargetId, const std::string &Origin,
            StringRef EntryId) {
    std::unique_ptr<MemoryBuffer> Copy = MemoryBuffer::getMemBufferCopy(Bytes, Origin);
    Expected<ElfImage> Image = ElfImage::create(Copy->getBuffer());
    if (!Image)
      return createStringError(Origin + ": " + toString(Image.takeError()));
    if (!Image->isAMDGPU())
      return createStringError(Origin + ": not an AMDGPU code object (" +
                               elfMachineName(Image->machine()) + ")");
    std::string Id = TargetId.empty() ? Image->amdgpuTargetId() : TargetId.str();
    Bytes = Copy->getBuffer();
    Set.Storage.push_back(std::move(Copy));
    push(Bytes, Id, Origin, EntryId.str());
    return Error::success();
  }

  void push(StringRef Bytes, std::string TargetId, std::string Origin,
            std::string EntryId = "") {
    if (TargetId.empty())
      TargetId = "amdgcn-unknown";
    std::string Safe = safeFileStem(TargetId);
    std::string Stem = Safe;
    for (unsigned N = 2; !UsedStems.insert(Stem).second; ++N)
      Stem = Safe + "." + std::to_string(N);
    Set.Objects.push_back(
        {std::move(TargetId), std::move(Origin), std::move(EntryId), std::move(Stem), Bytes});
  }

private:
  /// A bundle entry id is the input's text: as a file name it may hold no
  /// directory (separators, "..", a leading '.'), no control character and
  /// nothing a shell would trip on; each such character becomes '_'.
  static std::string safeFileStem(StringRef TargetId) {
    std::string Stem;
    for (char C : TargetId.take_front(128)) {
      bool Keep = isAlnum(C) || C == '-' || C == '_' || C == ':' || C == '+' ||
                  (C == '.' && !Stem.empty() && Stem.back() != '.');
      Stem += Keep ? C : '_';
    }
    return Stem;
  }

  CodeObjectSet &Set;
  StringSet<> UsedStems;
};

} // namespace

Expected<std::vector<std::vector<OffloadBundle>>> readFatBinSections(const ElfImage &Host) {
  std::vector<std::vector<OffloadBundle>> Sections;
  for (unsigned Index : Host.findSections(".hip_fatbin")) {
    const Elf_Shdr &Sec = Host.sections()[Index];
    if (Sec.sh_type == ELF::SHT_NOBITS)
      return createStringError(".hip_fatbin (section " + Twine(Index) +
                               ") has no contents (SHT_NOBITS)");
    Expected<std::vector<OffloadBundle>> Bundles = readOffloadBundles(Host.sectionContents(Sec));
    if (!Bundles)
      return createStringError(".hip_fatbin: " + toString(Bundles.takeError()));
    Sections.push_back(std::move(*Bundles));
  }
  return std::move(Sections);
}

Expected<CodeObjectSet> findCodeObjects(MemoryBufferRef Input) {
  CodeObjectSet Set;
  Scanner S(Set);
  StringRef Bytes = Input.getBuffer();

  if (startsWithBundleMagic(Bytes)) {
    Set.Kind = InputKind::OffloadBundle;
    Expected<std::vector<OffloadBundle>> Bundles = readOffloadBundles(Bytes);
    if (!Bundles)
      return Bundles.takeError();
    if (Error E = S.addBundles(*Bundles, ""))
      return std::move(E);
    if (Set.Objects.empty())
      return createStringError("offload bundle holds no AMDGPU code object");
    return std::move(Set);
  }

  if (!Bytes.starts_with("\x7f" "ELF"))
    return createStringError("not an ELF file or offload bundle");
  Expected<ElfImage> Image = ElfImage::create(Bytes);
  if (!Image)
    return Image.takeError();
  if (Image->isAMDGPU()) {
    Set.Kind = InputKind::CodeObject;
    S.push(Bytes, Image->amdgpuTargetId(), "");
    return std::move(Set);
  }

  Set.Kind = InputKind::HostElf;
  Expected<std::vector<std::vector<OffloadBundle>>> FatBins = readFatBinSections(*Image);
  if (!FatBins)
    return FatBins.takeError();
  if (FatBins->empty())
    return createStringError("no AMDGPU code object: host ELF (" +
                             elfMachineName(Image->machine()) + ") without a .hip_fatbin section");
  for (std::vector<OffloadBundle> &Bundles : *FatBins)
    if (Error E = S.addBundles(Bundles, ".hip_fatbin"))
      return std::move(E);
  if (Set.Objects.empty())
    return createStringError("no AMDGPU code object: .hip_fatbin holds no amdgcn bundle entry");
  return std::move(Set);
}

} // namespace stinkytofu::elf
