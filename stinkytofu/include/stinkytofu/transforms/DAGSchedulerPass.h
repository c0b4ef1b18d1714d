//===- DAGSchedulerPass.h - List scheduling of each region -------*- C++ -*-===//
//
// `StinkyDAGSchedulerPass`: list scheduling over the dependence DAG of
// every scheduling region (analysis/DependenceDAG.h), on the machine the
// block estimate simulates (BlockCycleModel's IssueState: issue cycles,
// latencies and matrix pipe occupancy from MC's scheduling model and the
// hardware model, memory waits draining their counters), starting from
// the state the block's earlier regions leave. At each step, among the
// instructions whose predecessors are issued, the one that can issue
// soonest, then the longest latency path to the region's end (a memory
// access counting its latency into the fence after it), then the input
// order. A region's new order is a candidate when the block issues
// faster with it; a block keeps its candidates only when its cycle estimate with
// the waits, ALU delays and hazard wait states the passes after will put
// in gets better (the guard, docs/scheduler.md). A new order goes through
// reorderRegion, so the schedule validator proves it first.
//
// Waits and nops are fences while they are there: run it between the wait
// and hazard removal and insertion passes to schedule across them
// (docs/scheduler.md).
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_TRANSFORMS_DAGSCHEDULERPASS_H
#define STINKYTOFU_TRANSFORMS_DAGSCHEDULERPASS_H

#include "stinkytofu/analysis/BlockCycleModel.h"
#include "stinkytofu/analysis/DependenceDAG.h"
#include "stinkytofu/pass/PassArguments.h"
#include <vector>

namespace stinkytofu {

/// The list schedule of \p DAG on \p Timing's machine, issued after
/// \p State (which it issues): node indices in issue order.
std::vector<unsigned> listSchedule(const DependenceDAG &DAG, IssueState &State,
                                   const BlockCycleModel &Timing);
/// The same from nothing in flight.
std::vector<unsigned> listSchedule(const DependenceDAG &DAG, const BlockCycleModel &Timing);

llvm::Expected<std::unique_ptr<Pass>> createStinkyDAGSchedulerPass(const PassArguments &Args);

} // namespace stinkytofu

#endif
