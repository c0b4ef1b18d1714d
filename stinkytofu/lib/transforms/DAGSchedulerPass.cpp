//===- DAGSchedulerPass.cpp - List scheduling of each region --------------===//
#include "stinkytofu/transforms/DAGSchedulerPass.h"
#include "stinkytofu/analysis/BlockCycleModel.h"
#include "stinkytofu/analysis/HazardAnalysis.h"
#include "stinkytofu/ir/Module.h"
#include "stinkytofu/transforms/RegionReorder.h"
#include "stinkytofu/transforms/RewriteSupport.h"
#include <numeric>
#include <optional>

using namespace llvm;

namespace stinkytofu {

namespace {

/// One wave's in-order issue of a region's nodes, in the order they are
/// issued: each holds the issue port for its issue cycles, waits for its
/// DAG predecessors (a data edge: the producer's result), and a matrix
/// product for the matrix pipe. Memory results come back in issue order
/// per address space, as the counters the waits use count them: a result
/// is not there before the results of older accesses of its space.
class IssueSimulation {
public:
  IssueSimulation(const DependenceDAG &DAG, const BlockCycleModel &Timing)
      : DAG(DAG), ReadyAt(DAG.size(), 0) {
    for (unsigned Node = 0; Node != DAG.size(); ++Node)
      Times.push_back(Timing.timesOf(DAG.instruction(Node)));
  }

  /// The cycle \p Node would issue at now.
  uint64_t startOf(unsigned Node) const {
    uint64_t Start = std::max(Cycle, ReadyAt[Node]);
    return Times[Node].MatrixPipe ? std::max(Start, MatrixFree) : Start;
  }

  void issue(unsigned Node) {
    uint64_t Start = startOf(Node);
    Cycle = Start + std::max(1u, Times[Node].Issue);
    if (Times[Node].MatrixPipe)
      MatrixFree = Start + Times[Node].MatrixPipe;
    uint64_t Done = Start + Times[Node].Latency;
    for (unsigned S = 0; S != NumMemorySpaces; ++S)
      if (DAG.effects(Node).Memory[S].any()) {
        Done = std::max(Done, MemoryDone[S]);
        MemoryDone[S] = Done;
      }
    End = std::max(End, Done);
    for (unsigned EdgeIdx : DAG.succs(Node)) {
      const DepEdge &E = DAG.edges()[EdgeIdx];
      uint64_t Ready = E.Kind == DepKind::Data ? std::max(Start + E.Latency, Done)
                                               : Start + E.Latency;
      ReadyAt[E.To] = std::max(ReadyAt[E.To], Ready);
    }
  }

  /// When the last result is there.
  uint64_t end() const { return std::max(End, Cycle); }

private:
  const DependenceDAG &DAG;
  std::vector<InstTimes> Times;
  std::vector<uint64_t> ReadyAt;
  std::array<uint64_t, NumMemorySpaces> MemoryDone{};
  uint64_t Cycle = 0, MatrixFree = 0, End = 0;
};

} // namespace

std::vector<unsigned> listSchedule(const DependenceDAG &DAG, const BlockCycleModel &Timing) {
  const unsigned N = DAG.size();
  IssueSimulation Sim(DAG, Timing);
  std::vector<unsigned> Pending(N), Ready, Order;
  for (unsigned Node = 0; Node != N; ++Node)
    if (!(Pending[Node] = DAG.preds(Node).size()))
      Ready.push_back(Node);
  auto Key = [&](unsigned Node) {
    return std::make_tuple(Sim.startOf(Node), -int64_t(DAG.heightOf(Node)), Node);
  };
  while (!Ready.empty()) {
    // Soonest first, then the critical path, then the input order.
    auto Best = Ready.begin();
    for (auto It = Ready.begin(); It != Ready.end(); ++It)
      if (Key(*It) < Key(*Best))
        Best = It;
    unsigned Node = *Best;
    Ready.erase(Best);
    Sim.issue(Node);
    Order.push_back(Node);
    for (unsigned EdgeIdx : DAG.succs(Node))
      if (!--Pending[DAG.edges()[EdgeIdx].To])
        Ready.push_back(DAG.edges()[EdgeIdx].To);
  }
  return Order;
}

uint64_t simulatedCycles(const DependenceDAG &DAG, ArrayRef<unsigned> Order,
                         const BlockCycleModel &Timing) {
  IssueSimulation Sim(DAG, Timing);
  for (unsigned Node : Order)
    Sim.issue(Node);
  return Sim.end();
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
      // The hazard wait states a region needs cost cycles the timing model
      // does not see (the hazard recognizer inserts them later).
      std::optional<HazardAnalysis> Hazards;
      if (F.hasValidCFG())
        Hazards.emplace(F, HazardModel::of(M.target()));
      auto HazardWaits = [&](const ScheduleRegion &Region) -> uint64_t {
        if (!Hazards)
          return 0;
        Hazards->refresh(*Region.Block);
        uint64_t Waits = 0;
        for (const Instruction *I : Region.Insts) {
          HazardNeeds Needs = Hazards->needs(*I);
          Waits += Needs.States + Needs.Valus;
        }
        return Waits;
      };
      for (unsigned R = 0; R != Deps.regions().size(); ++R) {
        const ScheduleRegion &Region = Deps.regions()[R];
        const DependenceDAG &DAG = Deps.dag(R);
        ++Regions;
        std::vector<unsigned> Order = listSchedule(DAG, Timing);
        std::vector<unsigned> Input(DAG.size());
        std::iota(Input.begin(), Input.end(), 0u);
        // The region's own estimate, memory results in issue order, must
        // get better; then the block's must too, hazard wait states
        // included.
        if (simulatedCycles(DAG, Order, Timing) >= simulatedCycles(DAG, Input, Timing))
          continue;
        uint64_t Before = Timing.estimate(*Region.Block).Cycles + HazardWaits(Region);
        Expected<bool> Moved = reorderRegion(Region, Order, Deps.effects());
        if (!Moved)
          return Moved.takeError();
        if (!*Moved)
          continue;
        uint64_t After = Timing.estimate(*Region.Block).Cycles + HazardWaits(Region);
        if (After < Before) {
          ++Scheduled;
          Saved += Before - After;
          continue;
        }
        // Not better: back to the input order.
        if (Expected<bool> Back = reorderRegion(Region, Input, Deps.effects()); !Back)
          return Back.takeError();
        if (Hazards)
          Hazards->refresh(*Region.Block);
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
