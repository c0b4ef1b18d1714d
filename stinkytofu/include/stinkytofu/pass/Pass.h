//===- Pass.h - Module and function passes ----------------------*- C++ -*-===//
#ifndef STINKYTOFU_PASS_PASS_H
#define STINKYTOFU_PASS_PASS_H

#include "stinkytofu/ir/Module.h"
#include "stinkytofu/ir/StinkyTofuContext.h"
#include "stinkytofu/analysis/AnalysisManager.h"
#include "stinkytofu/pass/PassArtifacts.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <cassert>
#include <memory>
#include <string>
#include <vector>

namespace stinkytofu {

/// Where a pass may act: the whole module, or the region between two
/// labels (`--from-label` / `--to-label`, inclusive; resolveLabelScope). A
/// scope is kept as its labels, never as instructions: each pass finds the
/// region anew, so an instruction an earlier pass erased or inserted cannot
/// leave the next one a dangling or wrong bound.
struct PassScope {
  PassScope() = default;
  PassScope(std::string FromLabel, std::string ToLabel)
      : FromLabel(std::move(FromLabel)), ToLabel(std::move(ToLabel)) {}

  /// The region starts at the block with this label (through `.set`
  /// aliases); empty: at the module's start.
  std::string FromLabel;
  /// The region ends with the block with this label, including the
  /// unlabelled blocks after it in its function; empty: at the module's end.
  std::string ToLabel;
  bool isWholeModule() const { return FromLabel.empty() && ToLabel.empty(); }
  /// The instructions inside, found by one walk on the first inScope query
  /// of a pass run (the pass manager drops it between passes, whose edits
  /// add and remove instructions); not for passes to touch.
  mutable std::shared_ptr<const llvm::DenseSet<const Instruction *>> Inside;
};

class Pass {
public:
  virtual ~Pass();
  /// The registered name (`LongBranchLoweringPass`).
  virtual llvm::StringRef name() const = 0;
  /// Runs over the module; an Error stops the pipeline (file:line:col when
  /// the pass can point at an instruction).
  virtual llvm::Expected<PreservedAnalyses> run(Module &M, AnalysisManager &AM,
                                                const PassScope &Scope) = 0;

  /// Where the pass reports what it produces besides the module: the pass
  /// manager's collection, or the pass's own when it runs alone.
  PassArtifacts &artifacts() { return Sink ? *Sink : Own; }
  void setArtifactSink(PassArtifacts *To) { Sink = To; }

  /// Where the pass reports warnings (context().diagnose) and prints
  /// statistics (context().statsStream()): the pass manager's context. A
  /// pass run alone must be given one first.
  StinkyTofuContext &context() const {
    assert(Context && "a pass reports through a context: add it to a PassManager "
                      "or call setContext");
    return *Context;
  }
  void setContext(StinkyTofuContext &C) { Context = &C; }

protected:
  /// For a pass whose proof needs every function: false, with a line on the
  /// statistics stream saying it did not run, when \p Scope is a region.
  bool coversWholeModule(const PassScope &Scope) const;

private:
  StinkyTofuContext *Context = nullptr;
  PassArtifacts *Sink = nullptr;
  PassArtifacts Own;
};

/// A pass that works one function at a time.
class FunctionPass : public Pass {
public:
  llvm::Expected<PreservedAnalyses> run(Module &M, AnalysisManager &AM,
                                        const PassScope &Scope) final;
  virtual llvm::Expected<PreservedAnalyses> runOnFunction(Function &F, AnalysisManager &AM,
                                                          const PassScope &Scope) = 0;
};

/// True when \p I lies in \p Scope (the scope's bounds included). Constant
/// time after the first query of a pass run.
bool inScope(const Module &M, const PassScope &Scope, const Instruction &I);
/// The instructions in \p Scope, in module order.
std::vector<const Instruction *> scopeInstructions(const Module &M, const PassScope &Scope);

} // namespace stinkytofu

#endif
