//===- PassManager.h - Running a pipeline of passes -------------*- C++ -*-===//
#ifndef STINKYTOFU_PASS_PASSMANAGER_H
#define STINKYTOFU_PASS_PASSMANAGER_H

#include "stinkytofu/pass/Pass.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/raw_ostream.h"
#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace stinkytofu {

struct PassManagerOptions {
  /// Runs the IR verifier after every pass.
  bool VerifyEach = false;
  /// Reports per-pass wall time to TimingStream.
  bool TimePasses = false;
  /// Prints the module after every pass to the context's dumpStream(), with
  /// the printer the tool gives (PassManager::setPrinter; `.stir` in
  /// stinkytofu-opt).
  bool PrintAfterAll = false;
  llvm::raw_ostream *TimingStream = nullptr;
};

/// Checks the IR's structural invariants: labels unique, every branch target
/// exists, CFG edges consistent with terminators (when a CFG was built).
using Verifier = std::function<llvm::Error(const Module &)>;

/// Writes the module for --print-after-all (a layer above gives it: the
/// `.stir` writer).
using ModulePrinter = std::function<void(const Module &, llvm::raw_ostream &)>;

class PassManager {
public:
  /// The passes report through \p Ctx (Pass::context()).
  explicit PassManager(StinkyTofuContext &Ctx, PassManagerOptions Opts = {})
      : Ctx(Ctx), Opts(Opts) {}
  void add(std::unique_ptr<Pass> P) {
    P->setArtifactSink(&Artifacts);
    P->setContext(Ctx);
    Passes.push_back(std::move(P));
  }
  void setVerifier(Verifier V) { Verify = std::move(V); }
  void setPrinter(ModulePrinter P) { Print = std::move(P); }
  size_t size() const { return Passes.size(); }
  /// The passes in pipeline order.
  llvm::ArrayRef<std::unique_ptr<Pass>> passes() const { return Passes; }
  /// What the passes produced besides the module (files, object sections).
  const PassArtifacts &artifacts() const { return Artifacts; }

  llvm::Error run(Module &M, AnalysisManager &AM, const PassScope &Scope = {});
  /// The index in passes() of the pass whose error ended the last run, if
  /// a pass's error did.
  std::optional<size_t> failedPass() const { return Failed; }

private:
  StinkyTofuContext &Ctx;
  PassManagerOptions Opts;
  std::vector<std::unique_ptr<Pass>> Passes;
  Verifier Verify;
  ModulePrinter Print;
  PassArtifacts Artifacts;
  std::optional<size_t> Failed;
};

} // namespace stinkytofu

#endif
