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
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringMap.h"
#include <memory>
#include <string>
#include <vector>

namespace stinkytofu {

/// What the final verifiers found in the output.
struct ProofResult {
  /// Findings the input did not have: each one fails the pipeline.
  std::vector<SourceDiagnostic> NewFindings;
  /// Output findings the input had too (not errors).
  size_t InputFindings = 0;
};

/// Runs each of \p Verifiers (pass specs) over \p Output, all of them even
/// when one finds something. Only when there are findings, verifies the
/// input as well: \p ReadInput reads it again, the control-flow recovery
/// passes run on it, then those of the verifiers that found something in
/// the output. An output finding matches an
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
                  llvm::function_ref<llvm::Expected<std::unique_ptr<Module>>()> ReadInput);

} // namespace stinkytofu

#endif
