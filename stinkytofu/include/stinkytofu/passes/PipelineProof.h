//===- PipelineProof.h - The verifiers that end a pipeline ------*- C++ -*-===//
//
// The last step of a pipeline that changes code (docs/passes.md, "How
// pipelines end"): the wait and hazard verifiers on the output, judged
// against the input, so that a finding the input already had is not blamed
// on the pipeline.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_PASSES_PIPELINEPROOF_H
#define STINKYTOFU_PASSES_PIPELINEPROOF_H

#include "stinkytofu/pass/PassManager.h"
#include "stinkytofu/passes/PassRegistry.h"
#include "stinkytofu/transforms/VerifierFinding.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringMap.h"
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace stinkytofu {

/// What the final verifiers found in the output.
struct ProofResult {
  /// Findings the input did not have: each one fails the pipeline.
  std::vector<SourceDiagnostic> NewFindings;
  /// Output findings the input had too (not errors).
  size_t InputFindings = 0;
  /// Set when the input's wait analysis proved the output's waits
  /// (InsertedWaitProof.h): how many missing waits the input has on every
  /// path, feasible or not, among which the output's are (not errors).
  std::optional<size_t> InputWaitFindings;
};

/// The findings of an input by key (transforms/VerifierFinding.h), how
/// many of each, and the verifiers (specs) that looked.
struct InputFindings {
  std::vector<std::string> Verifiers;
  std::map<FindingKey, unsigned> Count;
  /// How many findings each verifier (spec) made.
  std::map<std::string, unsigned> ByVerifier;
};

/// Whether verifyInput leaves \p Input as it was: not where the
/// verifiers raise high VGPRs and write their `s_set_vgpr_msb` form back
/// (which may place them differently from the input).
bool canVerifyInputInPlace(const Module &Input);

/// Verifies \p Input (before the pipeline changes it, or as read again) on
/// the CFG the pipeline sees (the control-flow recovery passes run first;
/// they change no code), with each of \p Verifiers, quietly and with
/// analyses of its own, and keeps only the keys of its findings. Run on the
/// module before the pipeline, it gives proveAgainstInput what it needs of
/// the input without a second read (only where canVerifyInputInPlace).
/// \p Recovered: the recovery passes ran on \p Input already, with the
/// same arguments (the pipeline's first passes, run before this), and are
/// not run again. With \p Pipeline (the manager the pipeline will run
/// under), the lasting analyses are shared with it: what the check
/// describes of an instruction the pipeline leaves alone is not described
/// again for the output (WaitDescriptions).
llvm::Expected<InputFindings> verifyInput(Module &Input, llvm::ArrayRef<std::string> Verifiers,
                                          const PassRegistry &R,
                                          const llvm::StringMap<PassArguments> &Leading,
                                          bool Recovered = false,
                                          AnalysisManager *Pipeline = nullptr);

/// Runs each of \p Verifiers (pass specs) over \p Output, all of them even
/// when one finds something. Only when there are findings, verifies the
/// input as well: \p ReadInput reads it again, the control-flow recovery
/// passes run on it, then those of the verifiers that found something in
/// the output; when \p Known (verifyInput before the pipeline) ran all of
/// those, its findings serve and the input is not read. An output finding
/// matches an
/// input finding with the same key (transforms/VerifierFinding.h: the rule
/// or wait kind and counter, the register units, the consumer's and the
/// producer's input positions), whatever the message says about counts and
/// paths; each input finding matches one output finding. A finding at or
/// after inserted code, or one without a key, is always new. Errors other
/// than findings are returned.
llvm::Expected<ProofResult>
proveAgainstInput(Module &Output, AnalysisManager &AM, llvm::ArrayRef<std::string> Verifiers,
                  const PassRegistry &R, const llvm::StringMap<PassArguments> &Leading,
                  StinkyTofuContext &Ctx,
                  llvm::function_ref<llvm::Expected<std::unique_ptr<Module>>()> ReadInput,
                  const InputFindings *Known = nullptr);

} // namespace stinkytofu

#endif
