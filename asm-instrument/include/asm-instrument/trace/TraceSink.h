//===- TraceSink.h - What the decoder reports, and to whom ------*- C++ -*-===//
//
// The decoder (TraceReader) turns shaderdata records into events on wave
// instances and hands them to a TraceSink; each output format is one sink.
// Times are shader-clock cycles of the dispatch's time domain, already
// corrected for clock packing and clipped to the time window.
//
//===----------------------------------------------------------------------===//
#ifndef ASM_INSTRUMENT_TRACE_TRACESINK_H
#define ASM_INSTRUMENT_TRACE_TRACESINK_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <string>
#include <vector>

namespace stinkytofu::trace {

/// One `ui_output_*` directory: its own time domain.
struct DispatchInfo {
  std::string Name;   ///< Its base name.
  uint32_t Index = 0; ///< 0, 1, ... in the order the dispatches are read.
  double ClockGHz = 0; ///< Shader clock rate (cycles per nanosecond).
};

/// One execution of a wave: a slot (SE, CU, SIMD, wave slot) and the
/// launch/end pair of occupancy rows it ran between.
struct WaveInfo {
  uint8_t SE = 0, CU = 0, SIMD = 0, Slot = 0;
  uint32_t Instance = 0;  ///< Counts launches on this slot, from 0.
  int64_t WorkGroup = -1; ///< From 3.1.0 occupancy rows; -1 when unknown.
  uint64_t Launch = 0, End = 0;
  uint32_t CodeObject = 0; ///< 0 when the kernel's code object is unknown.
  llvm::StringRef Kernel;  ///< Kernel name (occupancy `dispatches`).
  uint32_t Serial = 0;     ///< Unique per dispatch, in order of first record.
};

/// What a marker id names, from the funcmap.
/// Instruction: a lane of an instruction category in a capture without
/// markers (InstructionLanes.h), not a marker.
enum class MarkerClass : uint8_t { Function, UserScope, Point, Unknown, Instruction };

struct ScopeFrame {
  uint32_t Id = 0;
  MarkerClass Class = MarkerClass::Unknown;
  llvm::StringRef Name;
  uint64_t Begin = 0;
};

/// What one marker header did.
enum class MarkerAction : uint8_t { Enter, Exit, Transition, Point, NoOp };

struct DecodedMarker {
  uint64_t Time = 0;        ///< Corrected time.
  uint64_t ArrivalTime = 0; ///< The record's time as written.
  uint32_t RawValue = 0;    ///< The record's value as written.
  uint32_t Id = 0;
  MarkerClass Class = MarkerClass::Unknown;
  MarkerAction Action = MarkerAction::NoOp;
  llvm::StringRef Name;      ///< Empty for bare exits.
  llvm::StringRef SourceLoc; ///< From the funcmap row, often empty.
  uint32_t Payloads = 0;     ///< Raw records that followed the header.
  unsigned Depth = 0;        ///< Scope depth after the marker.
};

/// One address-trace block (`addr_trace_*` header and its payload).
struct AddressTrace {
  uint64_t Time = 0;
  uint32_t Id = 0;
  llvm::StringRef Kind; ///< The funcmap name without `addr_trace_`.
  llvm::StringRef SourceLoc;
  uint64_t Exec = 0;
  /// Addresses of the active lanes, lowest lane first.
  std::vector<std::pair<unsigned, uint64_t>> Lanes;
};

class TraceSink {
public:
  virtual ~TraceSink();
  virtual void beginDispatch(const DispatchInfo &D) {}
  virtual void endDispatch(const DispatchInfo &D) {}
  /// The first event of a wave instance inside the filters.
  virtual void beginWave(const WaveInfo &W, uint64_t Time) {}
  virtual void endWave(const WaveInfo &W, uint64_t Time) {}
  /// \p Stack ends with the new frame.
  virtual void enterScope(const WaveInfo &W, llvm::ArrayRef<ScopeFrame> Stack) {}
  /// \p Stack still holds the closing frame (last); it ran Begin..End.
  virtual void exitScope(const WaveInfo &W, llvm::ArrayRef<ScopeFrame> Stack, uint64_t End) {}
  /// \p Cycles spent with \p Stack (possibly empty: the kernel itself) open.
  virtual void attribute(const WaveInfo &W, llvm::ArrayRef<ScopeFrame> Stack, uint64_t Cycles) {}
  virtual void marker(const WaveInfo &W, const DecodedMarker &M) {}
  virtual void addressTrace(const WaveInfo &W, const AddressTrace &A) {}
  /// The number of waves running in the dispatch changed (occupancy).
  virtual void liveWaves(uint64_t Time, unsigned Count) {}
};

} // namespace stinkytofu::trace

#endif
