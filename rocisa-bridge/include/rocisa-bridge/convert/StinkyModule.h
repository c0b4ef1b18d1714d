//===- StinkyModule.h - A converted kernel and what it can do ------*- C++ -*-===//
//
// What toStinkyTofuModule returns: a StinkyTofu module with its own context
// (pass registry with the core and instrumentation passes, diagnostics),
// ready to run any stinkytofu-opt pipeline and to be written as assembly,
// `.stir` or an ELF object.
//
//===----------------------------------------------------------------------===//
#ifndef ROCISA_BRIDGE_CONVERT_STINKYMODULE_H
#define ROCISA_BRIDGE_CONVERT_STINKYMODULE_H

#include "stinkytofu/asm/AsmReader.h"
#include "stinkytofu/ir/Module.h"
#include "stinkytofu/ir/StinkyTofuContext.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace rocisa {

class StinkyModule {
public:
  /// A context with the core and instrumentation passes registered, for a
  /// module still to be made (readAsm takes it through ReaderOptions).
  StinkyModule();
  ~StinkyModule();
  StinkyModule(const StinkyModule &) = delete;
  StinkyModule &operator=(const StinkyModule &) = delete;

  stinkytofu::StinkyTofuContext &context() { return *Ctx; }
  stinkytofu::Module &module() { return *M; }
  const stinkytofu::Module &module() const { return *M; }
  void setModule(std::unique_ptr<stinkytofu::Module> NewM) { M = std::move(NewM); }

  /// Runs \p Pipeline (stinkytofu-opt's `--passes` syntax:
  /// `LongBranchLoweringPass,SQTTInstrumentPass(functions=10,verify)`),
  /// verifying the module after each pass.
  llvm::Error runPasses(llvm::StringRef Pipeline);
  /// What TensileLite's module options set for runOptimizationPipeline
  /// (docs/rocisa-bridge.md, "TensileLite's call"): each field is a pass
  /// of the -O pipeline the reference's option turns on, off or tunes, run
  /// where the reference's gfx1250 backend runs it.
  struct PipelineOptions {
    unsigned OptLevel = 2;
    /// Off: the kernel's own waits stay as written.
    bool WaitCntInsertion = true;
    /// SwInstructionPrefetchRelDynamicPass: unset keeps the -O default (on
    /// gfx1250 only); set, it runs on any target (an error where the target
    /// has no s_prefetch_inst_pc_rel) or not at all.
    std::optional<bool> SwInstructionPrefetch;
    /// InsertClusterBarrierPass's arguments (`lead=100,pgr=2`) when
    /// ClusterBarrier asks for it; unset: not run.
    std::optional<std::string> ClusterBarrierArgs;
    /// RemoveInstructionPass's mnemonics; empty: not run.
    std::string RemoveInstructions;
    /// WaitAwareScheduleRepairPass's kSlotsToMovePastAnchor at -O2 and up;
    /// 0: not run.
    unsigned WaitRepairSlots = 0;
    /// TDMInflightGuardPass's limit; unset: the pass's default.
    std::optional<unsigned> TDMInflightLimit;
  };
  void setPipelineOptions(PipelineOptions O) { Options = std::move(O); }
  const PipelineOptions &pipelineOptions() const { return Options; }
  /// The module options the caller gave that tune a heuristic of the
  /// reference's scheduler StinkyTofu has no counterpart for: accepted,
  /// applied nowhere, and listed here so that nothing is ignored silently.
  void setOptionsWithoutCounterpart(std::vector<std::string> Names) {
    WithoutCounterpart = std::move(Names);
  }
  const std::vector<std::string> &optionsWithoutCounterpart() const { return WithoutCounterpart; }
  /// The -O<Level> pipeline these options make (a pass spec per entry).
  llvm::Expected<std::vector<std::string>> optimizationPipeline(unsigned Level) const;
  /// Runs the `-O<Level>` pipeline (docs/passes.md); without \p Level, the
  /// options' level.
  llvm::Error runOptimizationPipeline(std::optional<unsigned> Level = std::nullopt);

  llvm::Expected<std::string> emitAssembly() const;
  std::string emitStir() const;
  /// The ELF object LLVM MC assembles from the module.
  llvm::Expected<std::string> emitObject() const;

  std::string getName() const { return M->name().str(); }
  /// Entry first, then callables in source order.
  std::vector<std::string> getFunctionNames() const;
  bool hasFunction(llvm::StringRef Name) const;

private:
  llvm::Error run(const std::vector<std::string> &Specs);

  std::unique_ptr<stinkytofu::StinkyTofuContext> Ctx;
  std::unique_ptr<stinkytofu::Module> M;
  PipelineOptions Options;
  std::vector<std::string> WithoutCounterpart;
};

/// The text path: reads assembly \p Text for \p Arch into a StinkyModule
/// (nothing is recovered; run LongBranchLoweringPass and
/// CallTargetRecoveryPass for the metadata the text lost). \p MapPosition,
/// if given, says where a line of \p Text came from, for diagnostics.
llvm::Expected<std::unique_ptr<StinkyModule>>
readStinkyModule(llvm::StringRef Text, llvm::StringRef Arch, llvm::StringRef Name,
                 decltype(stinkytofu::ReaderOptions::MapPosition) MapPosition = {});

} // namespace rocisa

#endif
