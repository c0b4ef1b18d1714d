//===- LongBranchLoweringPass.cpp - Targets of long branches --------------===//
#include "stinkytofu/transforms/LongBranchLoweringPass.h"
#include "stinkytofu/analysis/AddressChains.h"
#include "stinkytofu/ir/BranchVocabulary.h"
#include "stinkytofu/transforms/CFGBuilderPass.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace llvm;

namespace stinkytofu {

namespace {

class FunctionLowering {
public:
  FunctionLowering(Function &F, const CodeLayout &Layout, const StringSet<> &AddressTaken)
      : F(F), M(*F.parent()), Layout(Layout), AddressTaken(AddressTaken) {}

  LongBranchStats run(const PassScope &Scope);

private:
  std::optional<std::string> prove(const Instruction &I);
  /// Sets \p I's target, or drops it (nullopt).
  void setTarget(Instruction &I, std::optional<std::string> Target);

  Function &F;
  Module &M;
  const CodeLayout &Layout;
  const StringSet<> &AddressTaken;
  /// The open entries and the walk over them, for the annotations F has
  /// now: they change only when an annotation is set or dropped, not per
  /// candidate.
  struct EntryState {
    SmallPtrSet<const BasicBlock *, 8> Open;
    ReachingDefs RD;
  };
  std::optional<EntryState> Entries;
};

void FunctionLowering::setTarget(Instruction &I, std::optional<std::string> Target) {
  if (Target)
    I.setModifier(std::make_unique<LabelData>(std::move(*Target)));
  else
    I.removeModifier(ModifierKind::LabelData);
  Entries.reset();
}

std::optional<std::string> FunctionLowering::prove(const Instruction &I) {
  if (!Entries) {
    SmallPtrSet<const BasicBlock *, 8> Open = openEntryBlocks(F, AddressTaken);
    Entries.emplace(EntryState{Open, ReachingDefs(M.target(), Open)});
  }
  const SmallPtrSet<const BasicBlock *, 8> &Open = Entries->Open;
  const BasicBlock *First = F.blocks().empty() ? nullptr : &F.blocks().front();
  AddressProofContext C{
      M, Entries->RD, Layout,
      [this](StringRef Label) -> const BasicBlock * { return F.findBlock(Label); },
      [&](const BasicBlock &BB) { return &BB == First || Open.count(&BB); }};
  if (isAddPc(I))
    return proveAddPcTarget(I, C);
  MCRegister Pair = addressPairOf(I, M.target());
  if (!Pair.isValid())
    return std::nullopt;
  std::optional<std::vector<std::string>> Targets = provePairTargets(I, Pair, C);
  // A branch goes to one place: every reaching chain must agree.
  if (!Targets || Targets->size() != 1)
    return std::nullopt;
  return Targets->front();
}

LongBranchStats FunctionLowering::run(const PassScope &Scope) {
  LongBranchStats Stats;
  // Every function leaves with a CFG that reflects its metadata.
  buildCFG(F);
  std::vector<Instruction *> Candidates;
  for (BasicBlock &BB : F.blocks())
    for (Instruction &I : BB.instructions())
      if ((isIndirectBranch(I) || isAddPc(I)) && !I.getModifier<LabelData>() &&
          inScope(M, Scope, I))
        Candidates.push_back(&I);
  Stats.Unannotated = Candidates.size();
  if (Candidates.empty())
    return Stats;

  // Grow: annotate what the current CFG proves, rebuild, repeat. Each round
  // adds at least one annotation, so this ends.
  SmallPtrSet<Instruction *, 16> Ours;
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (Instruction *I : Candidates) {
      if (Ours.count(I))
        continue;
      if (std::optional<std::string> Target = prove(*I)) {
        setTarget(*I, std::move(Target));
        Ours.insert(I);
        Changed = true;
      }
    }
    if (Changed)
      buildCFG(F);
  }
  // Check: every annotation must still hold on the final CFG (later edges
  // can add paths). Drop any that does not, and check again.
  for (bool Dropped = !Ours.empty(); Dropped;) {
    Dropped = false;
    for (Instruction *I : Candidates) {
      if (!Ours.count(I))
        continue;
      std::optional<std::string> Target = prove(*I);
      if (!Target || *Target != I->getModifier<LabelData>()->Label) {
        setTarget(*I, std::nullopt);
        Ours.erase(I);
        Dropped = true;
      }
    }
    if (Dropped)
      buildCFG(F);
  }
  Stats.Resolved = Ours.size();
  return Stats;
}

class LongBranchLoweringPass final : public Pass {
public:
  StringRef name() const override { return "LongBranchLoweringPass"; }
  Expected<PreservedAnalyses> run(Module &M, AnalysisManager &AM,
                                  const PassScope &Scope) override {
    lowerLongBranches(M, Scope);
    // Metadata and the rebuilt CFG change what CFG-based analyses see.
    return PreservedAnalyses::none();
  }
};

} // namespace

LongBranchStats lowerLongBranches(Module &M, const PassScope &Scope) {
  LongBranchStats Total;
  CodeLayout Layout(M);
  StringSet<> AddressTaken = addressTakenLabels(M);
  for (Function &F : M.functions()) {
    LongBranchStats S = FunctionLowering(F, Layout, AddressTaken).run(Scope);
    Total.Unannotated += S.Unannotated;
    Total.Resolved += S.Resolved;
  }
  return Total;
}

Expected<std::unique_ptr<Pass>> createLongBranchLoweringPass(const PassArguments &Args) {
  return createArgumentlessPass<LongBranchLoweringPass>(Args);
}

} // namespace stinkytofu
