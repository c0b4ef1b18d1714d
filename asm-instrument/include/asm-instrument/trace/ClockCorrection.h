//===- ClockCorrection.h - Clock-packed marker headers ----------*- C++ -*-===//
//
// With an `M:shader_clock_bits=N;shader_clock_shift=S` row, the headers the
// pass makes carry shader-clock bits [S, S+N) in their top N bits and a
// (30-N)-bit id. The clock sample tells how long the record took to reach
// the trace: within each (SE, CU, SIMD, N, S) domain, a header's delay
// relative to any origin header of the domain is
//   relative = ((dt_record - dt_sample + half) & mask) - half
// (mask = 2^(N+S) - 1, half = 2^(N+S-1)). Once the whole domain has been
// seen, each header moves earlier by max(0, relative - min(relative) -
// (2^S - 1)) (spec, "GFX12 Shader Clock Packing"). Hence two passes:
// observe() every header, then correct() each.
//
//===----------------------------------------------------------------------===//
#ifndef ASM_INSTRUMENT_TRACE_CLOCKCORRECTION_H
#define ASM_INSTRUMENT_TRACE_CLOCKCORRECTION_H

#include "asm-instrument/funcmap/FuncMap.h"
#include "llvm/ADT/DenseMap.h"
#include <cstdint>
#include <optional>

namespace stinkytofu::trace {

class MarkerIndex;

/// A header recognised in a clock-packed record.
struct PackedHeader {
  uint32_t Value = 0;   ///< The legacy form, (id << 2) | flags.
  uint64_t Sampled = 0; ///< The clock field, shifted back to its source bits.
};

/// The header in \p Raw when \p Markers has a clock layout and \p Raw's
/// packed id is a known marker or a bare exit; std::nullopt otherwise (the
/// value is then read as it is, like the reference decoders).
std::optional<PackedHeader> unpackHeader(const MarkerIndex &Markers, uint32_t Raw);

class ClockCorrection {
public:
  static uint64_t domainKey(uint32_t SE, uint32_t CU, uint32_t SIMD,
                            const funcmap::MarkerEncoding &E);
  void observe(uint64_t Domain, const funcmap::MarkerEncoding &E, uint64_t Time,
               uint64_t Sampled);
  /// \p Time moved earlier by the header's excess delay.
  uint64_t correct(uint64_t Domain, const funcmap::MarkerEncoding &E, uint64_t Time,
                   uint64_t Sampled) const;
  bool empty() const { return Domains.empty(); }

private:
  struct Domain {
    uint64_t OriginTime = 0, OriginSampled = 0;
    int64_t MinRelative = INT64_MAX;
  };
  static int64_t relative(const Domain &D, const funcmap::MarkerEncoding &E, uint64_t Time,
                          uint64_t Sampled);
  llvm::DenseMap<uint64_t, Domain> Domains;
};

} // namespace stinkytofu::trace

#endif
