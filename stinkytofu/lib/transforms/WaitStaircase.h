//===- WaitStaircase.h - One wait or a run of partial ones ------*- C++ -*-===//
//
// The wait insertion puts the weakest wait right before each instruction
// that needs one, so several consumers of the same counter in a row get a
// "staircase" (`lgkmcnt(11)`, `(10)`, `(9)` ...) where an expert writes
// one wait before the first. Both are correct; the cycle estimate of the
// block chooses (docs/waitcnt.md, "One wait or a staircase").
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_LIB_TRANSFORMS_WAITSTAIRCASE_H
#define STINKYTOFU_LIB_TRANSFORMS_WAITSTAIRCASE_H

#include "stinkytofu/analysis/BlockCycleModel.h"
#include "stinkytofu/hw/WaitCounters.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"

namespace stinkytofu {

/// Puts one wait instruction for the given counts in front of an
/// instruction; the wait it made.
using WaitMaker =
    llvm::function_ref<llvm::Expected<Instruction *>(Instruction &Before, const WaitCounts &)>;

/// For each of \p Inserted (single-instruction waits of one block, in
/// order), folds later ones of \p Inserted into it while one stronger wait
/// there issues no later in \p Cycles's estimate of the block than the
/// run: a later wait W, with k operations started on a counter between the
/// two, is implied by the first waiting for W's count minus k (the counter
/// cannot grow faster), which must not be below 0. A block that branches
/// back to itself is estimated on its second trip; a tightened counter
/// must wait for an operation the estimate sees, and a vector memory
/// counter is tightened only across readers in a row (docs/waitcnt.md).
/// The waits not in \p Inserted (the input's) stay as they are.
llvm::Error foldWaitStaircases(llvm::ArrayRef<Instruction *> Inserted, const CounterModel &CM,
                               const BlockCycleModel &Cycles, WaitMaker Make);

} // namespace stinkytofu

#endif
