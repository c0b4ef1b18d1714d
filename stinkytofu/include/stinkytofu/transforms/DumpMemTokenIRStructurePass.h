//===- DumpMemTokenIRStructurePass.h - The LDS skeleton of a module -*- C++ -*-===//
//
// `DumpMemTokenIRStructurePass[=stdout]` (the reference's name) prints the
// structure memory tokens describe, without the arithmetic around it: every
// function, every block with its label, and of its instructions only the
// LDS accesses (isLdsAccess: DS reads, writes and atomics of LDS, tensor
// LDS transfers), the counter waits (the hardware model's) and the
// barriers (role Barrier), each as its assembly with the tokens it carries
// (`// memtoken [0, 3]`), then the block's successors (`-> ^a, ^b`) when
// the CFG is built. An access is listed whether or not it is tagged: an
// untagged one is what a reader of the dump looks for. Output goes to the
// dump stream (stderr), or stdout; the reference writes the file
// `dump_memtoken_ir_structure.txt`. Nothing changes.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_TRANSFORMS_DUMPMEMTOKENIRSTRUCTUREPASS_H
#define STINKYTOFU_TRANSFORMS_DUMPMEMTOKENIRSTRUCTUREPASS_H

#include "stinkytofu/pass/PassArguments.h"

namespace stinkytofu {

llvm::Expected<std::unique_ptr<Pass>>
createDumpMemTokenIRStructurePass(const PassArguments &Args);

} // namespace stinkytofu

#endif
