//===- ClockCorrection.cpp - Clock-packed marker headers ------------------===//
#include "asm-instrument/trace/ClockCorrection.h"
#include "asm-instrument/trace/MarkerMaps.h"
#include <algorithm>

using namespace stinkytofu::funcmap;

namespace stinkytofu::trace {

std::optional<PackedHeader> unpackHeader(const MarkerIndex &Markers, uint32_t Raw) {
  std::optional<MarkerEncoding> E = Markers.encoding();
  if (!E || E->ShaderClockBits == 0)
    return std::nullopt;
  uint32_t IdMask = (uint32_t(1) << E->markerIdBits()) - 1;
  uint32_t Id = (Raw >> 2) & IdMask;
  uint32_t Flags = Raw & 3;
  bool BareExit = Id == 0 && Flags == 1;
  if (!BareExit && (Id == 0 || !Markers.find(Id)))
    return std::nullopt;
  PackedHeader H;
  H.Value = Id << 2 | Flags;
  H.Sampled = uint64_t(Raw >> (32 - E->ShaderClockBits)) << E->ShaderClockShift;
  return H;
}

uint64_t ClockCorrection::domainKey(uint32_t SE, uint32_t CU, uint32_t SIMD,
                                    const MarkerEncoding &E) {
  return uint64_t(SE & 0xff) << 40 | uint64_t(CU & 0xff) << 32 | uint64_t(SIMD & 0xff) << 24 |
         uint64_t(E.ShaderClockBits & 0xff) << 8 | (E.ShaderClockShift & 0xff);
}

int64_t ClockCorrection::relative(const Domain &D, const MarkerEncoding &E, uint64_t Time,
                                  uint64_t Sampled) {
  unsigned WindowBits = E.ShaderClockBits + E.ShaderClockShift;
  uint64_t Mask = WindowBits >= 64 ? ~uint64_t(0) : (uint64_t(1) << WindowBits) - 1;
  uint64_t Half = (Mask + 1) / 2;
  uint64_t Delta = (Time - D.OriginTime) - (Sampled - D.OriginSampled);
  return int64_t((Delta + Half) & Mask) - int64_t(Half);
}

void ClockCorrection::observe(uint64_t Key, const MarkerEncoding &E, uint64_t Time,
                              uint64_t Sampled) {
  auto [It, New] = Domains.try_emplace(Key);
  if (New) {
    It->second.OriginTime = Time;
    It->second.OriginSampled = Sampled;
  }
  It->second.MinRelative = std::min(It->second.MinRelative, relative(It->second, E, Time, Sampled));
}

uint64_t ClockCorrection::correct(uint64_t Key, const MarkerEncoding &E, uint64_t Time,
                                  uint64_t Sampled) const {
  auto It = Domains.find(Key);
  if (It == Domains.end())
    return Time;
  int64_t Bucket = int64_t(1) << E.ShaderClockShift;
  int64_t Excess = relative(It->second, E, Time, Sampled) - It->second.MinRelative - (Bucket - 1);
  if (Excess <= 0)
    return Time;
  return uint64_t(Excess) > Time ? 0 : Time - uint64_t(Excess);
}

} // namespace stinkytofu::trace
