//===- MetadataNote.cpp - The AMDGPU metadata note as YAML ----------------===//
#include "MetadataNote.h"
#include "stinkytofu/object/ElfImage.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/BinaryFormat/MsgPackDocument.h"
#include "llvm/Support/raw_ostream.h"
#include <optional>

using namespace llvm;

namespace stinkytofu {

namespace {

Error fail(const Twine &Message) {
  return createStringError(inconvertibleErrorCode(), Message);
}

/// Drops every `amdhsa.kernels` entry whose `.name` is not \p Kernel.
void keepKernel(msgpack::Document &Doc, StringRef Kernel) {
  msgpack::DocNode &Root = Doc.getRoot();
  if (!Root.isMap())
    return;
  auto Kernels = Root.getMap().find(Doc.getNode("amdhsa.kernels"));
  if (Kernels == Root.getMap().end() || !Kernels->second.isArray())
    return;
  msgpack::ArrayDocNode Kept = Doc.getArrayNode();
  for (msgpack::DocNode &Entry : Kernels->second.getArray()) {
    if (!Entry.isMap())
      continue;
    auto Name = Entry.getMap().find(Doc.getNode(".name"));
    if (Name != Entry.getMap().end() && Name->second.isString() &&
        Name->second.getString() == Kernel)
      Kept.push_back(Entry);
  }
  Kernels->second = Kept;
}

} // namespace

Expected<std::string> metadataNoteYaml(const elf::ElfImage &Object, StringRef Kernel) {
  for (const elf::Elf_Shdr &S : Object.sections()) {
    if (S.sh_type != ELF::SHT_NOTE)
      continue;
    Error Err = Error::success();
    std::optional<msgpack::Document> Doc;
    bool Invalid = false;
    for (const auto &Note : Object.file().notes(S, Err)) {
      if (Note.getName() != "AMDGPU" || Note.getType() != ELF::NT_AMDGPU_METADATA)
        continue;
      Doc.emplace();
      if (!Doc->readFromBlob(Note.getDescAsStringRef(S.sh_addralign), /*Multi=*/false))
        Invalid = true;
      break;
    }
    if (Err)
      return fail("note section " + Object.sectionName(S) + ": " + toString(std::move(Err)));
    if (Invalid)
      return fail("the AMDGPU metadata note is not valid MessagePack");
    if (!Doc)
      continue;
    if (!Kernel.empty())
      keepKernel(*Doc, Kernel);
    std::string Yaml;
    raw_string_ostream OS(Yaml);
    Doc->toYAML(OS);
    return Yaml;
  }
  return std::string();
}

} // namespace stinkytofu
