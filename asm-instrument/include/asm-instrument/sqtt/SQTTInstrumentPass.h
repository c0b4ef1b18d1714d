//===- SQTTInstrumentPass.h - SQTT markers in final assembly -----*- C++ -*-===//
//
// `--SQTTInstrumentPass[=args]`: inserts the SQTT markers of the reference
// pass (000_980c6751ccb7de58.txt) into final assembly and produces the
// `.sqtt_funcmap` text:
//
//   1. plan: the named markers written as pseudo-instructions
//      (UserMarkers.h), then function entry/exit (FunctionMarkers.h),
//      barriers (BarrierMarkers.h) and memory groups (MemoryMarkers.h);
//   2. assign IDs (MarkerIds.h): named markers and functions compacted by
//      emission count, then barriers, then memory; IDs used by numeric
//      markers already in the input are skipped;
//   3. compute liveness of every function on the unchanged program
//      (MarkerLiveness.h), then emit (MarkerEmitter.h) with scope checks
//      (ScopeCheck.h) and remove the pseudo-instructions;
//   4. funcmap rows (the funcmap model of funcmap/FuncMap.h): written to
//      `funcmap-out=FILE` and, with `funcmap-in-asm`, appended to the
//      assembly as `.section .sqtt_funcmap,"",@progbits` + `.asciz`;
//   5. `verify` runs the insertion verifier (transforms/InsertionVerifier.h),
//      `stats` prints what was inserted per kernel and function to the
//      context's statsStream().
//
// Settings: SQTTConfig.h (the driver's environment, overridden by
// arguments). Markers it cannot insert are warnings to the context.
//
//===----------------------------------------------------------------------===//
#ifndef ASM_INSTRUMENT_SQTT_SQTTINSTRUMENTPASS_H
#define ASM_INSTRUMENT_SQTT_SQTTINSTRUMENTPASS_H

#include "asm-instrument/funcmap/FuncMap.h"
#include "asm-instrument/sqtt/SQTTConfig.h"
#include "stinkytofu/pass/Pass.h"
#include "stinkytofu/pass/PassArguments.h"
#include "llvm/ADT/StringMap.h"
#include <memory>
#include <string>

namespace stinkytofu::sqtt {

class SQTTInstrumentPass final : public Pass {
public:
  explicit SQTTInstrumentPass(SQTTConfig Config) : Config(std::move(Config)) {}

  llvm::StringRef name() const override { return "SQTTInstrumentPass"; }
  llvm::Expected<PreservedAnalyses> run(Module &M, AnalysisManager &AM,
                                        const PassScope &Scope) override;

  const SQTTConfig &config() const { return Config; }
  /// The funcmap of the last run.
  const funcmap::FuncMap &funcMap() const { return Map; }

private:
  SQTTConfig Config;
  funcmap::FuncMap Map;
};

/// The factory the registry calls: \p Environment (the SQTT_* variables
/// the driver read, SQTTConfig::environmentVariables), then \p Args.
llvm::Expected<std::unique_ptr<Pass>>
createSQTTInstrumentPass(const llvm::StringMap<std::string> &Environment,
                         const PassArguments &Args);

/// The `.section .sqtt_funcmap` + `.asciz` block holding \p Text.
std::string funcmapAsmBlock(llvm::StringRef Text);

} // namespace stinkytofu::sqtt

#endif
