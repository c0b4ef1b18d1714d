//===- ModuleLiveness.h - Marker liveness of every function ------*- C++ -*-===//
//
// The MarkerLiveness of the functions that get markers, with one
// whole-module refinement: a function whose every call site is in the
// module (not a kernel, its symbol not .globl or .weak, every call of the
// module with known callees, at least one of them naming it; Tensile's
// activation functions, entered by s_swappc_b64 from the kernel) has after
// its returns only what its callers read after those calls, or keep across
// them (a caller's cached scope predicate, MarkerLiveness::freeSGPR). A
// register dead after every call site and unused by the function (and its
// callees) is dead throughout it, and its budget is its callers' (the
// smallest): their descriptors count those registers.
//
//===----------------------------------------------------------------------===//
#ifndef ASM_INSTRUMENT_SQTT_MODULELIVENESS_H
#define ASM_INSTRUMENT_SQTT_MODULELIVENESS_H

#include "asm-instrument/sqtt/MarkerLiveness.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <memory>

namespace stinkytofu::sqtt {

using LivenessMap = llvm::DenseMap<Function *, std::unique_ptr<MarkerLiveness>>;

/// The liveness of each function of \p Funcs that \p Wanted accepts (and of
/// the callers the refinement needs), on the unchanged module.
LivenessMap markerLivenessOf(Module &M, llvm::ArrayRef<Function *> Funcs,
                             llvm::function_ref<bool(Function &)> Wanted);

} // namespace stinkytofu::sqtt

#endif
