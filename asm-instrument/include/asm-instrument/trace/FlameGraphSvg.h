//===- FlameGraphSvg.h - A self-contained interactive flame graph -*- C++ -*-===//
//
// One SVG file, no external resources: frames as rectangles (root at the
// bottom, width proportional to cycles), a tooltip per frame, click to zoom
// into a frame, "Reset Zoom", "Search" (a regular expression; matches turn
// magenta and the matched share of cycles is shown). The script also marks
// the root <svg> with data-rendered="<frames>" once laid out, so a headless
// browser can tell that it ran.
//
//===----------------------------------------------------------------------===//
#ifndef ASM_INSTRUMENT_TRACE_FLAMEGRAPHSVG_H
#define ASM_INSTRUMENT_TRACE_FLAMEGRAPHSVG_H

#include "asm-instrument/trace/StackProfile.h"
#include "llvm/Support/raw_ostream.h"

namespace stinkytofu::trace {

/// Writes \p Profile (finalized) as an SVG flame graph titled \p Title.
void writeFlameGraphSvg(const StackProfile &Profile, llvm::StringRef Title,
                        llvm::raw_ostream &OS);

} // namespace stinkytofu::trace

#endif
