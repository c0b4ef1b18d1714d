//===- InsertedWaitProof.h - Waits of code that only gained instructions -*- C++ -*-===//
//
// A pipeline that only inserts code (SQTT markers with their branches and
// saves, wait states, long branches) leaves the input's wait findings as
// they were, and adds none, when three things hold of its output, each
// checked here rather than assumed of the passes:
//
//   1. every instruction the input had is there, unchanged (its edit stamp);
//   2. the original instructions follow one another as in the input: from
//      each, the code reaches through inserted instructions alone exactly
//      the original instructions (or the function's end) that followed it
//      in the input's CFG, and the entry reaches the input's first one;
//   3. each inserted instruction starts no memory event, is no call,
//      return, barrier, cache invalidation or LDS access, and needs no
//      wait in the input's state after the original instruction before it
//      in its block, or, in a run of inserted code that starts its block,
//      before each original instruction the run leads to
//      (WaitCountAnalysis::allQuiet).
//
// Then every path of the output is a path of the input with instructions
// put in between that only take work off the counters (their own waits),
// so the state before each original instruction is at most the input's
// there and it lacks at most the waits it lacked in the input. The state
// where an inserted instruction stands is at most the one after the
// original before it in its block (only that one reaches it), or, at the
// start of a block, at most the one before an original the code leads to
// (a join of every way there, one of which passes the inserted code), so
// it lacks none. (The analysis is monotone: less in flight never needs
// more waits.) The output's missing
// waits are then among the input's: a pipeline that inserts no memory waits
// is proven by the input's wait analysis and this check, without a second
// analysis of the (larger) output (docs/passes.md, "How pipelines end").
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_ANALYSIS_INSERTEDWAITPROOF_H
#define STINKYTOFU_ANALYSIS_INSERTEDWAITPROOF_H

#include "stinkytofu/analysis/AnalysisManager.h"
#include "stinkytofu/analysis/WaitCountAnalysis.h"
#include "stinkytofu/ir/Module.h"
#include <map>
#include <memory>

namespace stinkytofu {

/// The wait analyses of a module's functions as they were before a
/// pipeline (run with WaitCountOptions::KeepStates), with each function's
/// instructions, their edit stamps and what followed each on the CFG.
class InputWaitStates {
public:
  InputWaitStates();
  ~InputWaitStates();
  InputWaitStates(InputWaitStates &&);
  InputWaitStates &operator=(InputWaitStates &&);

  /// Forgets every kept function (a new input check starts).
  void clear();
  /// The counter model for \p T that kept analyses must be run with: it
  /// lives as long as they do.
  const CounterModel &counters(const TargetInfo &T);
  /// Keeps \p A, a run on \p F (its CFG valid) with KeepStates and
  /// counters(), and F's instructions as they are now.
  void keep(const Function &F, WaitCountAnalysis A);
  bool empty() const { return Functions.empty(); }

  /// Whether \p Output (every function's CFG valid) holds 1-3 of the file
  /// comment against the kept functions: then its missing waits are among
  /// those the kept runs found.
  bool provesInsertionsQuiet(const Module &Output) const;

private:
  struct FunctionStates;
  std::unique_ptr<CounterModel> CM;
  std::map<const Function *, std::unique_ptr<FunctionStates>> Functions;
};

/// The module's InputWaitStates, in the AnalysisManager's lasting results:
/// kept by the input check's WaitCntVerifier (`keepStates`) under the
/// manager it shares with the pipeline, read by the pipeline's end.
struct InputWaitStatesAnalysis {
  static AnalysisKey Key;
  using Result = InputWaitStates;
  Result run(Module &, AnalysisManager &);
};

} // namespace stinkytofu

#endif
