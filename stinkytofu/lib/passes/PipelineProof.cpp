//===- PipelineProof.cpp - The verifiers that end a pipeline --------------===//
#include "stinkytofu/passes/PipelineProof.h"
#include "stinkytofu/passes/PassPipeline.h"
#include "stinkytofu/transforms/VerifierFinding.h"
#include <map>
#include <optional>

using namespace llvm;

namespace stinkytofu {

namespace {
/// A finding with its key; a verifier that gives none (another library's)
/// has findings that are always new.
struct Finding {
  SourceDiagnostic Diagnostic;
  std::optional<FindingKey> Key;
  /// The verifier that found it (its spec).
  std::string Verifier;
};
} // namespace

/// Runs each verifier of \p Verifiers on \p M in its own pass manager, so
/// that every one runs; appends their findings to \p Findings.
static Error collectFindings(Module &M, AnalysisManager &AM, ArrayRef<std::string> Verifiers,
                             const PassRegistry &R, const StringMap<PassArguments> &Leading,
                             StinkyTofuContext &Ctx, std::vector<Finding> &Findings) {
  for (const std::string &Spec : Verifiers) {
    PassManager PM(Ctx);
    if (Error E = addPasses(PM, Spec, R, Leading))
      return E;
    if (Error E = handleErrors(
            PM.run(M, AM),
            [&](const VerifierFindingError &F) {
              Findings.push_back({F.diagnostic(), F.key(), Spec});
            },
            [&](const SourceDiagnosticError &F) {
              Findings.push_back({F.diagnostic(), std::nullopt, Spec});
            }))
      return E;
  }
  return Error::success();
}

Expected<ProofResult>
proveAgainstInput(Module &Output, AnalysisManager &AM, ArrayRef<std::string> Verifiers,
                  const PassRegistry &R, const StringMap<PassArguments> &Leading,
                  StinkyTofuContext &Ctx,
                  function_ref<Expected<std::unique_ptr<Module>>()> ReadInput) {
  ProofResult Result;
  std::vector<Finding> OutputFindings;
  if (Error E = collectFindings(Output, AM, Verifiers, R, Leading, Ctx, OutputFindings))
    return std::move(E);
  if (OutputFindings.empty())
    return Result;

  Expected<std::unique_ptr<Module>> Input = ReadInput();
  if (!Input)
    return Input.takeError();
  // The input is verified on the CFG the pipeline saw (long branches and
  // calls followed); its warnings were the input's to give, not ours.
  StinkyTofuContext Quiet;
  Quiet.setDiagnosticHandler([](const SourceDiagnostic &) {});
  std::vector<std::string> InputPipeline(controlFlowRecoveryPasses().begin(),
                                         controlFlowRecoveryPasses().end());
  AnalysisManager InputAM;
  {
    PassManager PM(Quiet);
    if (Error E = addPasses(PM, InputPipeline, R, Leading))
      return std::move(E);
    if (Error E = PM.run(**Input, InputAM))
      return std::move(E);
  }
  // Only the verifiers that found something in the output have input
  // findings worth knowing.
  std::vector<std::string> Needed;
  for (const std::string &Spec : Verifiers)
    if (any_of(OutputFindings, [&](const Finding &F) { return F.Verifier == Spec; }))
      Needed.push_back(Spec);
  std::vector<Finding> InputFindings;
  if (Error E = collectFindings(**Input, InputAM, Needed, R, Leading, Quiet, InputFindings))
    return std::move(E);

  // The input's findings by key; each excuses one output finding.
  std::map<FindingKey, unsigned> Unmatched;
  for (const Finding &F : InputFindings)
    if (F.Key && !F.Key->Inserted)
      ++Unmatched[*F.Key];
  for (Finding &F : OutputFindings) {
    if (F.Key && !F.Key->Inserted)
      if (auto It = Unmatched.find(*F.Key); It != Unmatched.end() && It->second) {
        --It->second;
        ++Result.InputFindings;
        continue;
      }
    Result.NewFindings.push_back(std::move(F.Diagnostic));
  }
  return Result;
}

} // namespace stinkytofu
