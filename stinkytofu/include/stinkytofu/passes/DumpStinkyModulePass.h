//===- DumpStinkyModulePass.h - Print the module as .stir --------*- C++ -*-===//
//
// `DumpStinkyModulePass[=stdout]`: writes the module as `.stir` to the
// context's dump stream (stderr by default) or, with `stdout`, to standard
// output, and changes nothing. The reference's `ssaForm` and `ssaLive`
// forms print its SSA lifting; StinkyTofu has no SSA form of the IR, so
// asking for either is an error naming it.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_PASSES_DUMPSTINKYMODULEPASS_H
#define STINKYTOFU_PASSES_DUMPSTINKYMODULEPASS_H

#include "stinkytofu/pass/PassArguments.h"

namespace stinkytofu {

llvm::Expected<std::unique_ptr<Pass>> createDumpStinkyModulePass(const PassArguments &Args);

} // namespace stinkytofu

#endif
