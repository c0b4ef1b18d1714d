//===- EpilogueStoreSinkPass.cpp - Stores late and in groups --------------===//
#include "stinkytofu/transforms/EpilogueStoreSinkPass.h"

#include "stinkytofu/analysis/BlockCycleModel.h"
#include "stinkytofu/analysis/InstructionEffects.h"
#include "stinkytofu/analysis/ScheduleValidator.h"
#include "stinkytofu/hw/HardwareModel.h"
#include "stinkytofu/hw/TargetInfo.h"
#include "stinkytofu/hw/VgprMsb.h"
#include "stinkytofu/hw/WaitCounters.h"
#include "stinkytofu/ir/Module.h"
#include "stinkytofu/transforms/RewriteSupport.h"
#include "llvm/ADT/STLExtras.h"

using namespace llvm;

namespace stinkytofu {
namespace {

// The reference's defaults: how many VALU a store sinks past, and how many
// stores one group holds.
constexpr unsigned TargetValu = 10;
constexpr unsigned MaxStoreGroupSize = 4;

class EpilogueStoreSinkPass final : public Pass {
public:
  EpilogueStoreSinkPass(bool Group, bool Guard) : Group(Group), Guard(Guard) {}
  StringRef name() const override { return "EpilogueStoreSinkPass"; }

  Expected<PreservedAnalyses> run(Module &M, AnalysisManager &, const PassScope &Scope) override {
    Context C{M, EffectModel(M.target()), CounterModel(M.target()), BlockCycleModel(M), nullptr};
    // The guard matters where an MSB switch drains xcnt: VGPR MSBs and
    // XNACK replay (an xcnt counter).
    std::optional<VgprMsbCodec> Codec;
    if (Guard && C.Counters.hardware().hasHighVgprs() && C.Counters.counterNamed("xcnt")) {
      Codec.emplace(M.target());
      C.Codec = &*Codec;
    }
    unsigned Moved = 0;
    for (Function &F : M.functions())
      for (BasicBlock &BB : F.blocks())
        for (std::vector<Instruction *> &Run : runsOf(M, Scope, BB)) {
          Moved += sinkStores(C, Run);
          if (Group)
            Moved += groupStores(C, Run);
        }
    return Moved ? PreservedAnalyses::none() : PreservedAnalyses::all();
  }

private:
  struct Context {
    const Module &M;
    EffectModel EM;
    CounterModel Counters;
    BlockCycleModel Timing;
    VgprMsbCodec *Codec;
  };

  /// The runs of machine instructions in scope between the block's
  /// directives (an instruction never crosses one).
  static std::vector<std::vector<Instruction *>> runsOf(const Module &M, const PassScope &Scope,
                                                        BasicBlock &BB) {
    std::vector<std::vector<Instruction *>> Runs(1);
    for (BlockItem &Item : BB.items()) {
      auto *I = dyn_cast<Instruction>(&Item);
      if (!I || !isRewritable(M, Scope, *I)) {
        if (!Runs.back().empty())
          Runs.emplace_back();
        continue;
      }
      Runs.back().push_back(I);
    }
    return Runs;
  }

  static MemoryAccess accessOf(const Context &C, const Instruction &I) {
    return C.Counters.classify(I.mcInsts().front(), I.mnemonic());
  }

  /// A global or buffer store, or a store from LDS (not an atomic, not a
  /// scratch spill: the timing class MC's flags give).
  static bool isStore(const Context &C, const Instruction &I) {
    const InstClass *Class = C.Timing.timesOf(I).Class;
    if (I.mcInsts().size() != 1 || (Class && Class->Name == "SCRATCH"))
      return false;
    MemoryAccess A = accessOf(C, I);
    return !A.Atomic && !A.GenericFlat && !A.has(WaitEvent::VmemLoad) &&
           (A.has(WaitEvent::VmemStore) || (A.has(WaitEvent::AsyncLds) && A.ReadsLds));
  }

  /// What makes the ALU-hazard wait before a store count: VALU, TRANS and
  /// matrix instructions (the timing classes MC's flags give).
  static bool countsAsValu(const Context &C, const Instruction &I) {
    const InstClass *Class = C.Timing.timesOf(I).Class;
    return Class && is_contained({StringRef("VALU"), StringRef("TRANS"), StringRef("MFMA"),
                                  StringRef("WMMA")},
                                 Class->Name);
  }

  static bool isCounterWait(const Instruction &I) {
    return !HardwareModel::waitCounters(I.mnemonic().lower()).empty();
  }

  /// A memory-counter wait none of whose counters \p Store counts on.
  static bool waitsOnOtherCounters(const Context &C, const Instruction &Store,
                                   const Instruction &Wait) {
    std::optional<WaitCounts> W = C.Counters.decodeWait(Wait.mcInsts().front(), Wait.mnemonic());
    if (!W)
      return false;
    MemoryAccess A = accessOf(C, Store);
    for (unsigned E = 0; E < NumWaitEvents; ++E)
      if (A.has(WaitEvent(E)))
        if (std::optional<unsigned> Counter = C.Counters.counterOf(WaitEvent(E));
            Counter && W->waits(*Counter))
          return false;
    return true;
  }

  /// Whether \p Store may be moved across \p X: no memory, no fence (but a
  /// wait on other counters when \p PastWaits), no write of its sources.
  static bool mayCross(const Context &C, const Instruction &Store, const Instruction &X,
                       bool PastWaits) {
    if (isCounterWait(X))
      return PastWaits && waitsOnOtherCounters(C, Store, X);
    InstructionEffects E = C.EM.effectsOf(X);
    return !E.Fence && !E.accessesMemory() && !E.Writes.anyCommon(C.EM.effectsOf(Store).Reads);
  }

  /// The MSB state \p X needs is not the store's: a switch between them.
  static bool banksDiffer(const Context &C, const Instruction &Store, const Instruction &X) {
    if (!C.Codec || X.mcInsts().size() != 1)
      return false;
    Expected<VgprMsbNeed> Mine = C.Codec->need(Store.mcInsts().front());
    Expected<VgprMsbNeed> Theirs = C.Codec->need(X.mcInsts().front());
    if (!Mine || !Theirs) {
      consumeError(Mine.takeError());
      consumeError(Theirs.takeError());
      return true;
    }
    // The state each needs, the slots it leaves alone at bank 0 (as the
    // reference compares the MSB values).
    return Theirs->any() && Theirs->Value != Mine->Value;
  }

  /// Moves \p Run[From] to index \p To when the validator proves the new
  /// order computes the same (counter waits and nops left out, as
  /// --verify-schedule does); whether it moved.
  static bool moveProven(const Context &C, std::vector<Instruction *> &Run, unsigned From,
                         unsigned To) {
    std::vector<Instruction *> New = Run;
    Instruction *Store = New[From];
    New.erase(New.begin() + From);
    New.insert(New.begin() + To, Store);
    auto Compared = [](ArrayRef<Instruction *> Order) {
      std::vector<const Instruction *> Kept;
      for (const Instruction *I : Order)
        if (!isCounterWait(*I) && !HardwareModel::isHazardWait(I->mnemonic().lower()))
          Kept.push_back(I);
      return Kept;
    };
    if (Error Refused = validateReordering(Compared(Run), Compared(New), C.EM)) {
      consumeError(std::move(Refused));
      return false;
    }
    if (To > From)
      Store->moveAfter(*Run[To]);
    else
      Store->moveBefore(*Run[To]);
    Run = std::move(New);
    return true;
  }

  static unsigned sinkStores(const Context &C, std::vector<Instruction *> &Run) {
    unsigned Moved = 0;
    for (unsigned K = Run.size(); K--;) {
      Instruction &Store = *Run[K];
      if (!isStore(C, Store))
        continue;
      unsigned Valu = 0, Dest = K;
      for (unsigned J = K + 1; J < Run.size() && Valu < TargetValu; ++J) {
        if (!mayCross(C, Store, *Run[J], /*PastWaits=*/true) || banksDiffer(C, Store, *Run[J]))
          break;
        if (countsAsValu(C, *Run[J]))
          ++Valu;
        Dest = J;
      }
      // Nothing to gain without a VALU crossed; land right after the last.
      while (Dest > K && !countsAsValu(C, *Run[Dest]))
        --Dest;
      if (Valu && Dest > K && moveProven(C, Run, K, Dest))
        ++Moved;
    }
    return Moved;
  }

  static unsigned groupStores(const Context &C, std::vector<Instruction *> &Run) {
    unsigned Moved = 0;
    std::vector<Instruction *> Stores;
    for (Instruction *I : Run)
      if (isStore(C, *I))
        Stores.push_back(I);
    for (unsigned First = 0; First < Stores.size();) {
      unsigned Size = 1;
      for (; Size < MaxStoreGroupSize && First + Size < Stores.size(); ++Size) {
        unsigned Anchor = find(Run, Stores[First + Size - 1]) - Run.begin();
        unsigned At = find(Run, Stores[First + Size]) - Run.begin();
        bool Clear = all_of(ArrayRef(Run).slice(Anchor + 1, At - Anchor - 1),
                            [&](const Instruction *X) {
                              return mayCross(C, *Stores[First + Size], *X, /*PastWaits=*/false);
                            });
        if (!Clear)
          break;
        if (At == Anchor + 1)
          continue;
        if (!moveProven(C, Run, At, Anchor + 1))
          break;
        ++Moved;
      }
      First += Size;
    }
    return Moved;
  }

  bool Group, Guard;
};

} // namespace

Expected<std::unique_ptr<Pass>> createEpilogueStoreSinkPass(const PassArguments &Args) {
  bool Group = true, Guard = true;
  for (const auto &[Key, Value] : Args) {
    if (Key == "noStoreGroup" && Value.empty())
      Group = false;
    else if (Key == "noGuard" && Value.empty())
      Guard = false;
    else
      return createStringError(inconvertibleErrorCode(),
                               "takes noStoreGroup and noGuard, not '" + Key +
                                   (Value.empty() ? "" : "=" + Value) + "'");
  }
  return std::make_unique<EpilogueStoreSinkPass>(Group, Guard);
}

} // namespace stinkytofu
