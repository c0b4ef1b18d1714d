//===- OffloadBundle.h - clang-offload-bundler containers -------*- C++ -*-===//
//
// Reads the two formats clang-offload-bundler writes (and HIP executables
// carry in `.hip_fatbin`):
//
//  Uncompressed, all integers little-endian u64, offsets from the bundle start:
//    "__CLANG_OFFLOAD_BUNDLE__" | NumEntries | { Offset | Size | IdLength | Id }*
//    followed by the entries' bytes.
//  Compressed ("CCOB"), whose payload is an uncompressed bundle:
//    "CCOB" | u16 Version | u16 Method (0 zlib, 1 zstd)
//    v1: | u32 UncompressedSize | u64 Hash | data...
//    v2: | u32 TotalSize | u32 UncompressedSize | u64 Hash | data
//    v3: | u64 TotalSize | u64 UncompressedSize | u64 Hash | data
//    Hash is the low 64 bits of the MD5 of the uncompressed bytes.
//
// Every size and offset is checked against the data; the decompressed size
// is capped (1024 times the compressed size) so a forged header cannot ask
// for gigabytes. LLVM's own reader (llvm/Object/OffloadBundle.h) trusts its
// headers, hence this one.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_OBJECT_OFFLOADBUNDLE_H
#define STINKYTOFU_OBJECT_OFFLOADBUNDLE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace stinkytofu::elf {

inline constexpr llvm::StringLiteral BundleMagic = "__CLANG_OFFLOAD_BUNDLE__";
inline constexpr llvm::StringLiteral CompressedBundleMagic = "CCOB";

struct BundleEntry {
  std::string Id;       ///< e.g. "hipv4-amdgcn-amd-amdhsa--gfx90a:xnack-"
  uint64_t Offset = 0;  ///< From the start of the (decompressed) bundle.
  llvm::StringRef Data; ///< Into the input, or into OffloadBundle::Decompressed.
};

struct OffloadBundle {
  bool Compressed = false;
  uint16_t Version = 0;                 ///< CCOB version.
  llvm::StringRef CompressionMethod;    ///< "zlib" or "zstd".
  uint64_t Size = 0;                    ///< Input bytes the bundle occupies.
  uint64_t Start = 0; ///< Where it starts in the data readOffloadBundles read.
  std::vector<BundleEntry> Entries;
  std::unique_ptr<llvm::MemoryBuffer> Decompressed; ///< Owns compressed entries' bytes.
};

/// The parts of a bundle entry id: `<kind>-<triple>[-<target id>]`.
struct BundleEntryId {
  llvm::StringRef Kind;     ///< "hip", "hipv4", "openmp", "host"
  llvm::StringRef Triple;   ///< "amdgcn-amd-amdhsa-" (the environment may be empty)
  llvm::StringRef TargetId; ///< "gfx90a:xnack-", or empty
};
BundleEntryId parseBundleEntryId(llvm::StringRef Id);
/// True for entries holding AMDGPU device code (triple "amdgcn-...").
bool isAMDGPUBundleEntry(llvm::StringRef Id);

/// True when \p Data starts with either bundle magic.
bool startsWithBundleMagic(llvm::StringRef Data);

/// Reads the bundle at the start of \p Data (which may go on past it).
llvm::Expected<OffloadBundle> readOffloadBundle(llvm::StringRef Data);

/// Reads the bundles of a `.hip_fatbin` section or bundle file: one or more
/// bundles back to back, zero padding allowed between and after them.
llvm::Expected<std::vector<OffloadBundle>> readOffloadBundles(llvm::StringRef Data);

} // namespace stinkytofu::elf

#endif
