//===- LdsRingPhases.h - Whether a function's LDS ring annotations hold -*- C++ -*-===//
//
// `mod.lds_ring` states which slot of a rotating LDS buffer (a ring) each
// access uses, relative to a frame that advances on the loop's latch. The
// wait analysis then tells ring slots apart (lib/analysis/LdsRingState.h):
// a barrier that publishes one slot waits only for the fills of that slot.
// It trusts the annotations only where they agree with the instructions;
// this check names the first one that does not.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_ANALYSIS_LDSRINGPHASES_H
#define STINKYTOFU_ANALYSIS_LDSRINGPHASES_H

#include <optional>
#include <string>

namespace stinkytofu {

class CounterModel;
class Function;
class Instruction;

/// An annotation that contradicts its instruction or another annotation.
struct LdsRingContradiction {
  const Instruction *At = nullptr;
  std::string Message;
};

/// Whether any instruction of \p F states ring slots or frame advances.
bool statesLdsRings(const Function &F);

/// The first contradiction of \p F's `mod.lds_ring` annotations: a read
/// (write) on an instruction that reads (writes) no LDS, a publish or
/// protect on anything but a barrier, one ring named with two sizes, or a
/// class, frame or size out of the range the analysis keys.
std::optional<LdsRingContradiction> findLdsRingContradiction(const Function &F,
                                                             const CounterModel &CM);

} // namespace stinkytofu

#endif
