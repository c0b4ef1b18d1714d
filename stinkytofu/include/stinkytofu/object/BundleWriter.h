//===- BundleWriter.h - Write clang-offload-bundler bundles -----*- C++ -*-===//
//
// Writes the bundle formats OffloadBundle.h reads, and repacks a bundle
// with one entry's code object replaced: the repacked bundle keeps every
// entry's id, order and bytes but that one, so clang-offload-bundler
// unbundles the others byte for byte. Entries start at 4096-byte offsets,
// as the bundler places them, so the code objects stay page aligned.
//
// Of a host ELF, the new file is the input with the bundle replaced inside
// `.hip_fatbin`, every other byte as it was: the new bundle is written
// where the old one starts (the HIP runtime's fat binary wrapper points
// there) when it fits in the bytes up to the next bundle or the section's
// end, the rest zero (readers skip zeros between bundles). A linked file's
// sections cannot grow without relinking: a bundle that does not fit there
// is an error (compressed, it usually fits). A relocatable object's last
// bundle may grow: the section's new contents go to the end of the file
// and its header points there.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_OBJECT_BUNDLEWRITER_H
#define STINKYTOFU_OBJECT_BUNDLEWRITER_H

#include "stinkytofu/object/OffloadBundle.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <string>

namespace stinkytofu::elf {

/// The uncompressed bundle of \p Entries (their ids and data, in order;
/// their offsets are ignored).
std::string writeOffloadBundle(llvm::ArrayRef<BundleEntry> Entries);

/// \p Bundle in clang-offload-bundler's compressed format, version 3
/// (zstd when LLVM has it, else zlib).
llvm::Expected<std::string> compressOffloadBundle(llvm::StringRef Bundle);

struct RepackOptions {
  bool Compress = false;   ///< Write the new bundle compressed.
  bool BundleOnly = false; ///< Of a host ELF, write the new bundle alone.
};

struct RepackedBundle {
  std::string Bytes;    ///< The new bundle, or the new host ELF.
  std::string EntryId;  ///< The full id of the replaced entry.
  bool HostElf = false; ///< Bytes is a host ELF.
};

/// Repacks the bundle of \p Input (an offload bundle, plain or compressed,
/// or a host ELF whose `.hip_fatbin` holds bundles) that holds the entry
/// \p Wanted (a full entry id, or a target id only one entry has) with that
/// entry's bytes replaced by \p CodeObject, which must be an AMDGPU code
/// object for the entry's processor. Of a host ELF the result is a host
/// ELF (see the file comment) unless \p Options asks for the bundle.
llvm::Expected<RepackedBundle> repackBundleEntry(llvm::StringRef Input, llvm::StringRef Wanted,
                                                 llvm::StringRef CodeObject,
                                                 const RepackOptions &Options = {});

} // namespace stinkytofu::elf

#endif
