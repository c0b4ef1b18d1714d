//===- CodeObjectVersion.h - The code object versions MC writes -*- C++ -*-===//
//
// LLVM 22's AMDGPU object writer has ELF flags for code object versions 4 to
// 6 only: on any other it aborts (report_fatal_error), llvm-mc too. The
// reader refuses other versions where `.amdhsa_code_object_version` states
// them, the disassembler code objects of other versions.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_MC_CODEOBJECTVERSION_H
#define STINKYTOFU_MC_CODEOBJECTVERSION_H

#include <cstdint>

namespace stinkytofu {

constexpr unsigned MinWritableCodeObjectVersion = 4;
constexpr unsigned MaxWritableCodeObjectVersion = 6;

/// Whether LLVM MC writes objects of code object version \p Version.
constexpr bool isWritableCodeObjectVersion(uint64_t Version) {
  return Version >= MinWritableCodeObjectVersion && Version <= MaxWritableCodeObjectVersion;
}

} // namespace stinkytofu

#endif
