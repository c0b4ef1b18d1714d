//===- StinkyTofuContext.h - What a reader and a pipeline share --*- C++ -*-===//
//
// The state that used to be process-wide, owned by one object a driver
// creates (as LLVM's LLVMContext): the pass registry, the pseudo-instruction
// registry the registered passes filled, the handler that receives warnings,
// and the streams statistics and printouts go to. Two contexts share nothing, so a library
// caller can run two differently configured pipelines in one process and
// capture every diagnostic instead of finding it on stderr.
//
// The reader takes it through ReaderOptions::Context, a pass through
// Pass::context() (the pass manager hands it over). It must outlive the
// modules read and the passes created with it.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_IR_STINKYTOFUCONTEXT_H
#define STINKYTOFU_IR_STINKYTOFUCONTEXT_H

#include "stinkytofu/ir/PseudoInstructions.h"
#include "stinkytofu/support/Diagnostics.h"
#include "llvm/Support/raw_ostream.h"
#include <memory>

namespace stinkytofu {

class PassRegistry;

class StinkyTofuContext {
public:
  StinkyTofuContext();
  ~StinkyTofuContext();
  StinkyTofuContext(const StinkyTofuContext &) = delete;
  StinkyTofuContext &operator=(const StinkyTofuContext &) = delete;

  // --- Diagnostics ---------------------------------------------------------
  /// Replaces the handler; null restores the default (printDiagnostic:
  /// `file:line:col: warning: ...` on stderr).
  void setDiagnosticHandler(DiagnosticHandler H);
  /// Hands \p D to the handler.
  void diagnose(const SourceDiagnostic &D) { Handler(D); }

  // --- Reports ---------------------------------------------------------------
  // stderr unless a driver sets a stream that outlives the run.
  /// Where passes print statistics (`stats` arguments, --stats).
  llvm::raw_ostream &statsStream() const { return *Stats; }
  void setStatsStream(llvm::raw_ostream &OS) { Stats = &OS; }
  /// Where printing passes (PrintLiveness) and --print-after-all write.
  llvm::raw_ostream &dumpStream() const { return *Dump; }
  void setDumpStream(llvm::raw_ostream &OS) { Dump = &OS; }

  // --- Registries ------------------------------------------------------------
  PseudoInstructionRegistry &pseudoInstructions() { return Pseudos; }
  const PseudoInstructionRegistry &pseudoInstructions() const { return Pseudos; }

  /// The pass registry, null until passes/PassRegistry.h's passRegistry()
  /// makes it. Its type lives in a layer above this one, so the context
  /// holds it through a shared_ptr, whose deleter is bound where it is made;
  /// nothing else keeps a reference.
  PassRegistry *passRegistry() const { return Passes.get(); }
  void setPassRegistry(std::shared_ptr<PassRegistry> R) { Passes = std::move(R); }

private:
  DiagnosticHandler Handler;
  llvm::raw_ostream *Stats;
  llvm::raw_ostream *Dump;
  PseudoInstructionRegistry Pseudos;
  std::shared_ptr<PassRegistry> Passes;
};

} // namespace stinkytofu

#endif
