//===- ValuTransUseHazard.h - gfx1100's VALUTransUse depctr rule -*- C++ -*-===//
//
// Internal to DepCtrHazards.cpp: a VALU reading a VGPR a TRANS instruction
// wrote no more than 5 VALUs (and 1 other TRANS) earlier needs
// depctr_va_vdst(0) (LLVM's GCNHazardRecognizer::fixVALUTransUseHazard,
// gfx1100-gfx1103). The search walks back over predecessors as LLVM's does.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_LIB_ANALYSIS_VALUTRANSUSEHAZARD_H
#define STINKYTOFU_LIB_ANALYSIS_VALUTRANSUSEHAZARD_H

#include "stinkytofu/analysis/DepCtrHazards.h"

namespace stinkytofu {

/// Appends to \p Needs the instructions of \p F that need va_vdst(0) for
/// the rule, in block and instruction order.
void findValuTransUseNeeds(const Function &F, const TargetInfo &TI,
                           std::vector<DepCtrWaitNeed> &Needs);

} // namespace stinkytofu

#endif
