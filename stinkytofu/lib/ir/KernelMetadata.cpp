//===- KernelMetadata.cpp - A kernel's entry in .amdgpu_metadata ----------===//
#include "stinkytofu/ir/KernelMetadata.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/YAMLParser.h"

using namespace llvm;

namespace stinkytofu {

namespace {

/// The product of a sequence of numbers, or none.
std::optional<uint64_t> product(yaml::SequenceNode &Numbers) {
  uint64_t Product = 1;
  for (yaml::Node &N : Numbers) {
    auto *Number = dyn_cast<yaml::ScalarNode>(&N);
    SmallString<16> Storage;
    uint64_t Value;
    if (!Number || Number->getValue(Storage).getAsInteger(0, Value))
      return std::nullopt;
    Product *= Value;
  }
  return Product;
}

} // namespace

std::optional<KernelMetadata> KernelMetadata::find(const Module &M, StringRef Name) {
  for (size_t N = 0; N < M.items().size(); ++N) {
    const ModuleItem &I = M.items()[N];
    if (I.K != ModuleItem::Kind::Text || !I.Contents.contains(".amdgpu_metadata"))
      continue;
    StringRef Text = I.Contents;
    size_t Begin = Text.find('\n', Text.find(".amdgpu_metadata"));
    size_t End = Text.rfind(".end_amdgpu_metadata");
    if (Begin == StringRef::npos || End == StringRef::npos || End < Begin)
      continue;
    StringRef Body = Text.slice(Begin + 1, End);
    SourceMgr SM;
    SM.setDiagHandler([](const SMDiagnostic &, void *) {}); // not a parse: a lookup
    yaml::Stream S(Body, SM);
    for (yaml::Document &D : S) {
      auto *Root = dyn_cast_or_null<yaml::MappingNode>(D.getRoot());
      if (!Root)
        continue;
      for (yaml::KeyValueNode &KV : *Root) {
        auto *Key = dyn_cast_or_null<yaml::ScalarNode>(KV.getKey());
        SmallString<16> Storage;
        auto *Kernels = dyn_cast_or_null<yaml::SequenceNode>(KV.getValue());
        if (!Key || Key->getValue(Storage) != "amdhsa.kernels" || !Kernels)
          continue;
        for (yaml::Node &Entry : *Kernels) {
          auto *Map = dyn_cast<yaml::MappingNode>(&Entry);
          if (!Map)
            continue;
          KernelMetadata K(M, N);
          bool Named = false;
          for (yaml::KeyValueNode &Field : *Map) {
            auto *Key = dyn_cast_or_null<yaml::ScalarNode>(Field.getKey());
            auto *Value = dyn_cast_or_null<yaml::ScalarNode>(Field.getValue());
            SmallString<32> KeyStorage, ValueStorage;
            if (auto *Sizes = dyn_cast_or_null<yaml::SequenceNode>(Field.getValue());
                Key && Sizes && Key->getValue(KeyStorage) == ".reqd_workgroup_size")
              K.ReqdWorkgroupSize = product(*Sizes);
            if (!Key || !Value)
              continue;
            // Values as written (a quoted name keeps its quotes), so that a
            // set replaces exactly their characters
            StringRef FieldKey = Key->getValue(KeyStorage);
            // (a plain scalar's raw text runs up to a comment: trim it).
            StringRef Raw = Value->getRawValue().rtrim(" \t");
            K.add(FieldKey, Raw, Raw.data() - Text.data());
            Named |= FieldKey == ".name" && Value->getValue(ValueStorage) == Name;
          }
          if (Named)
            return K;
        }
      }
    }
    if (S.failed())
      return std::nullopt;
  }
  return std::nullopt;
}

} // namespace stinkytofu
