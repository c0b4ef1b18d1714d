//===- MetadataYaml.cpp - YAML syntax of `.amdgpu_metadata` blocks --------===//
#include "stinkytofu/mc/MetadataYaml.h"
#include "stinkytofu/mc/OperandParser.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/YAMLParser.h"

using namespace llvm;

namespace stinkytofu {
namespace {

StringRef codeOf(StringRef Line) { return Line.take_front(findComment(Line)); }

/// The YAML of the block whose body starts at \p Begin and its end (the
/// start of the `.end_amdgpu_metadata` line, or npos).
std::pair<std::string, size_t> blockYaml(StringRef Text, size_t Begin) {
  std::string Yaml;
  for (size_t At = Begin; At < Text.size();) {
    size_t End = std::min(Text.find('\n', At), Text.size());
    StringRef Line = Text.slice(At, End);
    if (Line.ltrim(" \t").starts_with_insensitive(".end_amdgpu_metadata"))
      return {Yaml, At};
    (Yaml += codeOf(Line).rtrim("\r")) += '\n';
    At = End + 1;
  }
  return {Yaml, StringRef::npos};
}

} // namespace

std::optional<LimitViolation> checkMetadataYaml(StringRef Text) {
  for (size_t At = Text.find(".amdgpu_metadata"); At != StringRef::npos;
       At = Text.find(".amdgpu_metadata", At + 1)) {
    size_t LineBegin = Text.rfind('\n', At) + 1; // npos + 1 == 0
    size_t LineEnd = Text.find('\n', At);
    StringRef Line = Text.slice(LineBegin, LineEnd);
    if (LineEnd == StringRef::npos || codeOf(Line).trim() != ".amdgpu_metadata")
      continue;
    auto [Yaml, End] = blockYaml(Text, LineEnd + 1);
    if (End == StringRef::npos)
      return std::nullopt; // MC reports the missing end itself
    SourceMgr SM;
    std::optional<SMDiagnostic> First;
    SM.setDiagHandler(
        [](const SMDiagnostic &D, void *Out) {
          auto &F = *static_cast<std::optional<SMDiagnostic> *>(Out);
          if (!F)
            F = D;
        },
        &First);
    yaml::Stream Stream(Yaml, SM, /*ShowColors=*/false);
    for (yaml::Document &Doc : Stream)
      Doc.skip();
    if (First) {
      // Lines of the YAML are the lines of the block, columns unchanged.
      size_t Offset = LineEnd + 1;
      for (int L = 1; L < First->getLineNo() && Offset < End; ++L)
        Offset = Text.find('\n', Offset) + 1;
      return LimitViolation{Offset + size_t(std::max(First->getColumnNo(), 0)),
                            "invalid YAML in .amdgpu_metadata: " + First->getMessage().str()};
    }
    At = End;
  }
  return std::nullopt;
}

} // namespace stinkytofu
