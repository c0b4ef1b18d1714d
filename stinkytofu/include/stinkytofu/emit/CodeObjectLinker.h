//===- CodeObjectLinker.h - ld.lld -shared on one object --------*- C++ -*-===//
//
// `stinkytofu-opt --emit-obj --link`: a relocatable object becomes a
// loadable code object by running `ld.lld -shared`, the link clang's HIP and
// OpenCL drivers do for amdgcn-amd-amdhsa. The linker is an external program:
// its input and output go through a private temporary directory, and its
// stderr becomes the error message when it fails.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_EMIT_CODEOBJECTLINKER_H
#define STINKYTOFU_EMIT_CODEOBJECTLINKER_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <string>

namespace stinkytofu {

/// The ld.lld to run: \p Override when not empty (it must be executable),
/// else LLVM 22's (/usr/lib/llvm-22/bin/ld.lld), else `ld.lld-22` or
/// `ld.lld` on PATH.
llvm::Expected<std::string> findLld(llvm::StringRef Override = {});

/// Links \p Object (an AMDGPU ELF relocatable object) with
/// `<Lld> -shared IN -o OUT` and returns OUT's bytes. \p ObjectName names the
/// input in the linker's messages (its file name inside the temporary
/// directory, e.g. `k.o`). A linker failure is an Error with its exit status
/// and stderr.
llvm::Expected<std::string> linkCodeObject(llvm::StringRef Object, llvm::StringRef Lld,
                                           llvm::StringRef ObjectName = "module.o");

} // namespace stinkytofu

#endif
