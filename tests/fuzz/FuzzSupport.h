//===- FuzzSupport.h - What every fuzz target needs --------------*- C++ -*-===//
#ifndef STINKYTOFU_TESTS_FUZZ_FUZZSUPPORT_H
#define STINKYTOFU_TESTS_FUZZ_FUZZSUPPORT_H

#include "DifferentialSupport.h"
#include "asm-instrument/InstrumentPasses.h"
#include "stinkytofu/asm/AsmReader.h"
#include "stinkytofu/ir/StinkyTofuContext.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MemoryBuffer.h"
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>

namespace stinkytofu::fuzz {

/// The input as the tools get it from MemoryBuffer::getFile: an aligned,
/// NUL-terminated copy. \p Name is no file on disk, so an `.include` of
/// itself finds nothing.
inline std::unique_ptr<llvm::MemoryBuffer> inputBuffer(const uint8_t *Data, size_t Size,
                                                       llvm::StringRef Name) {
  return llvm::MemoryBuffer::getMemBufferCopy(
      llvm::StringRef(reinterpret_cast<const char *>(Data), Size), Name);
}

/// The context every input is read and transformed in, with every pass (and
/// so the marker pseudo-instructions) registered; one per process, as in
/// the tool.
inline StinkyTofuContext &context() {
  static StinkyTofuContext *Ctx = [] {
    auto *C = new StinkyTofuContext();
    registerInstrumentPasses(passRegistry(*C));
    return C;
  }();
  return *Ctx;
}

/// The readers' options for fuzzing: the defaults, but with a smaller bound
/// on what `.rept` and macros expand to. The default (4,000,000 statements)
/// is sized for real kernels and lets a 200-byte input take half a minute
/// (minutes under the sanitizers): a fuzzer mutating counts would spend its
/// time there, and report it as a hang, instead of exploring. A statement MC
/// rejects costs it about 0.7 ms (its spelling suggestion compares every
/// mnemonic; llvm-mc the same), 3 ms under the sanitizers, so 5,000
/// repeated bad statements stay well under the 30 s a campaign allows.
inline ReaderOptions readerOptions() {
  ReaderOptions Opts;
  Opts.Limits = limits();
  Opts.Context = &context();
  return Opts;
}

} // namespace stinkytofu::fuzz

#endif
