//===- TargetUnitSets.h - Register-unit sets kept per target ----*- C++ -*-===//
//
// Internal to the analyses: sets of register units that depend only on the
// target (read from all of MC's opcodes or registers), computed on first use
// and kept for the process, so each analysis of a run does not pay for them.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_LIB_ANALYSIS_TARGETUNITSETS_H
#define STINKYTOFU_LIB_ANALYSIS_TARGETUNITSETS_H

#include "stinkytofu/analysis/RegisterUnits.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

namespace stinkytofu {

/// The set named \p Set of \p RU's target: \p Fill computes it (from
/// RU.none()) the first time, under a lock, so threads share one copy.
const llvm::BitVector &unitsOncePerTarget(const RegisterUnits &RU, llvm::StringRef Set,
                                          llvm::function_ref<void(llvm::BitVector &)> Fill);

} // namespace stinkytofu

#endif
