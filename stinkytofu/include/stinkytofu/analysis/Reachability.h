//===- Reachability.h - Blocks control can reach -----------------*- C++ -*-===//
#ifndef STINKYTOFU_ANALYSIS_REACHABILITY_H
#define STINKYTOFU_ANALYSIS_REACHABILITY_H

#include "stinkytofu/ir/Function.h"
#include <vector>

namespace stinkytofu {

/// Blocks holding code that control cannot reach from the function's first
/// block over CFG edges, in layout order. Reported, never deleted. An empty
/// block (a label with no instruction before the next label) holds no code:
/// it is reported only when the block after it is.
std::vector<const BasicBlock *> unreachableBlocks(const Function &F);

} // namespace stinkytofu

#endif
