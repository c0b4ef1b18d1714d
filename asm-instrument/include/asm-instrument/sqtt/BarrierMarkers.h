//===- BarrierMarkers.h - Point markers at workgroup barriers ----*- C++ -*-===//
//
// The spec's placement table ("Barrier marker placement"):
//
//   s_barrier (standalone)           barrier         marker before
//   s_barrier_signal* (unpaired)     barrier_signal  marker after
//   s_barrier_wait (unpaired)        barrier_wait    marker before
//   signal directly followed by wait barrier         one marker between
//   in the same block
//
// "Directly followed": the wait is the next instruction of the block
// (pseudo-instructions in between count as instructions, as a call does in
// the reference).
//
//===----------------------------------------------------------------------===//
#ifndef ASM_INSTRUMENT_SQTT_BARRIERMARKERS_H
#define ASM_INSTRUMENT_SQTT_BARRIERMARKERS_H

#include "asm-instrument/sqtt/MarkerSites.h"
#include "llvm/ADT/StringRef.h"
#include <vector>

namespace stinkytofu::sqtt {

enum class BarrierKind : uint8_t { None, Signal, Wait, Full };

/// By mnemonic: s_barrier; s_barrier_signal, s_barrier_signal_isfirst and
/// their _var forms; s_barrier_wait. Other s_barrier_* (init, join, leave)
/// are not barriers here.
BarrierKind classifyBarrier(const Instruction &I);

std::vector<MarkerSite> barrierSites(Function &F);

} // namespace stinkytofu::sqtt

#endif
