//===- BinaryInput.h - Binaries as assembly input ---------------*- C++ -*-===//
//
// What a reader needs to take a binary instead of text: an AMDGPU code
// object (`.co`, `.hsaco`, `.o`), an offload bundle (plain or compressed) or
// a host ELF whose `.hip_fatbin` holds bundles. One code object is chosen
// (by bundle entry id or target id when the file holds several) and
// disassembled (CodeObjectDisassembler.h) into assembly the `.s` reader
// reads, so every pass and verifier runs on it as on compiler output.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_DISASM_BINARYINPUT_H
#define STINKYTOFU_DISASM_BINARYINPUT_H

#include "stinkytofu/mc/KnownStatements.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include <memory>
#include <string>

namespace stinkytofu {

/// True when \p Bytes starts like an ELF file or an offload bundle.
bool isBinaryInput(llvm::StringRef Bytes);

struct BinarySelection {
  /// The code object to read when the file holds several: a bundle entry
  /// id ("hipv4-amdgcn-amd-amdhsa--gfx942") or its target id ("gfx942").
  std::string BundleEntry;
  /// Only this kernel (CodeObjectDisassembler.h).
  std::string Kernel;
};

/// The selected code object of \p Input as assembly, in a buffer named
/// after the input. Errors say what is wrong, without the file name.
/// \p Known, when given, receives the lines the reader need not parse
/// (ReaderOptions::Known).
llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
disassembleBinary(llvm::MemoryBufferRef Input, const BinarySelection &Selection,
                  KnownStatements *Known = nullptr);

/// Writes every code object of \p Input (its target id and origin) and its
/// kernels, one per line, indented.
llvm::Error listBinaryKernels(llvm::MemoryBufferRef Input, llvm::raw_ostream &OS);

} // namespace stinkytofu

#endif
