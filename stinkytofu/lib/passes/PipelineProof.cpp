//===- PipelineProof.cpp - The verifiers that end a pipeline --------------===//
#include "stinkytofu/passes/PipelineProof.h"
#include "stinkytofu/passes/PassPipeline.h"
#include "llvm/Support/Regex.h"

using namespace llvm;

namespace stinkytofu {

/// Runs each verifier of \p Verifiers on \p M in its own pass manager, so
/// that every one runs; appends their findings to \p Findings.
static Error collectFindings(Module &M, AnalysisManager &AM, ArrayRef<std::string> Verifiers,
                             const PassRegistry &R, const StringMap<PassArguments> &Leading,
                             StinkyTofuContext &Ctx, std::vector<SourceDiagnostic> &Findings) {
  for (const std::string &Spec : Verifiers) {
    PassManager PM(Ctx);
    if (Error E = addPasses(PM, Spec, R, Leading))
      return E;
    if (Error E = handleErrors(PM.run(M, AM), [&](const SourceDiagnosticError &F) {
          Findings.push_back(F.diagnostic());
        }))
      return E;
  }
  return Error::success();
}

/// What makes two findings the same: the consumer's input position and the
/// message without what inserted code may change while the finding stays
/// the one the input had: the path a missing wait was found on, how far
/// its counter is off, how many wait states a hazard lacks. What is left
/// names the rule or wait kind, the register and the producer with its
/// input line (WaitCountAnalysis's describeMissingWait, HazardPasses'
/// describe).
static std::string findingKey(const SourceDiagnostic &D) {
  static const Regex Path("; path .*$");
  static const Regex Counter(" \\([a-z_]+ needs <= [0-9]+ here, is [0-9]+\\)");
  static const Regex WaitStates("^([^:]*: )[0-9]+ more wait states? needed");
  std::string Message = Path.sub("", D.Message);
  Message = Counter.sub("", Message);
  Message = WaitStates.sub("\\1wait states needed", Message);
  return std::to_string(D.Line) + ":" + std::to_string(D.Column) + ":" + Message;
}

Expected<ProofResult>
proveAgainstInput(Module &Output, AnalysisManager &AM, ArrayRef<std::string> Verifiers,
                  const PassRegistry &R, const StringMap<PassArguments> &Leading,
                  StinkyTofuContext &Ctx,
                  function_ref<Expected<std::unique_ptr<Module>>()> ReadInput) {
  ProofResult Result;
  if (Error E = collectFindings(Output, AM, Verifiers, R, Leading, Ctx, Result.NewFindings))
    return std::move(E);
  if (Result.NewFindings.empty())
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
  std::vector<SourceDiagnostic> InputFindings;
  if (Error E = collectFindings(**Input, InputAM, Verifiers, R, Leading, Quiet, InputFindings))
    return std::move(E);

  StringMap<unsigned> Unmatched;
  for (const SourceDiagnostic &D : InputFindings)
    if (D.Line)
      ++Unmatched[findingKey(D)];
  std::vector<SourceDiagnostic> New;
  for (SourceDiagnostic &D : Result.NewFindings) {
    auto It = Unmatched.find(findingKey(D));
    if (D.Line && It != Unmatched.end() && It->second) {
      --It->second;
      ++Result.InputFindings;
      continue;
    }
    New.push_back(std::move(D));
  }
  Result.NewFindings = std::move(New);
  return Result;
}

} // namespace stinkytofu
