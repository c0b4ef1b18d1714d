//===- StirReader.h - Reading the textual IR (`.stir`) ----------*- C++ -*-===//
//
// `.stir` is read in two steps: the structure (functions, blocks,
// instructions, modifiers) is parsed here, then the assembly it stands for is
// put back together and read by the `.s` reader, so LLVM MC stays the only
// judge of what an instruction means. Modifiers and block structure are laid
// over the result; diagnostics point at the `.stir` file.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_STIR_STIRREADER_H
#define STINKYTOFU_STIR_STIRREADER_H

#include "stinkytofu/asm/AsmReader.h"

namespace stinkytofu {

llvm::Expected<std::unique_ptr<Module>>
readStir(std::unique_ptr<llvm::MemoryBuffer> Buffer, const ReaderOptions &Opts);

} // namespace stinkytofu

#endif
