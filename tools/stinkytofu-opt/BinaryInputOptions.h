//===- BinaryInputOptions.h - stinkytofu-opt's binary input -----*- C++ -*-===//
//
// The options and the input step that let stinkytofu-opt read code objects,
// offload bundles and host ELF files with `.hip_fatbin` (the library's
// disasm/BinaryInput.h): a binary input is replaced by its disassembly
// before the `.s` reader sees it; --list-kernels lists instead of running.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_OPT_BINARYINPUTOPTIONS_H
#define STINKYTOFU_OPT_BINARYINPUTOPTIONS_H

#include "stinkytofu/mc/KnownStatements.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MemoryBuffer.h"
#include <memory>
#include <string>

namespace stinkytofu {

inline constexpr const char *BinaryInputOptionNames[] = {"list-kernels", "kernel",
                                                         "bundle-entry"};

struct BinaryInputOptions {
  explicit BinaryInputOptions(llvm::cl::OptionCategory &Category);

  llvm::cl::opt<bool> ListKernels;
  llvm::cl::opt<std::string> Kernel;
  llvm::cl::opt<std::string> BundleEntry;

  /// Replaces \p Buffer by its disassembly when it holds a binary, and
  /// fills \p Known with the lines the reader need not parse. Prints
  /// `FILE: error: ...` to \p Err and returns false when it cannot be read.
  bool disassembleIfBinary(std::unique_ptr<llvm::MemoryBuffer> &Buffer,
                           llvm::StringRef InputFile, llvm::raw_ostream &Err,
                           KnownStatements &Known) const;
  /// --list-kernels: the code objects and kernels of every input on stdout.
  /// Returns the exit status.
  int listKernels(llvm::ArrayRef<std::string> InputFiles) const;
  /// --kernel and --bundle-entry apply to binary inputs only: an error
  /// otherwise (printed to \p Err), false.
  bool checkApplies(llvm::StringRef InputFile, bool IsBinary, llvm::raw_ostream &Err) const;
};

} // namespace stinkytofu

#endif
