//===- WmmaReorderPass.h - A new WMMA order for an unrolled loop -*- C++ -*-===//
//
// `StinkyWmmaReorderPass[=reverse|order=I:J:...,distance=N,loop=LABEL]` (the
// reference's name and arguments): puts the WMMAs of the loop body that
// starts at LABEL (default `label_LoopBeginL`, Tensile's unrolled loop) into
// a new order and re-places the LDS loads that feed them. `reverse` reverses
// the WMMAs; `order=` gives the body position of the WMMA that issues first,
// second, ... The reference's default mode orders by its VGPR-pressure
// analysis of Tensile's register pools, which this tool does not have:
// without a mode the pass leaves every loop alone and says so on the
// statistics stream.
//
// A load feeds a WMMA when the WMMA reads a register it writes (a Data edge
// of the dependence DAG) and it reads LDS. It is placed `distance` WMMAs
// ahead of its first reader in the new order (before the first WMMA at
// most); without distance=, the loads' latency over the WMMAs' issue rate
// (BlockCycleModel). Every other instruction keeps its place among the WMMA
// slots. The order is then the list schedule of the region's dependence DAG
// by those slots, so no dependence is broken, and the schedule validator
// proves it before anything moves.
//
// The reference also moves loads across the back edge: it rewrites a load's
// LDS offset by a per-iteration stride it reads off preheader/body pairs and
// adds or deletes preheader loads. That changes which bytes the body reads
// unless the kernel's LDS addresses advance by exactly that stride each
// iteration, which the code does not show (its own test's address register
// never changes), so this pass permutes the body in place only.
//
// Targets with WMMA (gfx11, gfx12, gfx1250); an error naming the pass
// elsewhere. Run it before wait insertion and the hazard passes.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_TRANSFORMS_WMMAREORDERPASS_H
#define STINKYTOFU_TRANSFORMS_WMMAREORDERPASS_H

#include "stinkytofu/pass/PassArguments.h"

namespace stinkytofu {

llvm::Expected<std::unique_ptr<Pass>> createStinkyWmmaReorderPass(const PassArguments &Args);

} // namespace stinkytofu

#endif
