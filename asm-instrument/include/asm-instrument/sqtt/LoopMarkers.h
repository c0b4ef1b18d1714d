//===- LoopMarkers.h - A user scope per natural loop -------------*- C++ -*-===//
//
// SQTT_INSTRUMENT_LOOPS / `loops=`: each natural loop (analysis/LoopInfo.h)
// becomes a `U:` scope `loop_<header label>`, one scope per iteration:
//
//   enter     (id << 2) | 2   on every edge into the header from outside
//   next      (id << 2) | 3   on every back edge: closes the iteration that
//                             ends and opens the next (exit_prev | enter)
//   exit      0x1             on every edge out of the loop, and before a
//                             program end or return inside it
//
// A decoder sees enter, one transition per further iteration, exit: N
// scopes for N iterations. The transition sits on the back edge rather than
// at the header's top, which the first entry also passes: there it would
// count the entry twice (an empty first iteration).
//
// An edge's marker goes where only that edge runs it: at the start of the
// target when every predecessor of the target takes such an edge, else at
// the end of the source when the edge is the source's only one, else
// before the source's conditional branch, skipped unless the branch goes
// the edge's way (MarkerSite::SkipBranch: the split edge is an inserted
// block). Nested loops' markers at one point nest: inner exits first,
// outer enters first. A point never falls inside a PC-relative idiom
// (`s_getpc_b64` up to the last instruction reading its pair, a long
// branch included): it moves before the `s_getpc_b64`.
//
//===----------------------------------------------------------------------===//
#ifndef ASM_INSTRUMENT_SQTT_LOOPMARKERS_H
#define ASM_INSTRUMENT_SQTT_LOOPMARKERS_H

#include "asm-instrument/sqtt/MarkerIds.h"
#include "asm-instrument/sqtt/MarkerSites.h"
#include "asm-instrument/sqtt/SQTTConfig.h"
#include "stinkytofu/analysis/LoopInfo.h"
#include <string>
#include <vector>

namespace stinkytofu {
class StinkyTofuContext;
}

namespace stinkytofu::sqtt {

/// The funcmap name of the loop headed by \p Header: `loop_<label>`, with
/// every byte a funcmap name cannot hold ('@', non-printable) as '_'.
std::string loopScopeName(const BasicBlock &Header);

/// The loops of one function, on its CFG as read.
struct FunctionLoops {
  explicit FunctionLoops(Function &F) : DT(F), LI(F, DT) {}
  DominatorTree DT;
  LoopInfo LI;
};

/// The loop sites of \p F, adding their scope names to \p Ids. A loop whose
/// header starts the function (entered from nowhere outside it) or one of
/// whose edges leaves a block without an invertible conditional branch gets
/// none: a warning at its header's label says why.
std::vector<MarkerSite> loopSites(Function &F, const LoopInfo &LI, LoopMode Mode,
                                  MarkerIdAllocator &Ids, StinkyTofuContext &Context);

} // namespace stinkytofu::sqtt

#endif
