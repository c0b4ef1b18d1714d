//===- CycleHistogram.cpp - Percentiles in bounded memory -----------------===//
#include "asm-instrument/trace/CycleHistogram.h"
#include "llvm/Support/MathExtras.h"
#include <algorithm>
#include <cmath>

namespace stinkytofu::trace {

static constexpr unsigned ExactBits = 12; // exact below 4096
static constexpr unsigned SubBits = 7;    // 128 buckets per power of two

unsigned CycleHistogram::bucketOf(uint64_t V) {
  if (V < (uint64_t(1) << ExactBits))
    return unsigned(V);
  unsigned Log = llvm::Log2_64(V);
  unsigned Sub = unsigned(V >> (Log - SubBits)) & ((1u << SubBits) - 1);
  return (1u << ExactBits) + (Log - ExactBits) * (1u << SubBits) + Sub;
}

uint64_t CycleHistogram::lowerBound(unsigned B) {
  if (B < (1u << ExactBits))
    return B;
  unsigned Rest = B - (1u << ExactBits);
  unsigned Log = Rest / (1u << SubBits) + ExactBits;
  uint64_t Sub = Rest % (1u << SubBits);
  return ((uint64_t(1) << SubBits) + Sub) << (Log - SubBits);
}

void CycleHistogram::add(uint64_t V) {
  unsigned B = bucketOf(V);
  if (B >= Buckets.size())
    Buckets.resize(B + 1);
  ++Buckets[B];
  ++Count;
  Total += V;
  Min = std::min(Min, V);
  Max = std::max(Max, V);
}

uint64_t CycleHistogram::percentile(double P) const {
  if (!Count)
    return 0;
  uint64_t Rank = std::max<uint64_t>(1, uint64_t(std::ceil(P / 100.0 * double(Count))));
  uint64_t Seen = 0;
  for (unsigned B = 0; B < Buckets.size(); ++B) {
    Seen += Buckets[B];
    if (Seen >= Rank)
      return std::clamp(lowerBound(B), min(), Max);
  }
  return Max;
}

} // namespace stinkytofu::trace
