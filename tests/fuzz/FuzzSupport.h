//===- FuzzSupport.h - What every fuzz target needs --------------*- C++ -*-===//
#ifndef STINKYTOFU_TESTS_FUZZ_FUZZSUPPORT_H
#define STINKYTOFU_TESTS_FUZZ_FUZZSUPPORT_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MemoryBuffer.h"
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>

namespace stinkytofu::fuzz {

/// A broken invariant aborts, which libFuzzer reports as a crash and saves
/// the input that broke it.
inline void check(bool Ok, const char *What) {
  if (!Ok) {
    std::fprintf(stderr, "invariant broken: %s\n", What);
    std::abort();
  }
}

/// The input as the tools get it from MemoryBuffer::getFile: an aligned,
/// NUL-terminated copy. \p Name is no file on disk, so an `.include` of
/// itself finds nothing.
inline std::unique_ptr<llvm::MemoryBuffer> inputBuffer(const uint8_t *Data, size_t Size,
                                                       llvm::StringRef Name) {
  return llvm::MemoryBuffer::getMemBufferCopy(
      llvm::StringRef(reinterpret_cast<const char *>(Data), Size), Name);
}

} // namespace stinkytofu::fuzz

#endif
