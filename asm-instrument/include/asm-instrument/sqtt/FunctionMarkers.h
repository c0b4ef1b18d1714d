//===- FunctionMarkers.h - Entry and exit markers of functions ---*- C++ -*-===//
//
// A callable function bigger than the threshold gets an enter marker
// ((id << 2) | 2) before its first instruction and an exit marker (0x1)
// before every return (spec "Function entry/exit markers"). Kernels are not
// instrumented; they only get a K: row.
//
// Size: the number of machine instructions (a macro call counts what it
// expands to, a pseudo-instruction nothing), or with `cost:N` the spec's
// weighted cost mapped to machine instructions through the hardware
// model's class weights (MFMA/WMMA 16, LDS 4, global/buffer/flat 10, else 1).
// A function is instrumented when its size exceeds the threshold.
//
//===----------------------------------------------------------------------===//
#ifndef ASM_INSTRUMENT_SQTT_FUNCTIONMARKERS_H
#define ASM_INSTRUMENT_SQTT_FUNCTIONMARKERS_H

#include "asm-instrument/sqtt/MarkerSites.h"
#include "asm-instrument/sqtt/SQTTConfig.h"
#include <vector>

namespace stinkytofu::sqtt {

/// The size of \p F in the configured mode.
uint64_t functionSize(const Function &F, CostMode Mode);

/// Where code at the start of \p F (non-empty) goes: a callable function is
/// called with its caller's memory operations in flight and waits for them
/// first (LLVM's callees start so), and the inserted code, which reads
/// hardware registers and writes SGPRs, goes after those waits.
InsertPoint functionEntryPoint(Function &F);

/// The entry and exit sites of \p F for the ledger entry \p Handle.
std::vector<MarkerSite> functionSites(Function &F, unsigned Handle);

} // namespace stinkytofu::sqtt

#endif
