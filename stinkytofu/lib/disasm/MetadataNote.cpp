//===- MetadataNote.cpp - The AMDGPU metadata note as YAML ----------------===//
#include "MetadataNote.h"
#include "stinkytofu/object/ElfImage.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/BinaryFormat/AMDGPUMetadataVerifier.h"
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

/// Whether every map in \p Node has string keys only.
bool hasStringKeys(msgpack::DocNode &Node) {
  if (Node.isMap())
    return all_of(Node.getMap(), [](auto &Entry) {
      return Entry.first.isString() && hasStringKeys(Entry.second);
    });
  if (Node.isArray())
    return all_of(Node.getArray(), [](msgpack::DocNode &Element) { return hasStringKeys(Element); });
  return true;
}

/// Reads the metadata note of \p Object into \p Doc; false when it has none.
/// (A document cannot move: its nodes point back at it.)
Expected<bool> readMetadata(const elf::ElfImage &Object, msgpack::Document &Doc) {
  for (const elf::Elf_Shdr &S : Object.sections()) {
    if (S.sh_type != ELF::SHT_NOTE)
      continue;
    Error Err = Error::success();
    std::optional<bool> Valid;
    for (const auto &Note : Object.file().notes(S, Err)) {
      if (Note.getName() != "AMDGPU" || Note.getType() != ELF::NT_AMDGPU_METADATA)
        continue;
      Valid = Doc.readFromBlob(Note.getDescAsStringRef(S.sh_addralign), /*Multi=*/false);
      break;
    }
    if (Err)
      return fail("note section " + Object.sectionName(S) + ": " + toString(std::move(Err)));
    if (Valid && !*Valid)
      return fail("the AMDGPU metadata note is not valid MessagePack");
    // LLVM's YAML writer needs string keys (a damaged note crashed it), and
    // the assembler accepts only what its verifier does.
    if (Valid && (!hasStringKeys(Doc.getRoot()) ||
                  !AMDGPU::HSAMD::V3::MetadataVerifier(/*Strict=*/false).verify(Doc.getRoot())))
      return fail("the AMDGPU metadata note is not valid AMDGPU metadata");
    if (Valid)
      return true;
  }
  return false;
}

} // namespace

Expected<std::string> metadataNoteYaml(const elf::ElfImage &Object, StringRef Kernel) {
  msgpack::Document Doc;
  Expected<bool> Found = readMetadata(Object, Doc);
  if (!Found)
    return Found.takeError();
  if (!*Found)
    return std::string();
  if (!Kernel.empty())
    keepKernel(Doc, Kernel);
  std::string Yaml;
  raw_string_ostream OS(Yaml);
  Doc.toYAML(OS);
  return Yaml;
}

Expected<StringMap<uint64_t>> metadataSgprCounts(const elf::ElfImage &Object) {
  msgpack::Document D;
  Expected<bool> Found = readMetadata(Object, D);
  if (!Found)
    return Found.takeError();
  StringMap<uint64_t> Counts;
  if (!*Found || !D.getRoot().isMap())
    return Counts;
  auto Kernels = D.getRoot().getMap().find(D.getNode("amdhsa.kernels"));
  if (Kernels == D.getRoot().getMap().end() || !Kernels->second.isArray())
    return Counts;
  for (msgpack::DocNode &Entry : Kernels->second.getArray()) {
    if (!Entry.isMap())
      continue;
    auto Name = Entry.getMap().find(D.getNode(".name"));
    auto Count = Entry.getMap().find(D.getNode(".sgpr_count"));
    if (Name != Entry.getMap().end() && Name->second.isString() &&
        Count != Entry.getMap().end()) {
      if (Count->second.getKind() == msgpack::Type::UInt)
        Counts[Name->second.getString()] = Count->second.getUInt();
      else if (Count->second.getKind() == msgpack::Type::Int && Count->second.getInt() >= 0)
        Counts[Name->second.getString()] = uint64_t(Count->second.getInt());
    }
  }
  return Counts;
}

} // namespace stinkytofu
