//===- MergeBarrierPass.cpp - Fuse barrier groups close together in loops -===//
#include "stinkytofu/transforms/MergeBarrierPass.h"
#include "stinkytofu/analysis/BlockCycleModel.h"
#include "stinkytofu/analysis/DependenceDAG.h"
#include "stinkytofu/analysis/LoopInfo.h"
#include "stinkytofu/hw/HardwareModel.h"
#include "stinkytofu/ir/Module.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include <set>

using namespace llvm;

namespace stinkytofu {
namespace {

using TokenSet = std::set<int64_t>;

/// The tokens of a barrier with LDS dependences; empty for anything else.
TokenSet barrierTokens(const Instruction &I) {
  const auto *Deps = I.getModifier<LdsDependenceData>();
  if (!Deps || I.kind() != InstKind::Machine)
    return {};
  InstRole Role = HardwareModel::roleOf(I.mnemonic().lower());
  if (Role != InstRole::Barrier && Role != InstRole::BarrierWait)
    return {};
  return TokenSet(Deps->Defs.begin(), Deps->Defs.end());
}

bool isBarrier(const Instruction &I) {
  InstRole Role = HardwareModel::roleOf(I.mnemonic().lower());
  return Role == InstRole::Barrier || Role == InstRole::BarrierWait;
}

/// A nop or an ALU wait: a fence of one wave's issue, nothing other waves
/// see. A memory-counter wait is not one of them: it may be what makes the
/// second barrier publish a global access.
bool isIssueOnlyFence(const Instruction &I) {
  return HardwareModel::isHazardWait(I.mnemonic().lower());
}

/// Adjacent barriers [First, Last] of one region with the same tokens.
struct BarrierGroup {
  unsigned First, Last;
  TokenSet Tokens;
};

class MergeBarrierPass final : public Pass {
public:
  explicit MergeBarrierPass(unsigned Threshold) : Threshold(Threshold) {}
  StringRef name() const override { return "StinkyMergeBarrierPass"; }

  Expected<PreservedAnalyses> run(Module &M, AnalysisManager &AM, const PassScope &) override {
    EffectModel EM(M.target());
    BlockCycleModel Timing(M);
    unsigned Erased = 0;
    for (Function &F : M.functions()) {
      Expected<LoopInfo &> Loops = AM.getResult<LoopAnalysis>(F);
      if (!Loops)
        return Loops.takeError();
      for (ScheduleRegion &R : scheduleRegions(F))
        if (Loops->loopFor(R.Block))
          Erased += mergeInRegion(R.Insts, EM, Timing);
    }
    return Erased ? PreservedAnalyses::none() : PreservedAnalyses::all();
  }

private:
  static std::vector<BarrierGroup> groupsOf(ArrayRef<Instruction *> Insts) {
    std::vector<BarrierGroup> Groups;
    for (unsigned K = 0; K != Insts.size(); ++K) {
      TokenSet Tokens = barrierTokens(*Insts[K]);
      if (Tokens.empty())
        continue;
      if (!Groups.empty() && Groups.back().Last + 1 == K && Groups.back().Tokens == Tokens)
        Groups.back().Last = K;
      else
        Groups.push_back({K, K, std::move(Tokens)});
    }
    return Groups;
  }

  /// Whether the first barrier of \p A orders every LDS access of the
  /// tokens \p Merged as the barrier group after \p Between did.
  static bool provenMergeable(ArrayRef<Instruction *> Between, const TokenSet &Merged,
                              const EffectModel &EM) {
    for (const Instruction *I : Between) {
      if (I->kind() != InstKind::Machine || isBarrier(*I))
        return false;
      InstructionEffects E = EM.effectsOf(*I);
      if (E.Fence && !isIssueOnlyFence(*I))
        return false;
      if (E.space(MemorySpace::Global).any() || E.space(MemorySpace::Gds).any())
        return false;
      if (E.space(MemorySpace::Lds).any() &&
          (E.LdsTokens.empty() ||
           any_of(E.LdsTokens, [&](int64_t T) { return Merged.count(T); })))
        return false;
    }
    return true;
  }

  unsigned cyclesBetween(ArrayRef<Instruction *> Between, const BlockCycleModel &Timing) const {
    unsigned Cycles = 0;
    for (const Instruction *I : Between) {
      InstTimes T = Timing.timesOf(*I);
      Cycles += T.MatrixPipe ? T.Latency : T.Issue;
    }
    return Cycles;
  }

  unsigned mergeInRegion(std::vector<Instruction *> Insts, const EffectModel &EM,
                         const BlockCycleModel &Timing) const {
    unsigned Erased = 0;
    for (bool Changed = true; Changed;) {
      Changed = false;
      std::vector<BarrierGroup> Groups = groupsOf(Insts);
      for (unsigned G = 0; G + 1 < Groups.size() && !Changed; ++G) {
        const BarrierGroup &A = Groups[G], &B = Groups[G + 1];
        ArrayRef<Instruction *> Between =
            ArrayRef(Insts).slice(A.Last + 1, B.First - A.Last - 1);
        TokenSet Merged = A.Tokens;
        Merged.insert(B.Tokens.begin(), B.Tokens.end());
        if (cyclesBetween(Between, Timing) >= Threshold ||
            !provenMergeable(Between, Merged, EM))
          continue;
        std::vector<int64_t> List(Merged.begin(), Merged.end());
        for (unsigned K = A.First; K <= A.Last; ++K) {
          Instruction &I = *Insts[K];
          I.setModifier(std::make_unique<MemTokenData>(List));
          I.setModifier(std::make_unique<LdsDependenceData>(List, List));
          I.setModifier(std::make_unique<CommentData>(
              "merged barrier, LDS tokens " + join(map_range(List, [](int64_t T) {
                                                     return std::to_string(T);
                                                   }),
                                                   ", ")));
        }
        for (unsigned K = B.First; K <= B.Last; ++K)
          Insts[K]->removeFromParent();
        Erased += B.Last - B.First + 1;
        Insts.erase(Insts.begin() + B.First, Insts.begin() + B.Last + 1);
        Changed = true;
      }
    }
    return Erased;
  }

  unsigned Threshold;
};

} // namespace

Expected<std::unique_ptr<Pass>> createStinkyMergeBarrierPass(const PassArguments &Args) {
  unsigned Threshold = 11;
  for (const auto &[Key, Value] : Args)
    if (Key != "threshold" || !to_integer(Value, Threshold, 10))
      return createStringError(inconvertibleErrorCode(),
                               "takes threshold=N (cycles), not '" + Key +
                                   (Value.empty() ? "" : "=" + Value) + "'");
  return std::make_unique<MergeBarrierPass>(Threshold);
}

} // namespace stinkytofu
