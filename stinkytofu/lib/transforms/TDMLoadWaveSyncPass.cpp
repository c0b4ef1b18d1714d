//===- TDMLoadWaveSyncPass.cpp - Barriers between tensor-load groups ------===//
#include "stinkytofu/transforms/TDMLoadWaveSyncPass.h"

#include "stinkytofu/hw/HardwareModel.h"
#include "stinkytofu/hw/TargetInfo.h"
#include "stinkytofu/hw/WaitCounters.h"
#include "stinkytofu/ir/Module.h"
#include "stinkytofu/mc/InstInserter.h"
#include "stinkytofu/transforms/CFGBuilderPass.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include <deque>
#include <map>
#include <set>

using namespace llvm;

namespace stinkytofu {
namespace {

using TokenSet = std::set<int64_t>;

bool overlaps(const TokenSet &A, const TokenSet &B) {
  return any_of(A, [&](int64_t T) { return B.count(T); });
}

/// The memory tokens of \p I (none without mod.memtoken).
TokenSet tokensOf(const Instruction &I) {
  const auto *T = I.getModifier<MemTokenData>();
  return T ? TokenSet(T->Tokens.begin(), T->Tokens.end()) : TokenSet();
}

/// A run of deferrable loads still waiting for the urgent load above it,
/// seen walking back: its first load (where a barrier would go) is the key
/// of the frontier, this is the rest.
struct OpenRun {
  TokenSet Tokens;
  /// Every path from the run back to here passed a barrier.
  bool BarrierBetween = false;
  /// The wait half of such a barrier (for its comment), while there is one
  /// on every path.
  Instruction *Witness = nullptr;
};
/// The open runs reaching a point, by first load (several when paths with
/// different runs join).
using Frontier = std::map<Instruction *, OpenRun>;

/// Joins \p From into \p Into; whether \p Into changed.
bool join(Frontier &Into, const Frontier &From) {
  bool Changed = false;
  for (const auto &[First, Run] : From) {
    auto [It, New] = Into.try_emplace(First, Run);
    if (New) {
      Changed = true;
      continue;
    }
    OpenRun &Mine = It->second;
    size_t Before = Mine.Tokens.size();
    Mine.Tokens.insert(Run.Tokens.begin(), Run.Tokens.end());
    Changed |= Mine.Tokens.size() != Before;
    bool Between = Mine.BarrierBetween && Run.BarrierBetween;
    Changed |= Between != Mine.BarrierBetween;
    Mine.BarrierBetween = Between;
    if (!Between)
      Mine.Witness = nullptr;
    else if (!Mine.Witness)
      Mine.Witness = Run.Witness;
  }
  return Changed;
}

class TDMLoadWaveSyncPass final : public Pass {
public:
  explicit TDMLoadWaveSyncPass(unsigned NumWaves) : NumWaves(NumWaves) {}
  StringRef name() const override { return "TDMLoadWaveSyncPass"; }

  Expected<PreservedAnalyses> run(Module &M, AnalysisManager &, const PassScope &Scope) override {
    CounterModel Counters(M.target());
    std::optional<unsigned> TensorCounter = Counters.counterOf(WaitEvent::TensorLds);
    if (!TensorCounter)
      return createStringError(inconvertibleErrorCode(),
                               name() + ": " + M.target().processor() +
                                   " has no tensor loads (the pass is for gfx1250)");
    if (NumWaves <= 1 || !coversWholeModule(Scope))
      return PreservedAnalyses::all();
    Walk W{Counters, *TensorCounter, {}, {}, {}};
    for (Function &F : M.functions()) {
      if (!F.hasValidCFG())
        buildCFG(F);
      for (BasicBlock &BB : F.blocks())
        for (Instruction &I : BB.instructions())
          if (std::optional<TokenSet> Drained = drainedBy(W, I))
            followWait(W, I, *Drained);
    }
    return apply(M, W);
  }

private:
  struct Walk {
    const CounterModel &Counters;
    unsigned TensorCounter;
    /// Barriers to insert: first deferrable load -> tokens of both groups.
    MapVector<Instruction *, TokenSet> Inserts;
    /// Barriers already at a split: first deferrable load -> its wait half.
    MapVector<Instruction *, Instruction *> Tags;
    /// The drained set named in a barrier's comment, by first load.
    std::map<Instruction *, TokenSet> DrainedAt;
  };

  static bool isTensorLoad(const Walk &W, const Instruction &I) {
    if (I.kind() != InstKind::Machine)
      return false;
    MemoryAccess A = W.Counters.classify(I.mcInsts().front(), I.mnemonic());
    return A.has(WaitEvent::TensorLds) && A.WritesLds;
  }

  /// The tokens a tensor-counter wait drains, when it names them.
  static std::optional<TokenSet> drainedBy(const Walk &W, const Instruction &I) {
    if (I.kind() != InstKind::Machine)
      return std::nullopt;
    std::optional<WaitCounts> Counts = W.Counters.decodeWait(I.mcInsts().front(), I.mnemonic());
    if (!Counts || !Counts->waits(W.TensorCounter))
      return std::nullopt;
    TokenSet Tokens = tokensOf(I);
    if (Tokens.empty())
      return std::nullopt;
    return Tokens;
  }

  static bool isBarrier(const Instruction &I) {
    InstRole Role = HardwareModel::roleOf(I.mnemonic().lower());
    return I.kind() == InstKind::Machine &&
           (Role == InstRole::Barrier || Role == InstRole::BarrierWait);
  }

  /// Walks \p Insts backward from frontier \p Open; true when every open run
  /// found its urgent load or a draining wait ended the path (nothing to
  /// carry to the predecessors), else \p Open is what reaches the top.
  static bool walkBack(Walk &W, ArrayRef<Instruction *> Insts, const TokenSet &Drained,
                       Frontier &Open) {
    for (Instruction *I : reverse(Insts)) {
      if (!isTensorLoad(W, *I)) {
        // A wait draining these tokens already separates the urgent loads
        // from everything above it.
        if (std::optional<TokenSet> Other = drainedBy(W, *I); Other && overlaps(*Other, Drained))
          return true;
        if (isBarrier(*I))
          for (auto &[First, Run] : Open) {
            Run.BarrierBetween = true;
            if (HardwareModel::roleOf(I->mnemonic().lower()) == InstRole::BarrierWait)
              Run.Witness = I;
          }
        continue;
      }
      TokenSet Tokens = tokensOf(*I);
      if (overlaps(Tokens, Drained)) {
        for (auto &[First, Run] : Open) {
          if (!Run.BarrierBetween) {
            TokenSet &Both = W.Inserts[First];
            Both.insert(Tokens.begin(), Tokens.end());
            Both.insert(Run.Tokens.begin(), Run.Tokens.end());
          } else if (Run.Witness) {
            W.Tags.insert({First, Run.Witness});
          } else {
            continue;
          }
          W.DrainedAt.try_emplace(First, Drained);
        }
        return true;
      }
      // A deferrable load lies on the path of every open run: they are one
      // run from here, starting at it.
      for (auto &[First, Run] : Open)
        Tokens.insert(Run.Tokens.begin(), Run.Tokens.end());
      Open.clear();
      Open.emplace(I, OpenRun{std::move(Tokens), false, nullptr});
    }
    return false;
  }

  static std::vector<Instruction *> instructionsOf(BasicBlock &BB, const Instruction *End) {
    std::vector<Instruction *> Insts;
    for (Instruction &I : BB.instructions()) {
      if (&I == End)
        break;
      Insts.push_back(&I);
    }
    return Insts;
  }

  /// The backward dataflow from one wait: a block is walked again only when
  /// the frontier reaching its end grows, so loops reach a fixed point.
  static void followWait(Walk &W, Instruction &Wait, const TokenSet &Drained) {
    BasicBlock &Home = *Wait.parent();
    Frontier Seed;
    if (walkBack(W, instructionsOf(Home, &Wait), Drained, Seed))
      return;
    std::map<BasicBlock *, Frontier> AtEnd;
    std::deque<BasicBlock *> Work;
    auto Propagate = [&](BasicBlock &From, const Frontier &Open) {
      for (BasicBlock *Pred : From.predecessors()) {
        bool New = !AtEnd.count(Pred);
        if (join(AtEnd[Pred], Open) || New)
          Work.push_back(Pred);
      }
    };
    Propagate(Home, Seed);
    while (!Work.empty()) {
      BasicBlock *BB = Work.front();
      Work.pop_front();
      Frontier Open = AtEnd[BB];
      if (!walkBack(W, instructionsOf(*BB, nullptr), Drained, Open))
        Propagate(*BB, Open);
    }
  }

  static std::string tokenList(const TokenSet &Tokens) {
    return join(map_range(Tokens, [](int64_t T) { return std::to_string(T); }), ",");
  }

  Expected<PreservedAnalyses> apply(Module &M, Walk &W) const {
    InstBuilder Builder(M);
    for (auto &[First, Both] : W.Inserts) {
      const TokenSet &Drained = W.DrainedAt[First];
      std::vector<int64_t> Tokens(Both.begin(), Both.end());
      std::vector<int64_t> DrainedList(Drained.begin(), Drained.end());
      InstInserter At(Builder);
      At.setInsertPointBefore(*First);
      for (StringRef Half : {"s_barrier_signal", "s_barrier_wait"}) {
        Expected<Instruction &> Barrier = At.build(Half, {BuildOperand::imm(-1)});
        if (!Barrier)
          return createStringError(inconvertibleErrorCode(),
                                   name() + ": " + M.target().processor() + " has no '" + Half +
                                       " -1': " + toString(Barrier.takeError()));
        Barrier->setModifier(std::make_unique<MemTokenData>(Tokens));
        Barrier->setModifier(std::make_unique<WaveSyncData>(DrainedList));
        if (Half == "s_barrier_wait")
          Barrier->setModifier(std::make_unique<CommentData>("TDM wait-group barrier [" +
                                                             tokenList(Drained) + "]"));
      }
    }
    // A barrier already at a split gets the comment, once.
    std::set<Instruction *> Tagged;
    for (auto &[First, Barrier] : W.Tags) {
      if (W.Inserts.count(First) || !Tagged.insert(Barrier).second)
        continue;
      std::string Tag = "TDM wait-group barrier [" + tokenList(W.DrainedAt[First]) + "]";
      const auto *Old = Barrier->getModifier<CommentData>();
      if (Old && StringRef(Old->Text).contains("TDM wait-group barrier"))
        continue;
      Barrier->setModifier(std::make_unique<CommentData>(Old ? Old->Text + "; " + Tag : Tag));
    }
    return W.Inserts.empty() ? PreservedAnalyses::all() : PreservedAnalyses::none();
  }

  unsigned NumWaves;
};

} // namespace

Expected<std::unique_ptr<Pass>> createTDMLoadWaveSyncPass(const PassArguments &Args) {
  unsigned NumWaves = 1;
  for (const auto &[Key, Value] : Args)
    if (Key != "NumWaves" || !to_integer(Value, NumWaves, 10) || NumWaves == 0)
      return createStringError(inconvertibleErrorCode(),
                               "takes NumWaves=N (at least 1), not '" + Key +
                                   (Value.empty() ? "" : "=" + Value) + "'");
  return std::make_unique<TDMLoadWaveSyncPass>(NumWaves);
}

} // namespace stinkytofu
