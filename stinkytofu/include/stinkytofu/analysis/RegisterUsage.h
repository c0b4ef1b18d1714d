//===- RegisterUsage.h - The registers a function names ---------*- C++ -*-===//
//
// Code inserted into a function may use, without growing any register
// budget, the registers the function already has: s0 up to the highest SGPR
// its instructions name (a kernel's descriptor counts at least those), and
// likewise the VGPRs up to the highest it names.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_ANALYSIS_REGISTERUSAGE_H
#define STINKYTOFU_ANALYSIS_REGISTERUSAGE_H

#include "stinkytofu/ir/Function.h"

namespace stinkytofu {

/// One past the highest SGPR that an instruction of \p F reads or writes
/// (tuples counted whole), at most the target's addressable SGPRs; 0 when
/// it names none.
unsigned namedSGPRCount(const Function &F);

/// One past the highest VGPR (not AGPR) an instruction of \p F names; 0
/// when it names none.
unsigned namedVGPRCount(const Function &F);

} // namespace stinkytofu

#endif
