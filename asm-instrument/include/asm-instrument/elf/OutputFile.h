//===- OutputFile.h - Write a file all at once or not at all ----*- C++ -*-===//
//
// Like llvm-objcopy: the bytes go to a temporary file next to the target,
// which is renamed over it only when everything was written. On failure the
// temporary file is removed and the target is left as it was (absent or the
// old file).
//
//===----------------------------------------------------------------------===//
#ifndef ASM_INSTRUMENT_ELF_OUTPUTFILE_H
#define ASM_INSTRUMENT_ELF_OUTPUTFILE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include <optional>

namespace stinkytofu::elf {

/// Writes \p Bytes to \p Path atomically; \p Mode sets the permissions
/// (default: 0666 less the umask).
llvm::Error writeFileAtomically(llvm::StringRef Path, llvm::StringRef Bytes,
                                std::optional<llvm::sys::fs::perms> Mode = std::nullopt);

} // namespace stinkytofu::elf

#endif
