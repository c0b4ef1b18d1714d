//===- MetadataNote.cpp - The AMDGPU metadata note as YAML ----------------===//
#include "MetadataNote.h"
#include "stinkytofu/ir/StatementText.h"
#include "stinkytofu/object/ElfImage.h"
#include "llvm/BinaryFormat/AMDGPUMetadataVerifier.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/BinaryFormat/MsgPackDocument.h"
#include "llvm/BinaryFormat/MsgPackReader.h"
#include "llvm/Support/raw_ostream.h"
#include <optional>

using namespace llvm;

namespace stinkytofu {

namespace {

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

/// Whether \p Blob is one MessagePack object LLVM's document reader and
/// YAML writer can take: string keys in every map, no binary or extension
/// values (damaged notes with those crashed both). Checked with the
/// streaming reader, which allocates nothing for the lengths it reads.
bool isPlainMessagePack(StringRef Blob) {
  msgpack::Reader Reader(Blob);
  // Items still to come in each open array or map (a map's are keys and
  // values: a key when an even number is left).
  SmallVector<std::pair<uint64_t, bool>, 8> Open;
  unsigned Roots = 0;
  while (true) {
    msgpack::Object Obj;
    Expected<bool> Read = Reader.read(Obj);
    if (!Read) {
      consumeError(Read.takeError());
      return false;
    }
    if (!*Read)
      break;
    bool IsKey = !Open.empty() && Open.back().second && Open.back().first % 2 == 0;
    if (Open.empty() ? ++Roots > 1 : false)
      return false;
    if (!Open.empty())
      --Open.back().first;
    if ((IsKey && Obj.Kind != msgpack::Type::String) || Obj.Kind == msgpack::Type::Binary ||
        Obj.Kind == msgpack::Type::Extension)
      return false;
    if (Obj.Kind == msgpack::Type::Array)
      Open.push_back({Obj.Length, false});
    else if (Obj.Kind == msgpack::Type::Map)
      Open.push_back({2 * uint64_t(Obj.Length), true});
    while (!Open.empty() && Open.back().first == 0)
      Open.pop_back();
  }
  return Open.empty() && Roots == 1;
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
      StringRef Blob = Note.getDescAsStringRef(S.sh_addralign);
      Valid = isPlainMessagePack(Blob) && Doc.readFromBlob(Blob, /*Multi=*/false);
      break;
    }
    if (Err)
      return createStringError("note section " + Object.sectionName(S) + ": " +
                               toString(std::move(Err)));
    if (Valid && !*Valid)
      return createStringError(
          "the AMDGPU metadata note is not plain MessagePack (string keys, no binary "
          "or extension values)");
    // The assembler accepts only what LLVM's verifier does.
    if (Valid && !AMDGPU::HSAMD::V3::MetadataVerifier(/*Strict=*/false).verify(Doc.getRoot()))
      return createStringError("the AMDGPU metadata note is not valid AMDGPU metadata");
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
  // The block is assembly text: a string holding a comment start would be
  // cut there (YAML quotes `a;b` in single quotes, which the assembly
  // lexer does not read as a string).
  for (StringRef Rest = Yaml; !Rest.empty();) {
    auto [Line, Next] = Rest.split('\n');
    if (findComment(Line) != StringRef::npos)
      return createStringError(
          "the AMDGPU metadata note holds text the assembly reads as a comment: " + Line.trim());
    Rest = Next;
  }
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
