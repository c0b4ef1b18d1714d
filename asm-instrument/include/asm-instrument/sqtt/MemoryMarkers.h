//===- MemoryMarkers.h - Point markers after groups of memory ops -*- C++ -*-===//
//
// Global, buffer and flat loads, stores and atomics (atomics count as
// stores; LDS and scratch are not memory operations here) get point markers
// `vmem_load` / `vmem_store`, grouped by SQTT_INSTRUMENT_MEMORY=N:M as the
// reference does it, per basic block:
//   - a group holds operations of one kind (a load/store change ends it),
//   - consecutive operations of a group are at most M instructions apart,
//   - a group ends after N operations,
//   - the marker goes right after the last operation of each group.
// Spec example, N=2 M=5, `load load store load load load`: markers after
// load 2 (vmem_load), store 3 (vmem_store), load 5 (vmem_load), load 6
// (vmem_load).
//
//===----------------------------------------------------------------------===//
#ifndef ASM_INSTRUMENT_SQTT_MEMORYMARKERS_H
#define ASM_INSTRUMENT_SQTT_MEMORYMARKERS_H

#include "asm-instrument/sqtt/MarkerSites.h"
#include "llvm/ADT/ArrayRef.h"
#include <vector>

namespace stinkytofu {
class TargetInfo;
}

namespace stinkytofu::sqtt {

enum class MemOpKind : uint8_t { None, Load, Store };

/// Whether \p I is a global/buffer/flat memory operation, and which kind. A
/// macro call is one when what it expands to holds one (a store if it holds
/// any store or atomic).
MemOpKind classifyMemoryOp(const Instruction &I, const TargetInfo &TI);
/// The same for one MC opcode or mnemonic name (`global_load_dword`,
/// `BUFFER_ATOMIC_ADD_OFFSET_vi`), case-insensitive.
MemOpKind classifyMemoryName(llvm::StringRef Name);

/// One group: the index of its last operation in the stream and its kind.
struct MemoryGroup {
  size_t Last;
  MemOpKind Kind;
};
/// Groups a block's instruction stream (None for non-memory instructions).
std::vector<MemoryGroup> groupMemoryOps(llvm::ArrayRef<MemOpKind> Stream, unsigned Chunk,
                                        unsigned MaxGap);

std::vector<MarkerSite> memorySites(Function &F, unsigned Chunk, unsigned MaxGap);

} // namespace stinkytofu::sqtt

#endif
