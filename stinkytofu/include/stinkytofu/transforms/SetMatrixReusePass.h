//===- SetMatrixReusePass.h - WMMA operand reuse hints ------------*- C++ -*-===//
//
// `SetMatrixReusePass` (gfx1250): gives a WMMA / SWMMAC instruction the
// `matrix_a_reuse` (`matrix_b_reuse`) modifier when the next matrix
// instruction reads the same A (B) registers, and takes it away when it
// does not. The chain from one matrix instruction to the next is broken by
// anything between them that may change what the next one reads or where
// control goes: a write of any register of that operand, a call, a branch or
// program end, a label (block start), a directive, a macro invocation or
// opaque statement, and a function boundary. A modifier is set only where
// MC accepts it: never on a non-scale `_f8f6f4` WMMA nor on an MX WMMA
// ending in `_f4`. An instruction whose flags do not change is untouched.
// On targets without the modifiers (before gfx1250) the pass is an error.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_TRANSFORMS_SETMATRIXREUSEPASS_H
#define STINKYTOFU_TRANSFORMS_SETMATRIXREUSEPASS_H

#include "stinkytofu/pass/PassArguments.h"

namespace stinkytofu {

llvm::Expected<std::unique_ptr<Pass>> createSetMatrixReusePass(const PassArguments &Args);

} // namespace stinkytofu

#endif
