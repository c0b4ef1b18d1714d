//===- PassPipeline.cpp - Pipelines and scopes from text ------------------===//
#include "stinkytofu/passes/PassPipeline.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include <algorithm>
#include <optional>

using namespace llvm;

namespace stinkytofu {

static Error pipelineError(StringRef Text, const Twine &Message) {
  return createStringError(inconvertibleErrorCode(),
                           "--passes='" + Text + "': " + Message);
}

Expected<std::vector<std::string>> parsePassPipeline(StringRef Text) {
  // Split at commas outside parentheses.
  std::vector<StringRef> Entries;
  int Depth = 0;
  size_t Start = 0;
  for (size_t I = 0; I <= Text.size(); ++I) {
    char C = I < Text.size() ? Text[I] : ',';
    if (C == '(')
      ++Depth;
    else if (C == ')' && --Depth < 0)
      return pipelineError(Text, "unbalanced ')'");
    else if (C == ',' && Depth == 0) {
      Entries.push_back(Text.slice(Start, I).trim());
      Start = I + 1;
    }
  }
  if (Depth != 0)
    return pipelineError(Text, "unbalanced '('");

  std::vector<std::string> Specs;
  for (StringRef Entry : Entries) {
    if (Entry.empty())
      return pipelineError(Text, "empty pass name");
    size_t Open = Entry.find('(');
    StringRef Name = Entry.take_front(Open).trim();
    if (Name.empty())
      return pipelineError(Text, "empty pass name");
    if (Name.contains('='))
      return pipelineError(Text, "'" + Name +
                                     "': give a pass's arguments in parentheses, "
                                     "e.g. '" +
                                     Name.split('=').first + "(" +
                                     Name.split('=').second + ")'");
    if (Open == StringRef::npos) {
      Specs.push_back(Name.str());
      continue;
    }
    if (!Entry.ends_with(")"))
      return pipelineError(Text, "'" + Entry + "': text after the closing ')'");
    StringRef Args = Entry.slice(Open + 1, Entry.size() - 1).trim();
    Specs.push_back(Args.empty() ? Name.str() : (Name + "=" + Args).str());
  }
  return Specs;
}

ArrayRef<const char *> hazardRepairPasses() {
  // LLVM's order: wait states first, then the ALU waits, then the delays,
  // which count the instructions the first two put in.
  static const char *const Passes[] = {"HazardRecognizerPass", "InsertWaitAluPass",
                                       "InsertDelayAluPass"};
  return Passes;
}

ArrayRef<const char *> controlFlowRecoveryPasses() {
  static const char *const Passes[] = {"LongBranchLoweringPass", "CallTargetRecoveryPass"};
  return Passes;
}

Expected<std::vector<std::string>> standardPipeline(unsigned Level) {
  if (Level > 3)
    return createStringError(inconvertibleErrorCode(),
                             "-O" + Twine(Level) + " is not a level: use -O0 to -O3");
  // -O1 only recomputes the waits; -O2 and -O3 also schedule (the
  // reference's gfx1250 order; its target-neutral passes on every target).
  // The reference's input holds logical VGPRs;
  // assembly (LLVM's included) may hold s_set_vgpr_msb already, so it is
  // raised first (a no-op otherwise). The memory waits of the input stay
  // (an expert's wait is often looser and fewer than one per consumer, and
  // keeps its text and comment); the insertion adds only what the rewrites
  // that can move a use made necessary. The hazard waits are put back after
  // the last rewrite (deleting a copy brings a producer nearer its reader).
  // Long branches and calls are followed first: an s_setpc_b64 taken for a
  // return would end the paths the wait insertion and the verifiers follow.
  // -O2 and -O3 schedule: the nops and ALU waits go first (they are fences
  // while they are there) and the repair inserts them again. The memory
  // waits stay fences: the scheduler reorders between them, so an expert's
  // wait keeps covering what it covered. Its guard estimates each region
  // with the waits the insertion will add. The loop load rotation follows
  // it (its loads' counters change at the loop's exit: the insertion runs
  // after it).
  std::vector<std::string> Pipeline{"Verifier"};
  llvm::append_range(Pipeline, controlFlowRecoveryPasses());
  llvm::append_range(Pipeline, std::initializer_list<const char *>{
                                   "RaiseVgprMsbPass", "CFGBuilder", "AsmMovePropagationPass"});
  if (Level >= 2)
    llvm::append_range(Pipeline, std::initializer_list<const char *>{
                                     "StinkyRemoveNopPass", "RemoveDelayAluPass",
                                     "RemoveWaitAluPass=ifSupported", "StinkyDAGSchedulerPass",
                                     "LoopLoadRotationPass"});
  Pipeline.push_back("StinkyWaitCntInsertionPass");
  if (Level >= 1)
    Pipeline.push_back("RemoveDscntPass=targets=gfx1250");
  // Where the scheduler ran, the reference's gfx1250 backend repairs the
  // matrix windows the inserted waits overfill, before the bank switches
  // it counts are inserted.
  if (Level >= 2)
    Pipeline.push_back("RepairMatrixCoexecPass=targets=gfx1250");
  // After the last pass that moves or adds a tensor operation or its wait,
  // at every level, as the reference's gfx1250 backend.
  Pipeline.push_back("TDMInflightGuardPass=targets=gfx1250");
  llvm::append_range(Pipeline, std::initializer_list<const char *>{
                                   "InsertVgprMsbPass", "MemTokenConsistencyCheckPass",
                                   "SetMatrixReusePass=ifSupported"});
  // The rest of the reference's gfx1250 backend runs on gfx1250 only (the
  // reference has no other backend; elsewhere -O writes what it wrote
  // before). Its order, except that the hazard repair follows every pass
  // that inserts instructions (an instruction put between an s_delay_alu
  // and its consumer would take its delay), and the xcnt waits and the size
  // are taken from the final code.
  llvm::append_range(Pipeline, std::initializer_list<const char *>{
                                   "InsertInitialUnclausedVmemPass=targets=gfx1250",
                                   "SwInstructionPrefetchRelDynamicPass=targets=gfx1250"});
  llvm::append_range(Pipeline, hazardRepairPasses());
  llvm::append_range(Pipeline, std::initializer_list<const char *>{
                                   "Gfx1250HazardPass=targets=gfx1250",
                                   "AccumulateInstructionSizePass=targets=gfx1250"});
  return Pipeline;
}

static StringRef passName(StringRef Spec) { return Spec.split('=').first; }

size_t endPipelineProven(std::vector<std::string> &Specs, const PassRegistry &R) {
  auto ChangesCode = [&](const std::string &Spec) {
    const PassInfo *Info = R.find(passName(Spec));
    return Info && Info->Effect == CodeEffect::Changes;
  };
  auto FirstChange = std::find_if(Specs.begin(), Specs.end(), ChangesCode);
  if (FirstChange == Specs.end())
    return Specs.size();
  // Whether \p Name runs in [Begin, End) (by its name or an alias).
  auto RunsIn = [&](size_t Begin, size_t End, StringRef Name) {
    const PassInfo *Wanted = R.find(Name);
    return std::any_of(Specs.begin() + Begin, Specs.begin() + End,
                       [&](const std::string &Spec) { return R.find(passName(Spec)) == Wanted; });
  };
  size_t First = FirstChange - Specs.begin();
  if (!llvm::all_of(controlFlowRecoveryPasses(),
                    [&](StringRef Name) { return RunsIn(0, First, Name); }))
    Specs.insert(Specs.begin(), controlFlowRecoveryPasses().begin(),
                 controlFlowRecoveryPasses().end());
  size_t After = Specs.rend() - std::find_if(Specs.rbegin(), Specs.rend(), ChangesCode);
  auto RunsAfter = [&](StringRef Name) { return RunsIn(After, Specs.size(), Name); };
  if (!llvm::all_of(hazardRepairPasses(), RunsAfter))
    Specs.insert(Specs.begin() + After, hazardRepairPasses().begin(),
                 hazardRepairPasses().end());
  size_t FirstVerifier = Specs.size();
  for (StringRef Verifier : {"WaitCntVerifier", "HazardVerifier"})
    if (!RunsAfter(Verifier))
      Specs.push_back(Verifier.str());
  return FirstVerifier;
}

Error addPasses(PassManager &PM, ArrayRef<std::string> Specs, const PassRegistry &R,
                const StringMap<PassArguments> &Leading) {
  for (const std::string &Spec : Specs) {
    // Leading arguments are keyed by the pass's name, whichever alias the
    // spec uses.
    StringRef Name = StringRef(Spec).split('=').first;
    const PassInfo *Info = R.find(Name);
    auto It = Leading.find(Info ? StringRef(Info->Name) : Name);
    Expected<std::unique_ptr<Pass>> P =
        It == Leading.end() ? R.create(Spec) : R.create(Spec, It->second);
    if (!P)
      return P.takeError();
    PM.add(std::move(*P));
  }
  return Error::success();
}

/// The index, in module order, of the first block labelled \p Label.
static std::optional<size_t> blockIndex(const Module &M, StringRef Label) {
  size_t Index = 0;
  for (const Function &F : M.functions())
    for (const BasicBlock &BB : F.blocks()) {
      if (BB.hasLabel() && BB.label() == Label)
        return Index;
      ++Index;
    }
  return std::nullopt;
}

Expected<PassScope> resolveLabelScope(const Module &M, StringRef From, StringRef To) {
  PassScope Scope(From.str(), To.str());
  if (Scope.isWholeModule())
    return Scope;
  auto Lookup = [&](StringRef Option, StringRef Label) -> Expected<size_t> {
    if (std::optional<size_t> B = blockIndex(M, M.resolveAlias(Label)))
      return *B;
    return createStringError(inconvertibleErrorCode(),
                             Option + ": no label '" + Label + "' in " +
                                 (M.fileName().empty() ? M.name() : M.fileName()));
  };
  std::optional<size_t> FromBlock, ToBlock;
  if (!From.empty()) {
    Expected<size_t> B = Lookup("--from-label", From);
    if (!B)
      return B.takeError();
    FromBlock = *B;
  }
  if (!To.empty()) {
    Expected<size_t> B = Lookup("--to-label", To);
    if (!B)
      return B.takeError();
    ToBlock = *B;
  }
  if (FromBlock && ToBlock && *ToBlock < *FromBlock)
    return createStringError(inconvertibleErrorCode(),
                             "--to-label '" + To + "' comes before --from-label '" + From +
                                 "'");
  if (scopeInstructions(M, Scope).empty())
    return createStringError(inconvertibleErrorCode(),
                             "the region " +
                                 (From.empty() ? std::string() : ("from '" + From + "' ").str()) +
                                 (To.empty() ? std::string() : ("to '" + To + "' ").str()) +
                                 "holds no instructions");
  return Scope;
}

void printPassList(const PassRegistry &R, raw_ostream &OS) {
  size_t Width = 0;
  for (const PassInfo &P : R.passes())
    Width = std::max(Width, P.Name.size());
  for (const auto &[Alias, Target] : R.aliases())
    Width = std::max(Width, Alias.size());
  for (const PassInfo &P : R.passes())
    OS << left_justify(P.Name, Width) << "  " << P.Description << "\n";
  for (const auto &[Alias, Target] : R.aliases())
    OS << left_justify(Alias, Width) << "  the reference's name of " << Target << "\n";
}

} // namespace stinkytofu
