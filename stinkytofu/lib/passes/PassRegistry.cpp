//===- PassRegistry.cpp - Passes by name ----------------------------------===//
#include "stinkytofu/passes/PassRegistry.h"
#include "stinkytofu/transforms/BranchRelaxationPass.h"
#include "stinkytofu/transforms/BuildImplicitDependencyPass.h"
#include "stinkytofu/transforms/LoopLoadRotationPass.h"
#include "stinkytofu/transforms/MergeBarrierPass.h"
#include "stinkytofu/transforms/WaitAwareScheduleRepairPass.h"
#include "stinkytofu/transforms/RepairMatrixCoexecPass.h"
#include "stinkytofu/transforms/CFGBuilderPass.h"
#include "stinkytofu/transforms/CallTargetRecoveryPass.h"
#include "stinkytofu/transforms/CyclePasses.h"
#include "stinkytofu/transforms/LongBranchLoweringPass.h"
#include "stinkytofu/transforms/PrintLivenessPass.h"
#include "stinkytofu/transforms/PrintPressurePass.h"
#include "stinkytofu/transforms/VerifierPass.h"
#include "stinkytofu/transforms/VgprMsbPasses.h"
#include "stinkytofu/transforms/AccumulateInstructionSizePass.h"
#include "stinkytofu/transforms/AsmMovePropagationPass.h"
#include "stinkytofu/transforms/BuildUseDefChainPass.h"
#include "stinkytofu/transforms/DeadCodeEliminationPass.h"
#include "stinkytofu/passes/DumpStinkyModulePass.h"
#include "stinkytofu/transforms/DumpMemTokenIRStructurePass.h"
#include "stinkytofu/transforms/HazardPasses.h"
#include "stinkytofu/transforms/InsertDelayAluPass.h"
#include "stinkytofu/transforms/Gfx1250HazardPass.h"
#include "stinkytofu/transforms/InsertClusterBarrierPass.h"
#include "stinkytofu/transforms/TDMLoadWaveSyncPass.h"
#include "stinkytofu/transforms/TDMInflightGuardPass.h"
#include "stinkytofu/transforms/WmmaReorderPass.h"
#include "stinkytofu/transforms/RegionClonePass.h"
#include "stinkytofu/transforms/EpilogueStoreSinkPass.h"
#include "stinkytofu/transforms/InsertInitialUnclausedVmemPass.h"
#include "stinkytofu/transforms/LoopRegionRemarkPass.h"
#include "stinkytofu/transforms/MemTokenConsistencyCheckPass.h"
#include "stinkytofu/transforms/PeepholeOptimizationPass.h"
#include "stinkytofu/transforms/RedundantMovEliminationPass.h"
#include "stinkytofu/transforms/RemoveDscntPass.h"
#include "stinkytofu/transforms/ScrambleSchedulePass.h"
#include "stinkytofu/transforms/DAGSchedulerPass.h"
#include "stinkytofu/transforms/RemoveInstructionPass.h"
#include "stinkytofu/transforms/InsertWaitAluPass.h"
#include "stinkytofu/transforms/RemoveWaitAluPass.h"
#include "stinkytofu/transforms/RemoveWaitCntPass.h"
#include "stinkytofu/transforms/SetMatrixReusePass.h"
#include "stinkytofu/transforms/SwInstructionPrefetchPass.h"
#include "stinkytofu/transforms/UnreachableBlockElimPass.h"
#include "stinkytofu/transforms/RegisterAllocationPass.h"
#include "stinkytofu/transforms/SsaLiftPasses.h"
#include "stinkytofu/transforms/FlattenCFGPass.h"
#include "stinkytofu/transforms/WaitCntPasses.h"
#include "llvm/ADT/StringExtras.h"

using namespace llvm;

namespace stinkytofu {

void PassRegistry::add(PassInfo Info) {
  for (const std::string &Mnemonic : Info.PseudoInstructions)
    Pseudos.add({Mnemonic, Info.Name});
  for (PassInfo &P : Passes)
    if (P.Name == Info.Name) {
      P = std::move(Info);
      return;
    }
  Passes.push_back(std::move(Info));
}

void PassRegistry::addAlias(std::string Alias, std::string Target) {
  Aliases.emplace_back(std::move(Alias), std::move(Target));
}

const PassInfo *PassRegistry::find(StringRef Name) const {
  for (const PassInfo &P : Passes)
    if (P.Name == Name)
      return &P;
  for (const auto &[Alias, Target] : Aliases)
    if (Alias == Name)
      return find(Target);
  return nullptr;
}

namespace {
/// A pass that runs only on the listed processors (the spec's
/// `targets=gfx1250:...` argument) and leaves other modules as they are: a
/// pipeline names one target's passes (the reference's gfx1250 backend)
/// and stays one list of specs for every input.
class TargetGatedPass final : public Pass {
public:
  TargetGatedPass(std::unique_ptr<Pass> Inner, SmallVector<std::string, 2> Processors)
      : Inner(std::move(Inner)), Processors(std::move(Processors)) {}
  StringRef name() const override { return Inner->name(); }
  Expected<PreservedAnalyses> run(Module &M, AnalysisManager &AM,
                                  const PassScope &Scope) override {
    if (!is_contained(Processors, M.target().processor()))
      return PreservedAnalyses::all();
    Inner->setContext(context());
    Inner->setArtifactSink(&artifacts());
    return Inner->run(M, AM, Scope);
  }

private:
  std::unique_ptr<Pass> Inner;
  SmallVector<std::string, 2> Processors;
};
} // namespace

Expected<std::unique_ptr<Pass>> PassRegistry::create(StringRef Spec,
                                                     const PassArguments &Leading) const {
  auto [Name, Args] = Spec.split('=');
  const PassInfo *Info = find(Name);
  if (!Info) {
    std::vector<StringRef> Known;
    for (const PassInfo &P : Passes)
      Known.push_back(P.Name);
    return createStringError(inconvertibleErrorCode(),
                             "unknown pass '" + Name + "' (known: " + join(Known, ", ") +
                                 ")");
  }
  PassArguments All = Leading;
  llvm::append_range(All, parsePassArguments(Args));
  SmallVector<std::string, 2> Processors;
  bool NamesNone = false;
  llvm::erase_if(All, [&](const std::pair<std::string, std::string> &Arg) {
    if (Arg.first != "targets")
      return false;
    SmallVector<StringRef, 2> Names;
    SplitString(Arg.second, Names, ":");
    llvm::append_range(Processors, Names);
    NamesNone |= Names.empty();
    return true;
  });
  if (NamesNone)
    return createStringError(inconvertibleErrorCode(),
                             Name + ": targets= names no processor (targets=gfx1250:...)");
  Expected<std::unique_ptr<Pass>> P = Info->Create(All);
  if (!P)
    return createStringError(inconvertibleErrorCode(),
                             Name + ": " + toString(P.takeError()));
  if (Processors.empty())
    return P;
  return std::make_unique<TargetGatedPass>(std::move(*P), std::move(Processors));
}

PassRegistry &passRegistry(StinkyTofuContext &Ctx) {
  if (!Ctx.passRegistry()) {
    auto R = std::make_shared<PassRegistry>(Ctx.pseudoInstructions());
#define STINKYTOFU_PASS(Name, Factory, Effect, Description)                           \
  R->add({Name, Description, Factory, {}, CodeEffect::Effect});
#include "stinkytofu/passes/CorePasses.def"
    // The reference's names for passes of ours (its other names are ours).
#define STINKYTOFU_REFERENCE_ALIAS(Name, Ours) R->addAlias(Name, Ours);
#include "stinkytofu/passes/ReferencePasses.def"
    Ctx.setPassRegistry(std::move(R));
  }
  return *Ctx.passRegistry();
}

} // namespace stinkytofu
