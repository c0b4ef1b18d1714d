//===- PipelineProof.cpp - The verifiers that end a pipeline --------------===//
#include "stinkytofu/passes/PipelineProof.h"
#include "stinkytofu/analysis/InsertedWaitProof.h"
#include "stinkytofu/hw/HardwareModel.h"
#include "stinkytofu/hw/TargetInfo.h"
#include "stinkytofu/passes/PassPipeline.h"
#include "stinkytofu/transforms/CFGBuilderPass.h"
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

/// Whether the verifiers print only their findings' messages (no replay,
/// no summary): then a finding's message, the only thing a path search
/// serves, matters only for the findings the input does not excuse.
static bool messagesAreFindingsOnly(ArrayRef<std::string> Verifiers,
                                    const StringMap<PassArguments> &Leading) {
  auto Prints = [](StringRef Text) {
    return Text.contains("replay") || Text.contains("summary");
  };
  return none_of(Verifiers, Prints) && none_of(Leading, [&](const auto &Entry) {
           return any_of(Entry.second, [&](const auto &Arg) { return Prints(Arg.first); });
         });
}

/// \p Leading with the wait verifier searching no paths.
static StringMap<PassArguments> withoutPathSearches(const StringMap<PassArguments> &Leading) {
  StringMap<PassArguments> Pathless = Leading;
  Pathless["WaitCntVerifier"].emplace_back("describePaths", "0");
  return Pathless;
}

Expected<InputFindings> verifyInput(Module &Input, ArrayRef<std::string> Verifiers,
                                    const PassRegistry &R, const StringMap<PassArguments> &Leading,
                                    bool Recovered, AnalysisManager *Pipeline) {
  // The CFG the pipeline sees (long branches and calls followed); the
  // input's warnings were the input's to give, not ours.
  StinkyTofuContext Quiet;
  Quiet.setDiagnosticHandler([](const SourceDiagnostic &) {});
  std::vector<std::string> InputPipeline(controlFlowRecoveryPasses().begin(),
                                         controlFlowRecoveryPasses().end());
  AnalysisManager InputAM;
  if (Pipeline)
    InputAM.shareLastingResults(*Pipeline);
  if (!Recovered) {
    PassManager PM(Quiet);
    if (Error E = addPasses(PM, InputPipeline, R, Leading))
      return std::move(E);
    if (Error E = PM.run(Input, InputAM))
      return std::move(E);
  }
  // The input's wait findings on every path, feasible or not: code a pass
  // inserts between a comparison and its branch (an SQTT marker saving and
  // restoring SCC) ends the comparison's fact in the output, so the output's
  // analysis keeps paths the input's pruned. Judged against every path of
  // the input, a finding is new only where the pipeline made it.
  // Only the keys are kept, and they name no path: no path is searched for
  // a finding unless a replay prints its message.
  const auto &WaitArgs = Leading.lookup("WaitCntVerifier");
  StringMap<PassArguments> InputLeading =
      none_of(WaitArgs, [](const auto &Arg) { return Arg.first == "replay"; }) &&
              none_of(Verifiers, [](StringRef Spec) { return Spec.contains("replay"); })
          ? withoutPathSearches(Leading)
          : Leading;
  InputLeading["WaitCntVerifier"].emplace_back("correlateBranches", "0");
  // Kept for the pipeline's end, which may prove its output from them
  // (InsertedWaitProof.h).
  if (Pipeline)
    InputLeading["WaitCntVerifier"].emplace_back("keepStates", "1");
  std::vector<Finding> Findings;
  if (Error E = collectFindings(Input, InputAM, Verifiers, R, InputLeading, Quiet, Findings))
    return std::move(E);
  InputFindings Keys;
  Keys.Verifiers.assign(Verifiers.begin(), Verifiers.end());
  for (const Finding &F : Findings)
    if (F.Key && !F.Key->Inserted) {
      ++Keys.Count[*F.Key];
      ++Keys.ByVerifier[F.Verifier];
    }
  return Keys;
}

bool canVerifyInputInPlace(const Module &Input) {
  return !Input.target().hardware().hasHighVgprs();
}

/// Judges \p OutputFindings against the input's: each input finding
/// excuses one output finding with its key.
static ProofResult judge(std::vector<Finding> &OutputFindings, InputFindings Input) {
  ProofResult Result;
  for (Finding &F : OutputFindings) {
    if (F.Key && !F.Key->Inserted)
      if (auto It = Input.Count.find(*F.Key); It != Input.Count.end() && It->second) {
        --It->second;
        ++Result.InputFindings;
        continue;
      }
    Result.NewFindings.push_back(std::move(F.Diagnostic));
  }
  return Result;
}

/// proveAgainstInput with the verifiers that still have to run.
static Expected<ProofResult>
proveRunning(Module &Output, AnalysisManager &AM, ArrayRef<std::string> Verifiers,
             const PassRegistry &R, const StringMap<PassArguments> &Leading,
             StinkyTofuContext &Ctx, function_ref<Expected<std::unique_ptr<Module>>()> ReadInput,
             const InputFindings *Known) {
  // The messages name paths, but most findings of a real kernel are the
  // input's, whose messages are dropped: the verifiers run without path
  // searches, and again with them (quietly: their warnings were given) only
  // when some finding is new. Not where a verifier writes its raised VGPRs
  // back (canVerifyInputInPlace): it would run twice on the output.
  const bool PathsLater =
      messagesAreFindingsOnly(Verifiers, Leading) && canVerifyInputInPlace(Output);
  std::vector<Finding> OutputFindings;
  if (Error E = collectFindings(Output, AM, Verifiers, R,
                                PathsLater ? withoutPathSearches(Leading) : Leading, Ctx,
                                OutputFindings))
    return std::move(E);
  if (OutputFindings.empty())
    return ProofResult();
  auto Judge = [&](const InputFindings &Keys) -> Expected<ProofResult> {
    ProofResult Result = judge(OutputFindings, Keys);
    if (!PathsLater || Result.NewFindings.empty())
      return Result;
    StinkyTofuContext Quiet;
    Quiet.setDiagnosticHandler([](const SourceDiagnostic &) {});
    OutputFindings.clear();
    if (Error E = collectFindings(Output, AM, Verifiers, R, Leading, Quiet, OutputFindings))
      return std::move(E);
    return judge(OutputFindings, Keys);
  };

  // Only the verifiers that found something in the output have input
  // findings worth knowing.
  std::vector<std::string> Needed;
  for (const std::string &Spec : Verifiers)
    if (any_of(OutputFindings, [&](const Finding &F) { return F.Verifier == Spec; }))
      Needed.push_back(Spec);
  if (Known && all_of(Needed, [&](const std::string &Spec) {
        return is_contained(Known->Verifiers, Spec);
      }))
    return Judge(*Known);
  Expected<std::unique_ptr<Module>> Input = ReadInput();
  if (!Input)
    return Input.takeError();
  Expected<InputFindings> Keys = verifyInput(**Input, Needed, R, Leading);
  if (!Keys)
    return Keys.takeError();
  return Judge(*Keys);
}

/// Whether \p Spec is the wait verifier with no more to do than find
/// missing waits (no warnings of redundant ones, no replay or summary), the
/// only thing InsertedWaitProof.h proves.
static bool onlyFindsMissingWaits(StringRef Spec, const StringMap<PassArguments> &Leading) {
  if (Spec != "WaitCntVerifier")
    return false;
  return all_of(Leading.lookup("WaitCntVerifier"), [](const auto &Arg) {
    return is_contained({"NumWaves", "only", "ignore", "describePaths", "correlateBranches"},
                        Arg.first);
  });
}

Expected<ProofResult>
proveAgainstInput(Module &Output, AnalysisManager &AM, ArrayRef<std::string> Verifiers,
                  const PassRegistry &R, const StringMap<PassArguments> &Leading,
                  StinkyTofuContext &Ctx,
                  function_ref<Expected<std::unique_ptr<Module>>()> ReadInput,
                  const InputFindings *Known) {
  // Where the pipeline only inserted quiet code around the input's
  // instructions, the input's wait analysis, kept by the input check,
  // proves the output's waits (InsertedWaitProof.h): its findings are the
  // input's, and the larger output is not analysed again.
  std::vector<std::string> ToRun(Verifiers.begin(), Verifiers.end());
  std::optional<size_t> Proven;
  if (Known && messagesAreFindingsOnly(Verifiers, Leading)) {
    auto Wait = find_if(ToRun, [&](const std::string &Spec) {
      return onlyFindsMissingWaits(Spec, Leading) && is_contained(Known->Verifiers, Spec);
    });
    const InputWaitStates &States = AM.getLastingResult<InputWaitStatesAnalysis>(Output);
    if (Wait != ToRun.end() && !States.empty()) {
      for (Function &F : Output.functions())
        if (!F.hasValidCFG())
          buildCFG(F);
      if (States.provesInsertionsQuiet(Output)) {
        auto It = Known->ByVerifier.find(*Wait);
        Proven = It == Known->ByVerifier.end() ? 0 : It->second;
        ToRun.erase(Wait);
        Ctx.statsStream() << "WaitCntVerifier: the output is proven by the input's wait "
                             "analysis: the code inserted starts no memory operation and "
                             "needs no wait\n";
      }
    }
  }
  Expected<ProofResult> Result =
      proveRunning(Output, AM, ToRun, R, Leading, Ctx, ReadInput, Known);
  if (Result)
    Result->InputWaitFindings = Proven;
  return Result;
}

} // namespace stinkytofu
