//===- MarkerEncoding.h - The 32-bit SQTT marker word ------------*- C++ -*-===//
//
// encoded = (id << 2) | flags, flags: EXIT_PREV = 1 (pop the top scope),
// ENTER = 2 (push scope id). A pure exit is 0x1; a fused exit+enter is
// (id << 2) | 3; a point marker has no flags. With shader-clock packing
// (gfx12) the top ShaderClockBits bits of a header carry the clock and the
// id has 30 - ShaderClockBits bits.
//
//===----------------------------------------------------------------------===//
#ifndef ASM_INSTRUMENT_SQTT_MARKERENCODING_H
#define ASM_INSTRUMENT_SQTT_MARKERENCODING_H

#include <cstdint>

namespace stinkytofu::sqtt {

constexpr uint32_t FlagExitPrev = 1;
constexpr uint32_t FlagEnter = 2;
constexpr uint32_t FlagMask = 3;
/// The value of a pure exit marker.
constexpr uint32_t ExitMarker = FlagExitPrev;

constexpr uint32_t encodeMarker(uint32_t Id, bool Enter, bool ExitPrev) {
  return (Id << 2) | (Enter ? FlagEnter : 0) | (ExitPrev ? FlagExitPrev : 0);
}
constexpr uint32_t markerId(uint32_t Encoded) { return Encoded >> 2; }

/// Whether \p Encoded can be written with `s_ttracedata_imm`: the target has
/// it (\p ImmMax is its largest recorded value, 0 without it) and packing is
/// off (packed headers need the clock read at run time).
constexpr bool fitsImmediate(uint32_t Encoded, unsigned ImmMax, bool Packing) {
  return !Packing && ImmMax != 0 && Encoded <= ImmMax;
}

} // namespace stinkytofu::sqtt

#endif
