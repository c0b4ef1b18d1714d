//===- WaitAwareScheduleRepairPass.cpp - Work behind wait-anchored matrix ops -===//
#include "stinkytofu/transforms/WaitAwareScheduleRepairPass.h"
#include "stinkytofu/analysis/BlockCycleModel.h"
#include "stinkytofu/analysis/DependenceDAG.h"
#include "stinkytofu/analysis/ScheduleValidator.h"
#include "stinkytofu/hw/HardwareModel.h"
#include "stinkytofu/ir/Module.h"
#include "llvm/ADT/StringExtras.h"

using namespace llvm;

namespace stinkytofu {
namespace {

bool isMemoryCounterWait(const Instruction &I) {
  return I.kind() == InstKind::Machine &&
         !HardwareModel::waitCounters(I.mnemonic().lower()).empty();
}

class WaitAwareScheduleRepairPass final : public Pass {
public:
  WaitAwareScheduleRepairPass(unsigned Slots, bool Stats) : Slots(Slots), Stats(Stats) {}
  StringRef name() const override { return "WaitAwareScheduleRepairPass"; }

  Expected<PreservedAnalyses> run(Module &M, AnalysisManager &, const PassScope &) override {
    EffectModel EM(M.target());
    BlockCycleModel Timing(M);
    unsigned Anchors = 0, Moved = 0;
    if (Slots)
      for (Function &F : M.functions())
        for (ScheduleRegion &R : scheduleRegions(F))
          repairRegion(R.Insts, EM, Timing, Anchors, Moved);
    if (Stats)
      context().statsStream() << name() << ": " << Anchors << " wait-anchored matrix "
                              << "instructions, " << Moved << " instructions moved past them\n";
    return Moved ? PreservedAnalyses::none() : PreservedAnalyses::all();
  }

private:
  void repairRegion(std::vector<Instruction *> Insts, const EffectModel &EM,
                    const BlockCycleModel &Timing, unsigned &Anchors, unsigned &Moved) const {
    auto IsMatrix = [&](const Instruction *I) { return Timing.timesOf(*I).MatrixPipe != 0; };
    for (unsigned A = 1; A < Insts.size(); ++A) {
      if (!IsMatrix(Insts[A]) || !isMemoryCounterWait(*Insts[A - 1]))
        continue;
      ++Anchors;
      unsigned FirstWait = A - 1;
      while (FirstWait && isMemoryCounterWait(*Insts[FirstWait - 1]))
        --FirstWait;
      // The moves are proven on the region without this anchor's waits.
      std::vector<const Instruction *> Old(Insts.begin(), Insts.begin() + FirstWait);
      Old.insert(Old.end(), Insts.begin() + A, Insts.end());
      auto Reordered = [&](ArrayRef<Instruction *> Behind) {
        std::vector<const Instruction *> New;
        for (const Instruction *I : Old) {
          if (is_contained(Behind, I))
            continue;
          New.push_back(I);
          if (I == Insts[A])
            New.insert(New.end(), Behind.rbegin(), Behind.rend());
        }
        return New;
      };
      // Behind: the instructions to move, the last of the window first.
      std::vector<Instruction *> Behind;
      for (unsigned K = FirstWait; K-- && Behind.size() < Slots;) {
        Instruction *X = Insts[K];
        InstructionEffects E = EM.effectsOf(*X);
        if (E.Fence || IsMatrix(X))
          break;
        if (E.accessesMemory())
          continue;
        Behind.push_back(X);
        if (Error Refused = validateReordering(Old, Reordered(Behind), EM)) {
          consumeError(std::move(Refused));
          Behind.pop_back();
        }
      }
      Instruction *Prev = Insts[A];
      for (Instruction *X : reverse(Behind)) {
        X->moveAfter(*Prev);
        Prev = X;
        Insts.erase(find(Insts, X));
        --A;
      }
      Insts.insert(Insts.begin() + A + 1, Behind.rbegin(), Behind.rend());
      Moved += Behind.size();
    }
  }

  unsigned Slots;
  bool Stats;
};

} // namespace

Expected<std::unique_ptr<Pass>> createWaitAwareScheduleRepairPass(const PassArguments &Args) {
  int Slots = 1;
  bool Stats = false;
  for (const auto &[Key, Value] : Args) {
    if (Key == "kSlotsToMovePastAnchor" && to_integer(Value, Slots, 10))
      continue;
    if (Key == "stats" && Value.empty()) {
      Stats = true;
      continue;
    }
    return createStringError(inconvertibleErrorCode(),
                             "takes kSlotsToMovePastAnchor=N and stats, not '" + Key +
                                 (Value.empty() ? "" : "=" + Value) + "'");
  }
  return std::make_unique<WaitAwareScheduleRepairPass>(Slots > 0 ? unsigned(Slots) : 0, Stats);
}

} // namespace stinkytofu
