//===- TraceFilter.h - Which waves and which time window --------*- C++ -*-===//
#ifndef ASM_INSTRUMENT_TRACE_TRACEFILTER_H
#define ASM_INSTRUMENT_TRACE_TRACEFILTER_H

#include "asm-instrument/trace/TraceSink.h"
#include "llvm/Support/Regex.h"
#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>

namespace stinkytofu::trace {

struct TraceFilter {
  std::shared_ptr<llvm::Regex> Kernel; ///< Searched in the kernel name.
  std::optional<uint32_t> SE, CU, SIMD, Slot;
  std::optional<int64_t> WorkGroup;
  /// The time window in cycles, both ends included.
  uint64_t Begin = 0, End = UINT64_MAX;

  bool selects(const WaveInfo &W) const {
    return (!SE || *SE == W.SE) && (!CU || *CU == W.CU) && (!SIMD || *SIMD == W.SIMD) &&
           (!Slot || *Slot == W.Slot) && (!WorkGroup || *WorkGroup == W.WorkGroup) &&
           (!Kernel || Kernel->match(W.Kernel));
  }
  bool inWindow(uint64_t T) const { return T >= Begin && T <= End; }
  uint64_t clip(uint64_t T) const { return std::clamp(T, Begin, End); }
};

} // namespace stinkytofu::trace

#endif
