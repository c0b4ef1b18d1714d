//===- ModuleStats.h - Per-function control-flow counts ---------*- C++ -*-===//
//
// What `stinkytofu-opt --stats` prints, computed from the IR as it is (the
// block and edge counts need a built CFG: see buildCFG).
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_ANALYSIS_MODULESTATS_H
#define STINKYTOFU_ANALYSIS_MODULESTATS_H

#include "stinkytofu/ir/Module.h"
#include "llvm/Support/raw_ostream.h"
#include <string>
#include <vector>

namespace stinkytofu {

struct FunctionStats {
  std::string Function;
  unsigned Blocks = 0;
  /// CFG edges (successor entries), every kind.
  unsigned Edges = 0;
  /// Branches with a computed target (IF_ComputedTarget: s_setpc_b64,
  /// s_add_pc_i64) that are not returns (isReturn): the long-branch idioms.
  unsigned LongBranches = 0;
  /// Those of them that carry LabelData.
  unsigned LongBranchesResolved = 0;
  /// Calls (isCall: s_swappc_b64 ...).
  unsigned Calls = 0;
  /// Calls with at least one known callee (CallTargetData).
  unsigned CallsWithKnownTargets = 0;
  /// Blocks not reachable from the first block over CFG edges.
  unsigned UnreachableBlocks = 0;

  FunctionStats &operator+=(const FunctionStats &O);
};

struct ModuleStats {
  /// One entry per function, in print order (entry first).
  std::vector<FunctionStats> Functions;
  /// The sum over all functions, named "<total>".
  FunctionStats total() const;
};

FunctionStats computeFunctionStats(const Function &F);
ModuleStats computeModuleStats(const Module &M);

/// A table: a header line, one row per function, then a `<total>` row.
void printModuleStats(const ModuleStats &S, llvm::raw_ostream &OS);

} // namespace stinkytofu

#endif
