//===- DAGSchedulerPass.cpp - List scheduling of each region --------------===//
#include "stinkytofu/transforms/DAGSchedulerPass.h"
#include "stinkytofu/analysis/BlockCycleModel.h"
#include "stinkytofu/ir/Module.h"
#include "stinkytofu/transforms/RegionReorder.h"
#include "stinkytofu/transforms/RewriteSupport.h"
#include <numeric>

using namespace llvm;

namespace stinkytofu {

std::vector<unsigned> listSchedule(const DependenceDAG &DAG, const BlockCycleModel &Timing) {
  const unsigned N = DAG.size();
  std::vector<InstTimes> Times;
  for (unsigned Node = 0; Node != N; ++Node)
    Times.push_back(Timing.timesOf(DAG.instruction(Node)));
  std::vector<unsigned> Pending(N), Order;
  // The cycle each node's predecessors let it issue at.
  std::vector<uint64_t> ReadyAt(N, 0);
  std::vector<unsigned> Ready;
  for (unsigned Node = 0; Node != N; ++Node)
    if (!(Pending[Node] = DAG.preds(Node).size()))
      Ready.push_back(Node);
  uint64_t Cycle = 0, MatrixFree = 0;
  auto StartOf = [&](unsigned Node) {
    uint64_t Start = std::max(Cycle, ReadyAt[Node]);
    return Times[Node].MatrixPipe ? std::max(Start, MatrixFree) : Start;
  };
  while (!Ready.empty()) {
    // Soonest first, then the critical path, then the input order.
    auto Best = Ready.begin();
    for (auto It = Ready.begin(); It != Ready.end(); ++It) {
      auto Key = [&](unsigned Node) {
        return std::make_tuple(StartOf(Node), -int64_t(DAG.heightOf(Node)), Node);
      };
      if (Key(*It) < Key(*Best))
        Best = It;
    }
    unsigned Node = *Best;
    Ready.erase(Best);
    uint64_t Start = StartOf(Node);
    Order.push_back(Node);
    Cycle = Start + std::max(1u, Times[Node].Issue);
    if (Times[Node].MatrixPipe)
      MatrixFree = Start + Times[Node].MatrixPipe;
    for (unsigned EdgeIdx : DAG.succs(Node)) {
      const DepEdge &E = DAG.edges()[EdgeIdx];
      ReadyAt[E.To] = std::max(ReadyAt[E.To], Start + E.Latency);
      if (!--Pending[E.To])
        Ready.push_back(E.To);
    }
  }
  return Order;
}

namespace {

class StinkyDAGSchedulerPass final : public Pass {
public:
  StringRef name() const override { return "StinkyDAGSchedulerPass"; }

  Expected<PreservedAnalyses> run(Module &M, AnalysisManager &AM, const PassScope &) override {
    BlockCycleModel Timing(M);
    unsigned Regions = 0, Scheduled = 0;
    uint64_t Saved = 0;
    for (Function &F : M.functions()) {
      FunctionDependences &Deps = AM.getResult<DependenceDAGAnalysis>(F);
      for (unsigned R = 0; R != Deps.regions().size(); ++R) {
        const ScheduleRegion &Region = Deps.regions()[R];
        const DependenceDAG &DAG = Deps.dag(R);
        ++Regions;
        std::vector<unsigned> Order = listSchedule(DAG, Timing);
        uint64_t Before = Timing.estimate(*Region.Block).Cycles;
        Expected<bool> Moved = reorderRegion(Region, Order, Deps.effects());
        if (!Moved)
          return Moved.takeError();
        if (!*Moved)
          continue;
        uint64_t After = Timing.estimate(*Region.Block).Cycles;
        if (After < Before) {
          ++Scheduled;
          Saved += Before - After;
          continue;
        }
        // Not better: back to the input order.
        std::vector<unsigned> Input(DAG.size());
        std::iota(Input.begin(), Input.end(), 0u);
        if (Expected<bool> Back = reorderRegion(Region, Input, Deps.effects()); !Back)
          return Back.takeError();
      }
    }
    if (Stats)
      context().statsStream() << "StinkyDAGSchedulerPass: " << Regions << " regions, "
                              << Scheduled << " reordered, " << Saved
                              << " estimated cycles saved\n";
    return Scheduled ? PreservedAnalyses::none() : PreservedAnalyses::all();
  }

  bool Stats = false;
};

} // namespace

Expected<std::unique_ptr<Pass>> createStinkyDAGSchedulerPass(const PassArguments &Args) {
  auto P = std::make_unique<StinkyDAGSchedulerPass>();
  if (Error E = parseFlagArguments(Args, {{"stats", &P->Stats}}))
    return std::move(E);
  return std::move(P);
}

} // namespace stinkytofu
