//===- Occupancy.h - Wave launches and ends (occupancy.json) ----*- C++ -*-===//
//
// occupancy.json lists, per shader engine, wave starts and ends on each
// (CU, SIMD, wave slot) with the kernel they ran. A shaderdata record
// belongs to the latest launch on its slot at or before the record's time
// (records may arrive after the wave ended). Rows: 3.0.0
// [time, cu, simd, slot, start, kernel_id]; 3.1.0 adds me_id, pipe_id,
// is_ext, workgroup_id, cluster_id (named by `occupancy_fields`).
//
//===----------------------------------------------------------------------===//
#ifndef ASM_INSTRUMENT_TRACE_OCCUPANCY_H
#define ASM_INSTRUMENT_TRACE_OCCUPANCY_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace stinkytofu::trace {

/// (SE, CU, SIMD, slot) packed into one key.
inline uint32_t slotKey(uint32_t SE, uint32_t CU, uint32_t SIMD, uint32_t Slot) {
  return (SE & 0xff) << 24 | (CU & 0xff) << 16 | (SIMD & 0xff) << 8 | (Slot & 0xff);
}

struct WaveSpan {
  uint64_t Launch = 0;
  uint64_t End = UINT64_MAX; ///< UINT64_MAX when no end row was seen.
  uint32_t KernelId = UINT32_MAX;
  int64_t WorkGroup = -1;
};

class Occupancy {
public:
  /// The span of the latest launch on \p Slot at or before \p Time (the first
  /// span when the record precedes every launch); \p Index is set to its
  /// position, counting launches on the slot from 0. nullptr: no launch at all.
  const WaveSpan *find(uint32_t Slot, uint64_t Time, uint32_t &Index) const;

  /// Kernel id -> name from `dispatches` ("<codeobj> / 0x<addr>" when the
  /// writer did not know the symbol).
  llvm::StringRef kernelName(uint32_t KernelId) const;

  /// +1 at each launch, -1 at each end, sorted by time.
  const std::vector<std::pair<uint64_t, int>> &liveChanges() const { return Changes; }

  llvm::DenseMap<uint32_t, std::vector<WaveSpan>> Slots;
  std::map<uint32_t, std::string> KernelNames;
  std::vector<std::pair<uint64_t, int>> Changes;
};

llvm::Expected<Occupancy> readOccupancy(llvm::StringRef Path);

} // namespace stinkytofu::trace

#endif
