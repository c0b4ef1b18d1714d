//===- CallGraph.h - Which functions a call runs ------------------*- C++ -*-===//
//
// Calls name their callees through CallTargetData; these resolve the names
// to functions of the module and follow calls transitively. An analysis
// that reads callee bodies (liveness through call effects) records the
// functions it read with the analysis manager, so that editing a callee
// invalidates its callers' results.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_ANALYSIS_CALLGRAPH_H
#define STINKYTOFU_ANALYSIS_CALLGRAPH_H

#include "stinkytofu/ir/Module.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringRef.h"

namespace stinkytofu {

/// The function a CallTargetData name designates: a function of that name,
/// else one whose first block carries that label (`.set` aliases are
/// followed); null when the module has none.
const Function *findCallee(const Module &M, llvm::StringRef Name);

/// Every function of the module that a call in \p F may run, directly or
/// through further calls, in the order first met (\p F itself only when
/// recursion leads back to it).
llvm::SetVector<const Function *> transitiveCallees(const Module &M, const Function &F);

} // namespace stinkytofu

#endif
