//===- MetadataYaml.h - YAML syntax of `.amdgpu_metadata` blocks -*- C++ -*-===//
//
// LLVM MC hands an `.amdgpu_metadata` block to LLVM's YAML reader, which
// prints its syntax errors straight to stderr as `YAML:line:col`, naming no
// file and out of order with every other diagnostic. The reader checks the
// YAML first, so such an error points into the assembly file.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_MC_METADATAYAML_H
#define STINKYTOFU_MC_METADATAYAML_H

#include "stinkytofu/mc/InputLimits.h"
#include "llvm/ADT/StringRef.h"
#include <optional>

namespace stinkytofu {

/// The first YAML syntax error in the `.amdgpu_metadata` blocks of \p Text
/// (comments of the assembly removed as MC removes them), at its byte offset.
std::optional<LimitViolation> checkMetadataYaml(llvm::StringRef Text);

} // namespace stinkytofu

#endif
