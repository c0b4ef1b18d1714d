//===- WmmaReorderPass.cpp - A new WMMA order for an unrolled loop ---------===//
#include "stinkytofu/transforms/WmmaReorderPass.h"

#include "stinkytofu/analysis/BlockCycleModel.h"
#include "stinkytofu/analysis/DependenceDAG.h"
#include "stinkytofu/hw/HardwareModel.h"
#include "stinkytofu/hw/TargetInfo.h"
#include "stinkytofu/ir/Module.h"
#include "stinkytofu/transforms/RegionReorder.h"
#include "stinkytofu/transforms/RewriteSupport.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include <numeric>
#include <queue>
#include <tuple>

using namespace llvm;

namespace stinkytofu {
namespace {

/// How the WMMAs of a loop are to be ordered.
struct WmmaOrderMode {
  bool Reverse = false;
  /// order=: the body position of the WMMA issuing at each place.
  std::vector<unsigned> Explicit;
  bool given() const { return Reverse || !Explicit.empty(); }
};

/// Where an instruction wants to go: before the WMMA at \c Slot of the new
/// order (WMMAs themselves after the loads of their slot), ties in program
/// order.
using PlaceKey = std::tuple<unsigned, bool, unsigned>;

class WmmaReorderPass final : public Pass {
public:
  WmmaReorderPass(WmmaOrderMode Mode, std::optional<unsigned> Distance, std::string LoopLabel)
      : Mode(std::move(Mode)), Distance(Distance), LoopLabel(std::move(LoopLabel)) {}
  StringRef name() const override { return "StinkyWmmaReorderPass"; }

  Expected<PreservedAnalyses> run(Module &M, AnalysisManager &AM, const PassScope &) override {
    // Every WMMA generation has this one.
    if (!targetHasMnemonic(M, "v_wmma_f32_16x16x16_f16"))
      return moduleError(M, name() + ": " + M.target().processor() +
                                " has no WMMA instructions (gfx11, gfx12, gfx1250)");
    bool Changed = false;
    for (Function &F : M.functions()) {
      // The graphs are built only for a function that has the loop.
      if (none_of(F.blocks(), [&](const BasicBlock &BB) { return BB.label() == LoopLabel; }))
        continue;
      FunctionDependences &Deps = AM.getResult<DependenceDAGAnalysis>(F);
      for (unsigned R = 0; R != Deps.regions().size(); ++R) {
        const ScheduleRegion &Region = Deps.regions()[R];
        if (Region.Block->label() != LoopLabel)
          continue;
        Expected<bool> Moved = reorderLoop(M, Deps, R);
        if (!Moved)
          return Moved.takeError();
        Changed |= *Moved;
      }
    }
    return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
  }

private:
  static bool isWmma(const Module &M, const Instruction &I) {
    return I.kind() == InstKind::Machine &&
           M.target().hardware().classify(I.mnemonic()).Name == "WMMA";
  }

  /// The WMMAs of \p Wmmas (nodes, in program order) in the mode's order.
  Expected<std::vector<unsigned>> newOrder(const Module &M, ArrayRef<unsigned> Wmmas) const {
    if (Mode.Reverse)
      return std::vector<unsigned>(Wmmas.rbegin(), Wmmas.rend());
    std::vector<unsigned> Order;
    SmallVector<bool, 16> Seen(Wmmas.size(), false);
    for (unsigned Position : Mode.Explicit) {
      if (Position >= Wmmas.size() || Seen[Position])
        return moduleError(M, name() + ": order= is not a permutation of the loop's " +
                                  Twine(Wmmas.size()) + " WMMAs");
      Seen[Position] = true;
      Order.push_back(Wmmas[Position]);
    }
    if (Order.size() != Wmmas.size())
      return moduleError(M, name() + ": order= names " + Twine(Order.size()) +
                                " positions, the loop has " + Twine(Wmmas.size()) + " WMMAs");
    return Order;
  }

  /// The loads' latency over the WMMAs' issue rate, rounded up (at least 1).
  static unsigned derivedDistance(const FunctionDependences &Deps, const DependenceDAG &DAG,
                                  ArrayRef<unsigned> Loads, ArrayRef<unsigned> Wmmas) {
    unsigned Latency = 0, Issue = 0;
    for (unsigned L : Loads)
      Latency = std::max(Latency, Deps.timing().timesOf(DAG.instruction(L)).Latency);
    for (unsigned W : Wmmas) {
      InstTimes T = Deps.timing().timesOf(DAG.instruction(W));
      Issue = std::max({Issue, T.Issue, T.MatrixPipe});
    }
    return Issue ? std::max(1u, divideCeil(Latency, Issue)) : 1;
  }

  Expected<bool> reorderLoop(Module &M, FunctionDependences &Deps, unsigned R) const {
    const ScheduleRegion &Region = Deps.regions()[R];
    const DependenceDAG &DAG = Deps.dag(R);
    raw_ostream &Stats = context().statsStream();
    std::vector<unsigned> Wmmas;
    for (unsigned N = 0; N != DAG.size(); ++N)
      if (isWmma(M, DAG.instruction(N)))
        Wmmas.push_back(N);
    if (Wmmas.size() < 2)
      return false;
    if (!Mode.given()) {
      Stats << name() << ": " << LoopLabel
            << ": no order (the reference's VGPR-pressure mode is not implemented; "
               "give reverse or order=)\n";
      return false;
    }
    Expected<std::vector<unsigned>> Order = newOrder(M, Wmmas);
    if (!Order)
      return Order.takeError();
    std::vector<unsigned> Rank(DAG.size(), ~0u);
    for (auto [Place, W] : enumerate(*Order))
      Rank[W] = Place;

    // A feeding load's first reader in the new order.
    std::vector<unsigned> FirstReader(DAG.size(), ~0u);
    std::vector<unsigned> Loads;
    for (unsigned N = 0; N != DAG.size(); ++N) {
      const SpaceAccess &Lds = DAG.effects(N).space(MemorySpace::Lds);
      if (Rank[N] != ~0u || !Lds.Reads || Lds.Writes || Lds.Ordered)
        continue;
      for (unsigned E : DAG.succs(N)) {
        const DepEdge &Edge = DAG.edges()[E];
        if (Edge.Kind == DepKind::Data && Rank[Edge.To] != ~0u)
          FirstReader[N] = std::min(FirstReader[N], Rank[Edge.To]);
      }
      if (FirstReader[N] != ~0u)
        Loads.push_back(N);
    }
    unsigned Lead = Distance ? *Distance : derivedDistance(Deps, DAG, Loads, Wmmas);

    std::vector<PlaceKey> Key(DAG.size());
    unsigned WmmasBefore = 0;
    for (unsigned N = 0; N != DAG.size(); ++N) {
      if (Rank[N] != ~0u) {
        Key[N] = {Rank[N], true, N};
        ++WmmasBefore;
      } else if (FirstReader[N] != ~0u) {
        Key[N] = {FirstReader[N] > Lead ? FirstReader[N] - Lead : 0, false, N};
      } else {
        Key[N] = {WmmasBefore, false, N};
      }
    }
    std::vector<unsigned> Scheduled = listSchedule(DAG, Key);
    Expected<bool> Moved = reorderRegion(Region, Scheduled, Deps.effects());
    if (Moved && *Moved)
      Stats << name() << ": " << LoopLabel << ": " << Wmmas.size() << " WMMAs, "
            << Loads.size() << " feeding loads, distance " << Lead << "\n";
    return Moved;
  }

  /// The DAG's nodes, each step the ready one of smallest key.
  static std::vector<unsigned> listSchedule(const DependenceDAG &DAG,
                                            ArrayRef<PlaceKey> Key) {
    std::vector<unsigned> Waiting(DAG.size());
    auto Later = [&](unsigned A, unsigned B) { return Key[A] > Key[B]; };
    std::priority_queue<unsigned, std::vector<unsigned>, decltype(Later)> Ready(Later);
    for (unsigned N = 0; N != DAG.size(); ++N)
      if (!(Waiting[N] = DAG.preds(N).size()))
        Ready.push(N);
    std::vector<unsigned> Order;
    while (!Ready.empty()) {
      unsigned N = Ready.top();
      Ready.pop();
      Order.push_back(N);
      for (unsigned E : DAG.succs(N))
        if (!--Waiting[DAG.edges()[E].To])
          Ready.push(DAG.edges()[E].To);
    }
    return Order;
  }

  WmmaOrderMode Mode;
  std::optional<unsigned> Distance;
  std::string LoopLabel;
};

} // namespace

Expected<std::unique_ptr<Pass>> createStinkyWmmaReorderPass(const PassArguments &Args) {
  WmmaOrderMode Mode;
  std::optional<unsigned> Distance;
  std::string LoopLabel = "label_LoopBeginL";
  for (const auto &[Key, Value] : Args) {
    if (Key == "reverse" && Value.empty() && Mode.Explicit.empty()) {
      Mode.Reverse = true;
      continue;
    }
    if (Key == "order" && !Mode.Reverse && Mode.Explicit.empty()) {
      SmallVector<StringRef, 16> Positions;
      SplitString(Value, Positions, ":");
      bool Valid = !Positions.empty();
      for (StringRef P : Positions)
        Valid &= to_integer(P, Mode.Explicit.emplace_back(), 10);
      if (Valid)
        continue;
    }
    unsigned N;
    if (Key == "distance" && to_integer(Value, N, 10)) {
      Distance = N;
      continue;
    }
    if (Key == "loop" && !Value.empty()) {
      LoopLabel = Value;
      continue;
    }
    return createStringError(inconvertibleErrorCode(),
                             "takes reverse or order=I:J:..., distance=N and loop=LABEL, not '" +
                                 Key + (Value.empty() ? "" : "=" + Value) + "'");
  }
  return std::make_unique<WmmaReorderPass>(std::move(Mode), Distance, std::move(LoopLabel));
}

} // namespace stinkytofu
