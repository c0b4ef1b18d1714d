//===- WaveDecoder.h - Shaderdata records to scope events, per wave -*- C++ -*-===//
//
// Records of all waves of an SE arrive interleaved. The decoder keeps one
// state per wave slot (SE, CU, SIMD, slot): the wave instance running there
// (from occupancy), its scope stack and the payload block being collected.
// Memory is bounded by the slots and the open scopes, not the trace.
//
// Per record, in the slot's stream: the R: count of a header's id says how
// many following records are raw payload (collected for addr_trace_*
// headers, skipped otherwise); every other record is a marker header,
// (id << 2) | enter << 1 | exit_prev. The id's funcmap row decides: F:/U:
// ids (and unknown ones) push/pop scopes by the flags, P: ids are points.
// Before each scope change the cycles since the previous one go to the
// open stack (attribute()), from the wave's launch to its end.
//
//===----------------------------------------------------------------------===//
#ifndef ASM_INSTRUMENT_TRACE_WAVEDECODER_H
#define ASM_INSTRUMENT_TRACE_WAVEDECODER_H

#include "asm-instrument/trace/ClockCorrection.h"
#include "asm-instrument/trace/Diagnostics.h"
#include "asm-instrument/trace/MarkerMaps.h"
#include "asm-instrument/trace/Occupancy.h"
#include "asm-instrument/trace/ShaderDataReader.h"
#include "asm-instrument/trace/TraceFilter.h"
#include "asm-instrument/trace/TraceSink.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/StringSaver.h"
#include <memory>

namespace stinkytofu::trace {

class WaveDecoder {
public:
  WaveDecoder(const Occupancy &Occ, const MarkerMaps &Maps, const ClockCorrection &Clock,
              const TraceFilter &Filter, TraceSink &Sink, Diagnostics &Diags);
  ~WaveDecoder();

  void record(uint32_t SE, const ShaderDataRecord &R);
  /// Ends every wave still open (end of the dispatch).
  void finish();

  /// The wave instance \p R belongs to, resolved through occupancy, and
  /// the funcmap its code object uses (shared with the clock pass).
  struct Resolved {
    const WaveSpan *Span = nullptr;
    uint32_t Instance = 0;
    uint64_t NextLaunch = UINT64_MAX;
    uint32_t CodeObject = 0;
    const MarkerIndex *Markers = nullptr;
  };
  static Resolved resolve(const Occupancy &Occ, const MarkerMaps &Maps, uint32_t Slot,
                          uint64_t Time);

private:
  struct Wave;
  Wave &startWave(uint32_t SE, const ShaderDataRecord &R, uint32_t Key);
  void endWave(Wave &W);
  void header(Wave &W, uint64_t Time, uint64_t Arrival, uint32_t Raw, uint32_t Value);
  void payload(Wave &W, uint32_t Word);
  void scopeChange(Wave &W, uint64_t Time);
  void push(Wave &W, uint32_t Id, const MarkerInfo *Info, uint64_t Time);
  void pop(Wave &W, uint64_t Time);
  /// Sends beginWave and the enters of frames opened before the window.
  void reveal(Wave &W);
  llvm::StringRef unknownName(uint32_t Id);

  const Occupancy &Occ;
  const MarkerMaps &Maps;
  const ClockCorrection &Clock;
  const TraceFilter &Filter;
  TraceSink &Sink;
  Diagnostics &Diags;
  /// Slot keys differ in their high bytes (SE, CU), which DenseMap's
  /// default integer hash (x * 37) leaves in the high bits: mix them down.
  struct SlotKeyInfo : llvm::DenseMapInfo<uint32_t> {
    static unsigned getHashValue(uint32_t K) { return (K ^ K >> 15 ^ K >> 24) * 0x9E3779B1u >> 7; }
  };
  llvm::DenseMap<uint32_t, std::unique_ptr<Wave>, SlotKeyInfo> Slots;
  /// Every record looks its slot up and waves interleave, so the usual
  /// slots (SE < 16, CU < 32, SIMD < 4, slot < 16) also sit in a plain
  /// table; others are found in Slots alone.
  static int directIndex(uint32_t Key);
  std::vector<Wave *> Direct;
  uint32_t NextSerial = 0;
  llvm::BumpPtrAllocator NameStorage;
  llvm::StringSaver Names{NameStorage};
  llvm::DenseMap<uint32_t, llvm::StringRef> UnknownNames;
};

} // namespace stinkytofu::trace

#endif
