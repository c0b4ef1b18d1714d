//===- PressurePlot.h - Live registers along a kernel, as SVG ----*- C++ -*-===//
//
// `--print-pressure --pressure-format=svg`: one panel per kernel, the live
// VGPRs (AGPRs included) as an area and the live SGPRs as a line along the
// instructions in layout order, its loops shaded, the VGPRs allocated and
// the most that allow one more wave drawn across. Opened in a browser;
// each element's <title> is its tooltip.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_TRANSFORMS_PRESSUREPLOT_H
#define STINKYTOFU_TRANSFORMS_PRESSUREPLOT_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/raw_ostream.h"
#include <optional>
#include <string>
#include <vector>

namespace stinkytofu {

struct PressurePlot {
  std::string Title;
  /// Per instruction, in layout order.
  std::vector<unsigned> VectorLive, ScalarLive;
  /// A loop: its instructions are [First, Last] of the layout order.
  struct Span {
    std::string Name, Note;
    unsigned First = 0, Last = 0;
  };
  std::vector<Span> Loops;
  unsigned AllocatedVGPRs = 0;
  /// The most VGPRs that allow one more wave, when VGPRs limit.
  std::optional<unsigned> NextWaveVGPRs;
};

void writePressureSvg(llvm::raw_ostream &OS, llvm::ArrayRef<PressurePlot> Plots);

} // namespace stinkytofu

#endif
