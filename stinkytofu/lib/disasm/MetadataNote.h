//===- MetadataNote.h - The AMDGPU metadata note as YAML --------*- C++ -*-===//
//
// A code object's NT_AMDGPU_METADATA note (MessagePack) as the YAML document
// an `.amdgpu_metadata` block holds, as LLVM's own document model converts it.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_LIB_DISASM_METADATANOTE_H
#define STINKYTOFU_LIB_DISASM_METADATANOTE_H

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <string>

namespace stinkytofu {

namespace elf {
class ElfImage;
}

/// The metadata of \p Object as YAML ("---" ... "..."), empty when it has
/// none. With \p Kernel set, `amdhsa.kernels` keeps that kernel's entry only.
llvm::Expected<std::string> metadataNoteYaml(const elf::ElfImage &Object, llvm::StringRef Kernel);

/// Each kernel's `.sgpr_count` in the metadata of \p Object, by kernel name
/// (empty when it has no metadata).
llvm::Expected<llvm::StringMap<uint64_t>> metadataSgprCounts(const elf::ElfImage &Object);

} // namespace stinkytofu

#endif
