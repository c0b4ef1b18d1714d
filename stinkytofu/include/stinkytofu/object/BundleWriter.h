//===- BundleWriter.h - Write clang-offload-bundler bundles -----*- C++ -*-===//
//
// Writes the uncompressed bundle format OffloadBundle.h reads, and repacks
// a bundle with one entry's code object replaced: the repacked bundle keeps
// every entry's id, order and bytes but that one, so clang-offload-bundler
// unbundles the others byte for byte. Entries start at 4096-byte offsets,
// as the bundler places them, so the code objects stay page aligned.
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

struct RepackedBundle {
  std::string Bytes;   ///< The new uncompressed bundle.
  std::string EntryId; ///< The full id of the replaced entry.
};

/// Repacks the bundle of \p Input (an offload bundle, plain or compressed,
/// or a host ELF whose `.hip_fatbin` holds bundles) that holds the entry
/// \p Wanted (a full entry id, or a target id only one entry has) with that
/// entry's bytes replaced by \p CodeObject, which must be an AMDGPU code
/// object for the entry's processor.
llvm::Expected<RepackedBundle> repackBundleEntry(llvm::StringRef Input, llvm::StringRef Wanted,
                                                 llvm::StringRef CodeObject);

} // namespace stinkytofu::elf

#endif
