//===- DAGSchedulerPass.h - List scheduling of each region -------*- C++ -*-===//
//
// `StinkyDAGSchedulerPass`: a first list scheduler over the dependence DAG
// of every scheduling region (analysis/DependenceDAG.h). It simulates one
// wave's in-order issue with the target's timing (BlockCycleModel: issue
// cycles, latencies, matrix pipe occupancy from MC's scheduling model and
// the hardware model): at each step, among the instructions whose
// predecessors are issued, the one that can issue soonest, the longest
// latency path to the region's end (heightOf) first on a tie, then the
// input order. Memory results come back in issue order per address space
// (as the counters the waits use count them). A region keeps its input
// order unless that simulation of the region and the block's cycle
// estimate (BlockCycleModel::estimate, plus the hazard wait states the
// region needs, HazardAnalysis) both get better; a new order goes
// through reorderRegion, so the schedule validator proves it first.
//
// Waits and nops are fences while they are there: run it between the wait
// and hazard removal and insertion passes to schedule across them
// (docs/scheduler.md). Not part of -O2/-O3 yet.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_TRANSFORMS_DAGSCHEDULERPASS_H
#define STINKYTOFU_TRANSFORMS_DAGSCHEDULERPASS_H

#include "stinkytofu/analysis/DependenceDAG.h"
#include "stinkytofu/pass/PassArguments.h"
#include <vector>

namespace stinkytofu {

class BlockCycleModel;

/// The list schedule of \p DAG on \p Timing's machine: node indices in
/// issue order.
std::vector<unsigned> listSchedule(const DependenceDAG &DAG, const BlockCycleModel &Timing);
/// The cycles \p Order of \p DAG's nodes takes in the same simulation,
/// until its last result is there.
uint64_t simulatedCycles(const DependenceDAG &DAG, llvm::ArrayRef<unsigned> Order,
                         const BlockCycleModel &Timing);

llvm::Expected<std::unique_ptr<Pass>> createStinkyDAGSchedulerPass(const PassArguments &Args);

} // namespace stinkytofu

#endif
