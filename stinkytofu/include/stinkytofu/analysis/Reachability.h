//===- Reachability.h - Blocks control can reach -----------------*- C++ -*-===//
#ifndef STINKYTOFU_ANALYSIS_REACHABILITY_H
#define STINKYTOFU_ANALYSIS_REACHABILITY_H

#include "stinkytofu/ir/Function.h"
#include <vector>

namespace stinkytofu {

/// Blocks not reachable from the function's first block over CFG edges, in
/// layout order. Reported, never deleted.
std::vector<const BasicBlock *> unreachableBlocks(const Function &F);

} // namespace stinkytofu

#endif
