//===- MarkerIds.h - Marker ID allocation and compaction ---------*- C++ -*-===//
//
// One counter from 1 (spec "ID Allocation"). The function and named-marker
// IDs come first, compacted together by emission count (most emitted first,
// ties in the order the markers were added: named markers in module order,
// then functions in module order) so that the most frequent fit the 8-bit
// `s_ttracedata_imm` form; then the barrier IDs (barrier_signal,
// barrier_wait, barrier) and the memory IDs (vmem_load, vmem_store) when
// those features are on, then one ID per address-traced operation in the
// order they were added (the spec's late-resolved IDs). IDs used by numeric
// markers already in the input
// are skipped. The result depends only on the markers added and their counts.
//
//===----------------------------------------------------------------------===//
#ifndef ASM_INSTRUMENT_SQTT_MARKERIDS_H
#define ASM_INSTRUMENT_SQTT_MARKERIDS_H

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <string>
#include <vector>

namespace stinkytofu::sqtt {

enum class LedgerKind : uint8_t {
  Function,  ///< F: an instrumented callable function
  UserScope, ///< U: sqtt_marker_enter
  UserPoint, ///< P: sqtt_marker_point / sqtt_marker_data
  AddressTrace, ///< P: addr_trace_* header, one per traced operation
};

/// The automatic point markers, in allocation order.
enum class SystemMarker : uint8_t { BarrierSignal, BarrierWait, Barrier, VmemLoad, VmemStore };
const char *systemMarkerName(SystemMarker S);

struct LedgerEntry {
  LedgerKind Kind;
  std::string Name;
  std::string SourceLoc;          ///< F: and address-trace rows
  uint32_t ExtraPayloadCount = 0; ///< 1 for sqtt_marker_data; address records
  uint64_t Count = 0;             ///< markers emitted with this id
  uint32_t Id = 0;                ///< after assign()
};

class MarkerIdAllocator {
public:
  /// An ID a marker of the input already uses: never allocated.
  void reserve(uint32_t Id);

  /// A named marker; the same kind, payload count and name share one entry
  /// (an enter and a point of the same name do not). Returns its handle.
  unsigned addUserMarker(LedgerKind Kind, llvm::StringRef Name, uint32_t ExtraPayloadCount);
  /// A traced memory operation (`addr_trace_load`, ...). Returns its handle.
  unsigned addAddressTrace(llvm::StringRef Name, llvm::StringRef SourceLoc,
                           uint32_t ExtraPayloadCount);
  /// An instrumented function. Returns its handle.
  unsigned addFunction(llvm::StringRef Name, llvm::StringRef SourceLoc);
  /// Counts \p N more emitted markers carrying the entry's ID.
  void count(unsigned Handle, uint64_t N = 1) { Entries[Handle].Count += N; }

  /// Assigns every ID; call once, after all adds and counts.
  void assign(bool Barriers, bool Memory);

  uint32_t id(unsigned Handle) const { return Entries[Handle].Id; }
  /// The ID of a system marker (0 when its feature is off).
  uint32_t systemId(SystemMarker S) const { return SystemIds[static_cast<unsigned>(S)]; }
  /// Entries in the order they were added.
  const std::vector<LedgerEntry> &entries() const { return Entries; }
  /// The largest ID assigned.
  uint32_t maxId() const { return MaxId; }

private:
  uint32_t next();

  std::vector<LedgerEntry> Entries;
  llvm::StringMap<unsigned> UserKeys;
  llvm::DenseSet<uint32_t> Reserved;
  uint32_t SystemIds[5] = {0, 0, 0, 0, 0};
  uint32_t NextId = 1, MaxId = 0;
};

} // namespace stinkytofu::sqtt

#endif
