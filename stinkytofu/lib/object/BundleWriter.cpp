//===- BundleWriter.cpp - Write clang-offload-bundler bundles -------------===//
#include "stinkytofu/object/BundleWriter.h"
#include "stinkytofu/object/CodeObjectScanner.h"
#include "stinkytofu/object/ElfImage.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace llvm;

namespace stinkytofu::elf {

namespace {

constexpr uint64_t EntryAlignment = 4096;

Error fail(const Twine &Msg) { return createStringError(inconvertibleErrorCode(), Msg); }

void appendU64(std::string &Out, uint64_t V) {
  char Bytes[8];
  support::endian::write64le(Bytes, V);
  Out.append(Bytes, 8);
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

Expected<RepackedBundle> repackBundleEntry(StringRef Input, StringRef Wanted,
                                           StringRef CodeObject) {
  std::vector<OffloadBundle> Bundles;
  if (startsWithBundleMagic(Input)) {
    Expected<std::vector<OffloadBundle>> Read = readOffloadBundles(Input);
    if (!Read)
      return Read.takeError();
    Bundles = std::move(*Read);
  } else {
    if (!Input.starts_with("\x7f" "ELF"))
      return fail("not an offload bundle or ELF file");
    Expected<ElfImage> Host = ElfImage::create(Input);
    if (!Host)
      return Host.takeError();
    Expected<std::vector<std::vector<OffloadBundle>>> FatBins = readFatBinSections(*Host);
    if (!FatBins)
      return FatBins.takeError();
    if (FatBins->empty())
      return fail("neither an offload bundle nor an ELF file with a .hip_fatbin section");
    for (std::vector<OffloadBundle> &Section : *FatBins)
      for (OffloadBundle &B : Section)
        Bundles.push_back(std::move(B));
  }

  OffloadBundle *Holder = nullptr;
  size_t Replaced = 0;
  std::vector<std::string> Ids;
  for (OffloadBundle &B : Bundles)
    for (size_t I = 0; I < B.Entries.size(); ++I) {
      Ids.push_back(B.Entries[I].Id);
      if (!matches(B.Entries[I], Wanted))
        continue;
      if (Holder)
        return fail("--bundle-entry " + Wanted +
                    " matches several bundle entries; give the full entry id");
      Holder = &B;
      Replaced = I;
    }
  if (!Holder)
    return fail("no bundle entry for --bundle-entry " + Wanted + " (it holds " + join(Ids, ", ") +
                ")");

  BundleEntry &Entry = Holder->Entries[Replaced];
  if (!isAMDGPUBundleEntry(Entry.Id))
    return fail("bundle entry " + Entry.Id + " holds no AMDGPU code object");
  // A copy: ElfImage needs its bytes aligned.
  std::unique_ptr<MemoryBuffer> Copy = MemoryBuffer::getMemBufferCopy(CodeObject);
  Expected<ElfImage> New = ElfImage::create(Copy->getBuffer());
  if (!New)
    return fail("the replacement code object: " + toString(New.takeError()));
  if (!New->isAMDGPU())
    return fail("the replacement is not an AMDGPU code object (" +
                elfMachineName(New->machine()) + ")");
  StringRef EntryTarget = parseBundleEntryId(Entry.Id).TargetId;
  std::string NewTarget = New->amdgpuTargetId();
  if (processor(EntryTarget) != processor(NewTarget))
    return fail("the replacement code object is for " + NewTarget + ", bundle entry " + Entry.Id +
                " for " + EntryTarget);

  Entry.Data = CodeObject;
  return RepackedBundle{writeOffloadBundle(Holder->Entries), Entry.Id};
}

} // namespace stinkytofu::elf
