//===- HazardPasses.cpp - Verify and insert hazard wait states ------------===//
#include "stinkytofu/transforms/HazardPasses.h"

#include "stinkytofu/analysis/DelayAluAnalysis.h"
#include "stinkytofu/analysis/DepCtrHazards.h"
#include "stinkytofu/analysis/HazardAnalysis.h"
#include "stinkytofu/ir/Module.h"
#include "stinkytofu/mc/InstBuilder.h"
#include "stinkytofu/mc/InstInserter.h"
#include "stinkytofu/pass/Pass.h"
#include "stinkytofu/support/Diagnostics.h"
#include "stinkytofu/transforms/CFGBuilderPass.h"
#include "stinkytofu/transforms/FindingsReport.h"
#include "stinkytofu/transforms/RewriteSupport.h"
#include "stinkytofu/transforms/VerifierFinding.h"
#include "stinkytofu/mc/InstructionFormatter.h"
#include "VgprMsbSupport.h"

using namespace llvm;

namespace stinkytofu {

namespace {

/// Runs \p Visit on every function of \p M with its hazard analysis (the
/// cached one, CachedHazardAnalysis), building CFGs first; VGPRs 256 and up
/// are logical registers meanwhile.
Error forEachHazardAnalysis(Module &M, AnalysisManager &AM, StinkyTofuContext &Ctx,
                            function_ref<Error(Function &, HazardAnalysis &)> Visit) {
  return withLogicalVgprs(M, AM, Ctx, [&]() -> Error {
    for (Function &F : M.functions()) {
      if (!F.hasValidCFG()) {
        buildCFG(F);
        AM.invalidate(F, PreservedAnalyses::none());
      }
      Expected<HazardAnalysis &> A = AM.getResult<CachedHazardAnalysis>(F);
      if (!A)
        return A.takeError();
      if (Error E = Visit(F, *A))
        return E;
    }
    return Error::success();
  });
}

/// \p I and its input line, for messages naming a second instruction.
std::string lineOf(const Instruction &I) {
  std::string Text = "'" + StringRef(instructionText(I)).trim().str() + "' ";
  if (!I.location().isValid())
    return Text + "(inserted code)";
  return Text + "(line " + std::to_string(I.location().Line) + ")";
}

std::string describe(const HazardFinding &F) {
  std::string Text = F.Rule + ": ";
  if (F.Missing)
    Text += std::to_string(F.Missing) + " more " +
            (F.Missing == 1 ? "wait state" : "wait states") + " needed";
  else
    Text += "a wait is needed";
  if (F.Producer)
    Text += " after " + lineOf(*F.Producer);
  if (!F.Detail.empty())
    Text += " (" + F.Detail + ")";
  return Text;
}

class HazardVerifierPass final : public Pass {
public:
  explicit HazardVerifierPass(FindingsOptions Report) : Report(std::move(Report)) {}
  StringRef name() const override { return "HazardVerifier"; }

  Expected<PreservedAnalyses> run(Module &M, AnalysisManager &AM, const PassScope &) override {
    Error Missing = Error::success();
    FindingsSummary Summary;
    Error Failed = forEachHazardAnalysis(M, AM, context(), [&](Function &Fn,
                                                               HazardAnalysis &A) -> Error {
      // Wait states, then the depctr waits, then the s_delay_alu delays.
      std::vector<HazardFinding> Findings = A.findings();
      llvm::append_range(Findings, findMissingDepCtrWaits(Fn, M.target()));
      llvm::append_range(Findings, findMissingDelayAlu(Fn));
      unsigned Shown = 0, Ignored = 0;
      for (const HazardFinding &F : Findings) {
        bool Selected = Report.selects(F.Rule);
        Summary.add(F.Rule, F.Producer, *F.Consumer, Selected);
        if (!Selected) {
          ++Ignored;
          continue;
        }
        ++Shown;
        if (F.Level == HazardFinding::Severity::Warning) {
          context().diagnose(
              findingDiagnostic(M, *F.Consumer, SourceMgr::DK_Warning, describe(F)));
          continue;
        }
        Missing = joinErrors(
            std::move(Missing),
            make_error<VerifierFindingError>(
                findingDiagnostic(M, *F.Consumer, SourceMgr::DK_Error, describe(F)),
                makeFindingKey(M, F.Rule, F.Register, *F.Consumer, F.Producer)));
      }
      // The wait-state windows are walked over every path, branches
      // uncorrelated.
      Summary.verdict(Fn.name(), Shown, Ignored, "", "on some path of the CFG");
      return Error::success();
    });
    if (Report.Summary)
      Summary.print(context().dumpStream(), name());
    if (Failed)
      return joinErrors(std::move(Failed), std::move(Missing));
    if (Missing)
      return std::move(Missing);
    return PreservedAnalyses::all();
  }

private:
  FindingsOptions Report;
};

class HazardRecognizerPass final : public Pass {
public:
  /// \p ValusOnly: only the rules counted in VALUs (v_nop; the reference's
  /// InsertCoexecHazardPass).
  HazardRecognizerPass(StringRef Name, bool ValusOnly) : Name(Name), ValusOnly(ValusOnly) {}
  StringRef name() const override { return Name; }

  Expected<PreservedAnalyses> run(Module &M, AnalysisManager &AM, const PassScope &Scope) override {
    bool Changed = false;
    InstBuilder Builder(M);
    Error E = forEachHazardAnalysis(M, AM, context(), [&](Function &F,
                                                          HazardAnalysis &A) -> Error {
      bool Inserted = false;
      for (BasicBlock &BB : F.blocks()) {
        SmallVector<Instruction *, 64> Consumers;
        for (Instruction &I : BB.instructions())
          Consumers.push_back(&I);
        for (Instruction *I : Consumers) {
          if (!inScope(M, Scope, *I))
            continue;
          // The v_nops first: they are wait states too. (An answer of
          // needs() lasts until the refresh after an insertion.)
          const HazardNeeds *Needs = &A.needs(*I);
          if (Needs->Valus) {
            if (Error E =
                    insertNops(Builder, *I, std::vector<InstSpec>(Needs->Valus, {"v_nop", {}})))
              return E;
            A.refresh(BB);
            Inserted = true;
            Needs = &A.needs(*I);
          }
          if (Needs->States && !ValusOnly) {
            if (Error E = insertNops(Builder, *I, scalarNops(Needs->States, A.model().maxNopStates())))
              return E;
            A.refresh(BB);
            Inserted = true;
          }
        }
      }
      // The analysis was refreshed after each insertion: it stays.
      if (Inserted)
        AM.invalidate(F, keptAnalyses());
      Changed |= Inserted;
      return Error::success();
    });
    if (E)
      return std::move(E);
    return Changed ? keptAnalyses() : PreservedAnalyses::all();
  }

private:
  StringRef Name;
  bool ValusOnly;

  /// What inserting wait states leaves valid: the hazard analysis, which
  /// read each changed block again.
  static PreservedAnalyses keptAnalyses() {
    PreservedAnalyses PA;
    PA.preserve<CachedHazardAnalysis>();
    return PA;
  }

  /// `s_nop`s for \p States wait states, each as long as the target's
  /// immediate allows, as LLVM writes them.
  static std::vector<InstSpec> scalarNops(unsigned States, unsigned Max) {
    std::vector<InstSpec> Nops;
    for (; States > 0; States -= std::min(States, Max))
      Nops.push_back({"s_nop", {BuildOperand::imm(std::min(States, Max) - 1)}});
    return Nops;
  }

  /// Puts \p Nops in front of \p Consumer, and in front of an s_delay_alu
  /// right before it, whose instruction counts start after it.
  static Error insertNops(InstBuilder &Builder, Instruction &Consumer,
                          const std::vector<InstSpec> &Nops) {
    InstInserter At(Builder);
    At.setInsertPointBefore(beforeDelayAlu(Consumer));
    for (const InstSpec &Nop : Nops)
      if (Expected<Instruction &> New = At.build(Nop); !New)
        return New.takeError();
    return Error::success();
  }
};

} // namespace

Expected<std::unique_ptr<Pass>> createHazardVerifierPass(const PassArguments &Args) {
  FindingsOptions Report;
  Expected<PassArguments> Rest = takeFindingsArguments(Args, Report);
  if (!Rest)
    return Rest.takeError();
  if (Error E = parseFlagArguments(*Rest, {}))
    return std::move(E);
  return std::make_unique<HazardVerifierPass>(std::move(Report));
}

Expected<std::unique_ptr<Pass>> createHazardRecognizerPass(const PassArguments &Args) {
  if (Error E = parseFlagArguments(Args, {}))
    return std::move(E);
  return std::make_unique<HazardRecognizerPass>("HazardRecognizerPass", false);
}

Expected<std::unique_ptr<Pass>> createInsertCoexecHazardPass(const PassArguments &Args) {
  if (Error E = parseFlagArguments(Args, {}))
    return std::move(E);
  return std::make_unique<HazardRecognizerPass>("InsertCoexecHazardPass", true);
}

} // namespace stinkytofu
