//===- ObjectEmitter.h - Assemble a module into an ELF object ---*- C++ -*-===//
//
// `stinkytofu-opt --emit-obj`: the module is written as assembly (writeAsm)
// and that text is assembled in-process by a fresh LLVM MC pipeline
// (MCAsmParser into the AMDGPU ELF object streamer), set up the way
// `llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=<processor> -filetype=obj` sets
// itself up, so the bytes are the ones llvm-mc writes for the same text.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_EMIT_OBJECTEMITTER_H
#define STINKYTOFU_EMIT_OBJECTEMITTER_H

#include "stinkytofu/hw/TargetInfo.h"
#include "stinkytofu/ir/Module.h"
#include "stinkytofu/support/Diagnostics.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <string>

namespace stinkytofu {

struct ObjectEmitOptions {
  /// The file name MC diagnostics give the assembly text.
  std::string BufferName = "<assembly>";
  /// Receives MC's warnings (a context's diagnose); null drops them.
  DiagnosticHandler Warnings;
};

/// Assembles \p AsmText for \p Target (its processor and the features of its
/// target id) into an ELF64 relocatable object. MC errors are one Error
/// holding every rendered `file:line:col: error: ...` diagnostic.
llvm::Expected<std::string> assembleObject(llvm::StringRef AsmText, const TargetInfo &Target,
                                           const ObjectEmitOptions &Opts = {});

/// writeAsm, then assembleObject for the module's target. Diagnostics name
/// the assembly `<module file> (rewritten)`: their lines are those of the
/// text `--emit-asm` writes.
llvm::Expected<std::string> emitObject(const Module &M, DiagnosticHandler Warnings = nullptr);

} // namespace stinkytofu

#endif
