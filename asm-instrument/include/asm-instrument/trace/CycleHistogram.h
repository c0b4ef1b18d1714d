//===- CycleHistogram.h - Percentiles in bounded memory ---------*- C++ -*-===//
//
// Durations are counted in buckets: exact below 4096 cycles, above that 128
// buckets per power of two (a value is reported as its bucket's lower
// bound: less than 0.8% low). Memory grows with the largest value's
// magnitude, never with the number of values.
//
//===----------------------------------------------------------------------===//
#ifndef ASM_INSTRUMENT_TRACE_CYCLEHISTOGRAM_H
#define ASM_INSTRUMENT_TRACE_CYCLEHISTOGRAM_H

#include <cstdint>
#include <vector>

namespace stinkytofu::trace {

class CycleHistogram {
public:
  void add(uint64_t Cycles);
  uint64_t count() const { return Count; }
  uint64_t total() const { return Total; }
  uint64_t min() const { return Count ? Min : 0; }
  uint64_t max() const { return Max; }
  /// The nearest-rank percentile (0 < P <= 100), exact below 4096.
  uint64_t percentile(double P) const;

private:
  static unsigned bucketOf(uint64_t V);
  static uint64_t lowerBound(unsigned Bucket);
  std::vector<uint64_t> Buckets;
  uint64_t Count = 0, Total = 0, Min = UINT64_MAX, Max = 0;
};

} // namespace stinkytofu::trace

#endif
