//===- AssembledKernel.h - A test kernel's code object ----------*- C++ -*-===//
//
// The disassembler's tests start from a code object; they assemble their
// kernel text with the project's own emitter for one target.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_TESTS_UNIT_DISASM_ASSEMBLEDKERNEL_H
#define STINKYTOFU_TESTS_UNIT_DISASM_ASSEMBLEDKERNEL_H

#include "stinkytofu/emit/ObjectEmitter.h"
#include "stinkytofu/hw/TargetInfo.h"
#include "llvm/ADT/StringRef.h"
#include "gtest/gtest.h"

#include <string>

namespace stinkytofu::test {

/// The ELF code object of \p Text for \p Arch; empty, with a test failure,
/// when it does not assemble.
inline std::string assembleKernel(llvm::StringRef Text, llvm::StringRef Arch = "gfx942") {
  llvm::Expected<std::shared_ptr<const TargetInfo>> Target = TargetInfo::get(Arch);
  if (!Target) {
    ADD_FAILURE() << llvm::toString(Target.takeError());
    return {};
  }
  llvm::Expected<std::string> Object = assembleObject(Text, **Target);
  if (!Object) {
    ADD_FAILURE() << llvm::toString(Object.takeError());
    return {};
  }
  return std::move(*Object);
}

} // namespace stinkytofu::test

#endif
