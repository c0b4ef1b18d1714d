//===- WaitCntPasses.cpp - Verify and insert memory-counter waits ---------===//
#include "stinkytofu/transforms/WaitCntPasses.h"

#include "stinkytofu/analysis/BlockCycleModel.h"
#include "stinkytofu/analysis/FindingReplay.h"
#include "stinkytofu/analysis/InsertedWaitProof.h"
#include "stinkytofu/analysis/LdsRingPhases.h"
#include "stinkytofu/analysis/WaitCountAnalysis.h"
#include "stinkytofu/hw/HardwareModel.h"
#include "stinkytofu/ir/EditableInstructions.h"
#include "stinkytofu/ir/Module.h"
#include "stinkytofu/mc/InstBuilder.h"
#include "stinkytofu/mc/InstInserter.h"
#include "stinkytofu/pass/Pass.h"
#include "stinkytofu/support/Diagnostics.h"
#include "stinkytofu/transforms/CFGBuilderPass.h"
#include "stinkytofu/transforms/FindingsReport.h"
#include "stinkytofu/transforms/RewriteSupport.h"
#include "stinkytofu/transforms/VerifierFinding.h"
#include "stinkytofu/transforms/VgprMsbPasses.h"
#include "VgprMsbSupport.h"
#include "WaitStaircase.h"
#include "llvm/ADT/STLExtras.h"

using namespace llvm;

namespace stinkytofu {

namespace {

/// `NumWaves=N`, `correlateBranches=0|1` and the flags of \p Flags, in any
/// order.
Expected<WaitCountOptions> parseWaitArguments(const PassArguments &Args,
                                              ArrayRef<FlagArgument> Flags) {
  WaitCountOptions Opts;
  SmallVector<FlagArgument, 4> AllFlags(Flags.begin(), Flags.end());
  AllFlags.emplace_back("correlateBranches", &Opts.CorrelateBranches);
  PassArguments Rest;
  for (const auto &[Key, Value] : Args) {
    if (Key != "NumWaves") {
      Rest.emplace_back(Key, Value);
      continue;
    }
    if (StringRef(Value).getAsInteger(10, Opts.NumWaves) || Opts.NumWaves == 0)
      return createStringError(inconvertibleErrorCode(),
                               "NumWaves needs a whole number of at least 1, not '" + Value + "'");
  }
  if (Error E = parseFlagArguments(Rest, AllFlags))
    return std::move(E);
  return Opts;
}

/// Runs the analysis over every function of \p M, building CFGs first,
/// with the module's lasting descriptions of \p AM (WaitDescriptions); with
/// \p UseCache, through the WaitCountCache an earlier pass left there (the
/// scheduler's), if any.
template <typename VisitT>
Error forEachAnalysedFunction(Module &M, AnalysisManager &AM, WaitCountOptions Opts,
                              VisitT Visit, bool UseCache = false,
                              const CounterModel *Given = nullptr) {
  std::optional<CounterModel> Own;
  const CounterModel &CM = Given ? *Given : Own.emplace(M.target());
  Opts.Descriptions = &AM.getLastingResult<WaitDescriptionsAnalysis>(M);
  for (Function &F : M.functions()) {
    if (!F.hasValidCFG())
      buildCFG(F);
    // Ring slots relax barriers only where the annotations hold: one that
    // does not is the input's error, not a reason to drain silently.
    if (auto C = findLdsRingContradiction(F, CM))
      return make_error<SourceDiagnosticError>(
          findingDiagnostic(M, *C->At, SourceMgr::DK_Error, C->Message));
    WaitCountCache *Cache = UseCache ? AM.getCachedResult<WaitCountCacheAnalysis>(F) : nullptr;
    Expected<WaitCountAnalysis> A =
        Cache ? WaitCountAnalysis::run(F, CM, Opts, *Cache) : WaitCountAnalysis::run(F, CM, Opts);
    if (!A)
      return A.takeError();
    if (Error E = Visit(F, *A))
      return E;
  }
  return Error::success();
}

class WaitCntVerifierPass final : public Pass {
public:
  WaitCntVerifierPass(WaitCountOptions Opts, bool WarnRedundant, FindingsOptions Report)
      : Opts(Opts), WarnRedundant(WarnRedundant), Report(std::move(Report)) {}
  StringRef name() const override { return "WaitCntVerifier"; }

  Expected<PreservedAnalyses> run(Module &M, AnalysisManager &AM, const PassScope &) override {
    Error Missing = Error::success();
    FindingsSummary Summary;
    Numbered = 0;
    // Kept for the end of the pipeline this check runs before
    // (InsertedWaitProof.h), with a counter model that outlives the pass.
    InputWaitStates *Kept = nullptr;
    if (Opts.KeepStates) {
      Kept = &AM.getLastingResult<InputWaitStatesAnalysis>(M);
      Kept->clear();
    }
    Error Failed = withLogicalVgprs(M, AM, context(), [&] {
      return forEachAnalysedFunction(M, AM, Opts, [&](Function &F, WaitCountAnalysis &A) -> Error {
      if (!A.gaveUp().empty() && !F.blocks().empty() && !F.blocks().front().empty())
        context().diagnose(findingDiagnostic(M, F.blocks().front().instructions().front(),
                                             SourceMgr::DK_Warning,
                                             "in function '" + F.name().str() + "': " + A.gaveUp()));
      unsigned Shown = 0, Ignored = 0, Replayed = 0, Real = 0;
      std::optional<BranchConditions> Conditions;
      for (const MissingWait &W : A.missingWaits())
        for (const WaitReason &R : W.Reasons) {
          std::string Rule = waitRuleName(A.counters(), R);
          bool Selected = Report.selects(Rule);
          Summary.add(Rule, R.Producer, *W.Consumer, Selected);
          if (!Selected) {
            ++Ignored;
            continue;
          }
          ++Shown;
          if (Report.replays(++Numbered)) {
            if (!Conditions)
              Conditions.emplace(F, M.target());
            ++Replayed;
            Real += replay(*Conditions, A.counters(), F, W, R);
          }
          Missing = joinErrors(
              std::move(Missing),
              make_error<VerifierFindingError>(
                  findingDiagnostic(M, *W.Consumer, SourceMgr::DK_Error,
                                    describeMissingWait(A.counters(), W, R)),
                  makeFindingKey(M, Rule, R.Register, *W.Consumer, R.Producer)));
        }
      std::string Where = "on paths whose branches agree";
      if (Replayed)
        Where += ", " + std::to_string(Real) + " of " + std::to_string(Replayed) +
                 " replayed as real";
      Summary.verdict(F.name(), Shown, Ignored, A.gaveUp(), Where);
      if (WarnRedundant)
        for (const Instruction *I : A.redundantWaits())
          context().diagnose(findingDiagnostic(M, *I, SourceMgr::DK_Warning,
                                               (I->mnemonic() + " waits for nothing").str()));
      if (Kept)
        Kept->keep(F, std::move(A));
      return Error::success();
    }, /*UseCache=*/false, Kept ? &Kept->counters(M.target()) : nullptr);
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
  /// Prints the replay of finding \p R of \p W (number Numbered); whether
  /// it replays as real.
  bool replay(const BranchConditions &BC, const CounterModel &CM, const Function &F,
              const MissingWait &W, const WaitReason &R) {
    raw_ostream &OS = context().dumpStream();
    OS << "replay of finding " << Numbered << " (line " << W.Consumer->location().Line
       << "): " << describeMissingWait(CM, W, R) << "\n";
    if (!R.Producer) {
      OS << "  not replayed: the operation is a caller's or a callee's\n";
      return false;
    }
    std::optional<FindingReplay> Replay =
        replayFinding(BC, CM, F, *R.Producer, *W.Consumer, R.Counter);
    if (!Replay) {
      OS << "  not replayed: no path from the entry leaves the operation in flight (within "
            "the search's budget)\n";
      return false;
    }
    printReplay(OS, BC, CM, *Replay);
    return Replay->Real;
  }

  WaitCountOptions Opts;
  bool WarnRedundant;
  FindingsOptions Report;
  unsigned Numbered = 0; ///< shown findings so far, over the module
};

class WaitCntInsertionPass final : public Pass {
public:
  WaitCntInsertionPass(WaitCountOptions Opts, bool KeepStaircases)
      : Opts(Opts), KeepStaircases(KeepStaircases) {}
  StringRef name() const override { return "StinkyWaitCntInsertionPass"; }

  Expected<PreservedAnalyses> run(Module &M, AnalysisManager &AM, const PassScope &Scope) override {
    bool Changed = false;
    InstBuilder Builder(M);
    // Only the counts are read: no paths described, and the scheduler's
    // wait analyses are shared.
    WaitCountOptions Placing = Opts;
    Placing.DescribePaths = false;
    Error E = withLogicalVgprs(M, AM, context(), [&] {
      return forEachAnalysedFunction(M, AM, Placing, [&](Function &F, const WaitCountAnalysis &A) -> Error {
      SmallVector<Instruction *, 16> Inserted;
      // The analysis holds its instructions const; the pass edits F's own.
      DenseMap<const Instruction *, Instruction *> Own = editableInstructions(
          F, A.missingWaits(), [](const MissingWait &W) { return W.Consumer; });
      for (const MissingWait &W : A.missingWaits()) {
        // A wait goes in front of any statement in scope, a macro's too.
        Instruction *Consumer = Own.lookup(W.Consumer);
        if (!inScope(M, Scope, *Consumer))
          continue;
        if (Error E = insertBefore(M, Scope, Builder, A.counters(), *Consumer, W.Needed, Inserted))
          return E;
      }
      if (Inserted.empty())
        return Error::success();
      if (!KeepStaircases)
        if (Error E = foldStaircases(M, Builder, A.counters(), Inserted))
          return E;
      AM.invalidate(F, PreservedAnalyses::none());
      Changed = true;
      return Error::success();
    }, /*UseCache=*/true);
    });
    if (E)
      return std::move(E);
    return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
  }

private:
  /// Where the waits of several consumers of one block form a staircase,
  /// one wait may be faster (WaitStaircase.h): \p Inserted, block by block
  /// in order.
  static Error foldStaircases(Module &M, InstBuilder &Builder, const CounterModel &CM,
                              MutableArrayRef<Instruction *> Inserted) {
    llvm::sort(Inserted, [](Instruction *A, Instruction *B) {
      if (A->parent() != B->parent())
        return std::less<>()(A->parent(), B->parent());
      return A->comesBefore(*B);
    });
    BlockCycleModel Cycles(M);
    auto Make = [&](Instruction &Before, const WaitCounts &Counts) -> Expected<Instruction *> {
      SmallVector<WaitStatement, 2> Statements = CM.waitStatements(Counts);
      assert(Statements.size() == 1 && "folds only into one wait instruction");
      return insertWait(Builder, Before, Statements.front());
    };
    for (auto Begin = Inserted.begin(); Begin != Inserted.end();) {
      auto End = std::find_if(Begin, Inserted.end(), [&](Instruction *I) {
        return I->parent() != (*Begin)->parent();
      });
      if (Error E = foldWaitStaircases(ArrayRef<Instruction *>(Begin, End), CM, Cycles, Make))
        return E;
      Begin = End;
    }
    return Error::success();
  }

  /// Puts the wait \p W before \p Before (which keeps its comments in
  /// front): the instruction.
  static Expected<Instruction *> insertWait(InstBuilder &Builder, Instruction &Before,
                                            const WaitStatement &W) {
    InstInserter At(Builder);
    At.setInsertPointBefore(Before);
    Expected<Instruction &> Wait = At.build(waitSpec(W));
    if (!Wait)
      return Wait.takeError();
    return &*Wait;
  }

  /// Puts the waits \p Needed before \p Consumer (added to \p Inserted). A
  /// wait standing right before it is merged in when that takes no more
  /// instructions.
  static Error insertBefore(Module &M, const PassScope &Scope, InstBuilder &Builder,
                            const CounterModel &CM, Instruction &Consumer,
                            const WaitCounts &Needed, SmallVectorImpl<Instruction *> &Inserted) {
    BasicBlock &BB = *Consumer.parent();
    // An s_clause or s_delay_alu right before the consumer describes it:
    // the waits go in front of them.
    Instruction *Anchor = &Consumer;
    while (Anchor->getIterator() != BB.instructions().begin()) {
      InstRole Role = HardwareModel::roleOf(std::prev(Anchor->getIterator())->mnemonic());
      if (Role != InstRole::Clause && Role != InstRole::DelayAlu)
        break;
      Anchor = &*std::prev(Anchor->getIterator());
    }
    Instruction *Previous = nullptr;
    std::optional<WaitCounts> Old;
    if (auto It = Anchor->getIterator(); It != BB.instructions().begin()) {
      Previous = &*std::prev(It);
      if (Previous->mcInsts().size() == 1 && isRewritable(M, Scope, *Previous))
        Old = CM.decodeWait(Previous->mcInsts()[0], Previous->mnemonic());
    }
    WaitCounts Waits = Needed;
    if (Old) {
      WaitCounts Merged = Needed;
      Merged.merge(*Old);
      if (CM.spellWaits(Merged).size() <= CM.spellWaits(Needed).size())
        Waits = Merged;
      else
        Old.reset();
    }
    // Waits replacing the one before the anchor take its place and keep its
    // comment; new ones go right before the anchor, behind its comments (a
    // block's `; %bb.1:`).
    InstInserter At(Builder);
    At.setInsertPointBefore(Old ? *Previous : *Anchor);
    bool First = true;
    for (const WaitStatement &W : CM.waitStatements(Waits)) {
      Expected<Instruction &> Wait = At.build(waitSpec(W));
      if (!Wait)
        return Wait.takeError();
      if (First && Old)
        Wait->setTrailingComment(Previous->trailingComment().str());
      Inserted.push_back(&*Wait);
      First = false;
    }
    if (Old) {
      llvm::erase(Inserted, Previous);
      Previous->eraseFromParent();
    }
    return Error::success();
  }

  WaitCountOptions Opts;
  bool KeepStaircases;
};

} // namespace

Expected<std::unique_ptr<Pass>> createWaitCntVerifierPass(const PassArguments &Args) {
  bool WarnRedundant = false, DescribePaths = true;
  FindingsOptions Report;
  Expected<PassArguments> Rest = takeFindingsArguments(Args, Report);
  if (!Rest)
    return Rest.takeError();
  bool KeepStates = false;
  Expected<WaitCountOptions> Opts = parseWaitArguments(
      *Rest, {{"warnRedundant", &WarnRedundant},
              {"describePaths", &DescribePaths},
              {"keepStates", &KeepStates}});
  if (!Opts)
    return Opts.takeError();
  Opts->DescribePaths = DescribePaths;
  Opts->KeepStates = KeepStates;
  return std::make_unique<WaitCntVerifierPass>(*Opts, WarnRedundant, std::move(Report));
}

Expected<std::unique_ptr<Pass>> createStinkyWaitCntInsertionPass(const PassArguments &Args) {
  // enableLoopCarriedTokenDeps is the reference's opt-in for waits across a
  // loop's back edge on memory tokens; the analysis here always follows
  // every path, back edges included: accepted when true, refused when false.
  bool KeepStaircases = false, CheckWaitCache = false, LoopCarried = true;
  Expected<WaitCountOptions> Opts =
      parseWaitArguments(Args, {{"keepStaircases", &KeepStaircases},
                                {"checkWaitCache", &CheckWaitCache},
                                {"enableLoopCarriedTokenDeps", &LoopCarried}});
  if (!Opts)
    return Opts.takeError();
  if (!LoopCarried)
    return createStringError(inconvertibleErrorCode(),
                             "enableLoopCarriedTokenDeps cannot be turned off: the wait "
                             "analysis always follows every path, loop back edges included");
  Opts->CheckCache = CheckWaitCache;
  return std::make_unique<WaitCntInsertionPass>(*Opts, KeepStaircases);
}

} // namespace stinkytofu
