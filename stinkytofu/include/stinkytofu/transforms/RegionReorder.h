//===- RegionReorder.h - Putting a scheduling region into a new order -*- C++ -*-===//
//
// What every pass that reorders a region does last: check the new order
// with the schedule validator (independent of the DAG that produced it) and
// only then move the instructions, comments with them. A refused order is
// an error and nothing moves.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_TRANSFORMS_REGIONREORDER_H
#define STINKYTOFU_TRANSFORMS_REGIONREORDER_H

#include "stinkytofu/analysis/DependenceDAG.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include <random>

namespace stinkytofu {

/// Moves the instructions of \p Region into \p Order (indices into
/// Region.Insts) after the validator accepted it; whether anything moved.
llvm::Expected<bool> reorderRegion(const ScheduleRegion &Region, llvm::ArrayRef<unsigned> Order,
                                   const EffectModel &EM);
/// The same for the region of \p DAG, whose effects the validator reads
/// (its instructions unchanged since the DAG was built: only moved).
llvm::Expected<bool> reorderRegion(const ScheduleRegion &Region, llvm::ArrayRef<unsigned> Order,
                                   const DependenceDAG &DAG, const RegisterUnits &RU);

/// A uniformly drawn ready node at each step: a random order \p DAG allows.
std::vector<unsigned> randomTopologicalOrder(const DependenceDAG &DAG, std::mt19937_64 &Rng);

} // namespace stinkytofu

#endif
