//===- PassRegistry.h - Passes by name ---------------------------*- C++ -*-===//
//
// A context's registry (StinkyTofuContext): every pass is registered once by
// name with a factory taking its `--Pass=arg,arg` arguments. passRegistry()
// makes it with the core passes (CorePasses.def); another library adds its
// own through a register function (registerInstrumentPasses).
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_PASSES_PASSREGISTRY_H
#define STINKYTOFU_PASSES_PASSREGISTRY_H

#include "stinkytofu/ir/StinkyTofuContext.h"
#include "stinkytofu/pass/PassArguments.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace stinkytofu {

/// What a pass may do to the instructions, stated where it is registered.
/// It decides how a pipeline ends (endPipelineProven, docs/passes.md "How
/// pipelines end").
enum class CodeEffect {
  /// Leaves every instruction as it is: analyses, verifiers, printers, and
  /// passes that change only what is not code (CFG edges, attached data).
  None,
  /// Inserts only waits or wait states that a verifier asks for (nops,
  /// s_wait_alu, s_delay_alu, memory waits): it can take no finding away
  /// from another rule's distance, so it is part of the repair, not a cause.
  AddsWaits,
  /// May delete, insert, move or rewrite instructions: the hazard repair
  /// runs after the last such pass and the verifiers end the pipeline.
  Changes,
};

struct PassInfo {
  std::string Name;
  std::string Description;
  PassFactory Create;
  /// Mnemonics of the pseudo-instructions the pass lowers: registering the
  /// pass makes the reader of its context keep them.
  std::vector<std::string> PseudoInstructions = {};
  /// What the pass does to the instructions. A pass that changes code
  /// must say so (the core passes all say, in CorePasses.def); the default
  /// keeps a library's pipelines as they were when it registered its pass.
  CodeEffect Effect = CodeEffect::None;
};

class PassRegistry {
public:
  /// Registering a pass registers its pseudo-instructions in \p Pseudos.
  explicit PassRegistry(PseudoInstructionRegistry &Pseudos) : Pseudos(Pseudos) {}

  /// Registers \p Info; registering a name again replaces it.
  void add(PassInfo Info);
  /// Makes \p Alias another name of the pass called \p Target.
  void addAlias(std::string Alias, std::string Target);
  /// The pass called \p Name, or that \p Name is an alias of.
  const PassInfo *find(llvm::StringRef Name) const;
  const std::vector<PassInfo> &passes() const { return Passes; }
  /// Every alias, with the name of its pass.
  const std::vector<std::pair<std::string, std::string>> &aliases() const { return Aliases; }

  /// Builds a pass from `Name` or `Name=a,b=c`; unknown names are errors.
  /// The argument `targets=gfx1250:...`, which every pass takes, makes the
  /// pass run only on modules of the listed processors (a standard
  /// pipeline's passes of one target).
  /// \p Leading go before the spec's arguments, which win over them (a
  /// driver's options that are the pass's arguments).
  llvm::Expected<std::unique_ptr<Pass>> create(llvm::StringRef Spec,
                                               const PassArguments &Leading = {}) const;

private:
  PseudoInstructionRegistry &Pseudos;
  std::vector<PassInfo> Passes;
  std::vector<std::pair<std::string, std::string>> Aliases;
};

/// The pass registry of \p Ctx, made with the core passes on first use.
PassRegistry &passRegistry(StinkyTofuContext &Ctx);

} // namespace stinkytofu

#endif
