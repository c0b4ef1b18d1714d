//===- ScrambleSchedulePass.h - Random legal reordering, for tests -*- C++ -*-===//
//
// `ScrambleSchedulePass=seed=N`: reorders every scheduling region
// (analysis/DependenceDAG.h) into a random order the dependence DAG allows
// (seeded: the same seed gives the same output), and refuses to write one
// the schedule validator (analysis/ScheduleValidator.h) rejects. It is the
// oracle's input: a scheduler must recover what a scramble loses, and the
// validator must accept every scramble.
//
// `mutations=N` measures the validator instead: in each region with a
// dependence, up to N times, it swaps the two ends of a random DAG edge in
// the input order and counts how often the validator refuses the result
// (`--stats`); the code is left as it is.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_TRANSFORMS_SCRAMBLESCHEDULEPASS_H
#define STINKYTOFU_TRANSFORMS_SCRAMBLESCHEDULEPASS_H

#include "stinkytofu/pass/PassArguments.h"

namespace stinkytofu {

llvm::Expected<std::unique_ptr<Pass>> createScrambleSchedulePass(const PassArguments &Args);

} // namespace stinkytofu

#endif
