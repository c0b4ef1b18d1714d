//===- BinaryInput.cpp - Binaries as assembly input -----------------------===//
#include "stinkytofu/disasm/BinaryInput.h"
#include "stinkytofu/disasm/CodeObjectDisassembler.h"
#include "stinkytofu/object/CodeObjectScanner.h"
#include "stinkytofu/object/ElfImage.h"
#include "stinkytofu/object/OffloadBundle.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace llvm;

namespace stinkytofu {

namespace {

bool matches(const elf::FoundCodeObject &Found, StringRef Wanted) {
  return Found.EntryId == Wanted || Found.TargetId == Wanted;
}

std::string describe(const elf::FoundCodeObject &Found) {
  return Found.EntryId.empty() ? Found.TargetId : Found.EntryId;
}

} // namespace

bool isBinaryInput(StringRef Bytes) {
  return Bytes.starts_with("\x7f" "ELF") || elf::startsWithBundleMagic(Bytes);
}

Expected<std::unique_ptr<MemoryBuffer>> disassembleBinary(MemoryBufferRef Input,
                                                          const BinarySelection &Selection,
                                                          KnownStatements *Known) {
  Expected<elf::CodeObjectSet> Set = elf::findCodeObjects(Input);
  if (!Set)
    return Set.takeError();
  const elf::FoundCodeObject *Chosen = nullptr;
  if (!Selection.BundleEntry.empty()) {
    for (const elf::FoundCodeObject &Found : Set->Objects)
      if (matches(Found, Selection.BundleEntry)) {
        if (Chosen)
          return createStringError("--bundle-entry " + Selection.BundleEntry +
                                   " matches several code objects; give the full entry id");
        Chosen = &Found;
      }
    if (!Chosen)
      return createStringError("no code object for --bundle-entry " + Selection.BundleEntry +
                               " (it holds " + join(map_range(Set->Objects, describe), ", ") + ")");
  } else if (Set->Objects.size() == 1) {
    Chosen = &Set->Objects.front();
  } else {
    return createStringError("holds " + Twine(Set->Objects.size()) + " code objects (" +
                             join(map_range(Set->Objects, describe), ", ") +
                             "): choose one with --bundle-entry");
  }
  Expected<elf::ElfImage> Image = elf::ElfImage::create(Chosen->Bytes);
  if (!Image)
    return Image.takeError();
  DisassemblyOptions Options;
  Options.TargetId = Chosen->TargetId;
  Options.Kernel = Selection.Kernel;
  Expected<std::string> Text = disassembleCodeObject(*Image, Options, Known);
  if (!Text)
    return createStringError((Chosen->Origin.empty() ? "" : Chosen->Origin + ": ") +
                             toString(Text.takeError()));
  return MemoryBuffer::getMemBufferCopy(*Text, Input.getBufferIdentifier());
}

Error listBinaryKernels(MemoryBufferRef Input, raw_ostream &OS) {
  Expected<elf::CodeObjectSet> Set = elf::findCodeObjects(Input);
  if (!Set)
    return Set.takeError();
  for (const elf::FoundCodeObject &Found : Set->Objects) {
    Expected<elf::ElfImage> Image = elf::ElfImage::create(Found.Bytes);
    if (!Image)
      return Image.takeError();
    Expected<std::vector<std::string>> Kernels = codeObjectKernels(*Image);
    if (!Kernels)
      return createStringError((Found.Origin.empty() ? "" : Found.Origin + ": ") +
                               toString(Kernels.takeError()));
    OS << Found.TargetId;
    if (!Found.EntryId.empty())
      OS << " (bundle entry " << Found.EntryId << ")";
    OS << ": " << Kernels->size() << " kernel" << (Kernels->size() == 1 ? "" : "s") << "\n";
    for (const std::string &Kernel : *Kernels)
      OS << "  " << Kernel << "\n";
  }
  return Error::success();
}

} // namespace stinkytofu
