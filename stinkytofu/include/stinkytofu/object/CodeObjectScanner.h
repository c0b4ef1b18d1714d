//===- CodeObjectScanner.h - Find AMDGPU code objects in a file -*- C++ -*-===//
//
// A file given to `sqtt-funcmap dump|extract` or to stinkytofu-opt may be
//  - an AMDGPU code object or relocatable object (ELF64LE, EM_AMDGPU),
//  - a clang offload bundle (`__CLANG_OFFLOAD_BUNDLE__` or compressed `CCOB`),
//  - a host ELF (executable, shared library, object) with a `.hip_fatbin`
//    section holding one or more bundles.
// The scanner returns every AMDGPU code object in it, each checked
// (ElfImage::create) and labelled by its target id.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_OBJECT_CODEOBJECTSCANNER_H
#define STINKYTOFU_OBJECT_CODEOBJECTSCANNER_H

#include "stinkytofu/object/ElfImage.h"
#include "stinkytofu/object/OffloadBundle.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"
#include <memory>
#include <string>
#include <vector>

namespace stinkytofu::elf {

enum class InputKind { CodeObject, OffloadBundle, HostElf };

struct FoundCodeObject {
  /// The target id ("gfx90a:xnack-"): from the bundle entry id, else from
  /// the ELF header flags.
  std::string TargetId;
  /// Where it came from: "" for a plain code object, else e.g.
  /// "bundle, entry hipv4-amdgcn-amd-amdhsa--gfx90a" or
  /// ".hip_fatbin compressed (zstd v3) bundle 1, entry hipv4-amdgcn-amd-amdhsa--gfx1100".
  std::string Origin;
  /// The bundle entry id ("hipv4-amdgcn-amd-amdhsa--gfx90a"), "" for a plain
  /// code object.
  std::string EntryId;
  /// A file name stem unique within the set: the target id with anything
  /// unsafe in a file name ('/', "..", a leading '.', control characters)
  /// replaced by '_', then "<stem>.2", "<stem>.3" for repeats.
  std::string FileStem;
  /// The code object's bytes, 8-byte aligned, owned by the CodeObjectSet.
  llvm::StringRef Bytes;
};

struct CodeObjectSet {
  InputKind Kind = InputKind::CodeObject;
  std::vector<FoundCodeObject> Objects;
  std::vector<std::unique_ptr<llvm::MemoryBuffer>> Storage;
};

/// The bundles of each `.hip_fatbin` section of \p Host, one list per
/// section in section order (none when it has no such section).
llvm::Expected<std::vector<std::vector<OffloadBundle>>> readFatBinSections(const ElfImage &Host);

/// Finds the AMDGPU code objects in \p Input (which must outlive the result).
/// Fails when the input is neither an ELF file nor a bundle, is malformed,
/// holds no AMDGPU code object, or holds an AMDGPU bundle entry that is not
/// a valid code object.
llvm::Expected<CodeObjectSet> findCodeObjects(llvm::MemoryBufferRef Input);

} // namespace stinkytofu::elf

#endif
