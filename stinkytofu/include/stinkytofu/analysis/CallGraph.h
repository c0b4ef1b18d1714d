//===- CallGraph.h - Which functions a call runs ------------------*- C++ -*-===//
//
// Calls name their callees through CallTargetData; the call graph resolves
// the names to functions of the module and follows calls transitively. It
// is a module-level analysis (CallGraphAnalysis): computed once per module
// and dropped when any function changes. An analysis that reads callee
// bodies (liveness through call effects) records the functions it read with
// the analysis manager, so that editing a callee invalidates its callers'
// results.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_ANALYSIS_CALLGRAPH_H
#define STINKYTOFU_ANALYSIS_CALLGRAPH_H

#include "stinkytofu/analysis/AnalysisManager.h"
#include "stinkytofu/ir/Module.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

namespace stinkytofu {

/// The function a CallTargetData name designates: a function of that name,
/// else one whose first block carries that label (`.set` aliases are
/// followed); null when the module has none.
const Function *findCallee(const Module &M, llvm::StringRef Name);

class CallGraph {
public:
  explicit CallGraph(const Module &M);
  /// The functions a call in \p F may run directly, in the order first met.
  llvm::ArrayRef<const Function *> callees(const Function &F) const;
  /// Every function that a call in \p F may run, directly or through
  /// further calls, in the order first met (\p F itself only when recursion
  /// leads back to it).
  llvm::SetVector<const Function *> transitiveCallees(const Function &F) const;

private:
  llvm::DenseMap<const Function *, llvm::SmallVector<const Function *, 2>> Direct;
};

struct CallGraphAnalysis {
  static AnalysisKey Key;
  using Result = CallGraph;
  Result run(Module &M, AnalysisManager &AM);
};

} // namespace stinkytofu

#endif
