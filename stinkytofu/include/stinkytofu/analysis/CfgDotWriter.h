//===- CfgDotWriter.h - The CFG as Graphviz ---------------------*- C++ -*-===//
//
// One `digraph` per module with one cluster per function (entry first), so
// `dot -Tsvg` draws a single picture. Blocks are named by label (or bbN);
// edges are labelled and styled by kind:
//   branch        solid, black
//   fall-through  dashed, gray
//   long-branch   bold, blue
// Blocks unreachable from their function's first block are filled gray.
// The edges are the ones in the IR: build the CFG first (buildCFG).
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_ANALYSIS_CFGDOTWRITER_H
#define STINKYTOFU_ANALYSIS_CFGDOTWRITER_H

#include "stinkytofu/ir/Module.h"
#include "llvm/Support/raw_ostream.h"

namespace stinkytofu {

/// "branch", "fall-through" or "long-branch".
llvm::StringRef edgeKindName(EdgeKind K);

/// Writes every function's CFG as one Graphviz digraph.
void writeCfgDot(const Module &M, llvm::raw_ostream &OS);

} // namespace stinkytofu

#endif
