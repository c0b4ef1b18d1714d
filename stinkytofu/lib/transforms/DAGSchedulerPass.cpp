//===- DAGSchedulerPass.cpp - List scheduling of each region --------------===//
#include "stinkytofu/transforms/DAGSchedulerPass.h"
#include "stinkytofu/analysis/BlockCycleModel.h"
#include "stinkytofu/analysis/DepCtrHazards.h"
#include "stinkytofu/analysis/DelayAluAnalysis.h"
#include "stinkytofu/analysis/HazardAnalysis.h"
#include "stinkytofu/analysis/WaitCountAnalysis.h"
#include "stinkytofu/hw/HardwareModel.h"
#include "stinkytofu/hw/TargetInfo.h"
#include "stinkytofu/hw/VgprMsb.h"
#include "stinkytofu/ir/Module.h"
#include "stinkytofu/transforms/CFGBuilderPass.h"
#include "stinkytofu/transforms/RegionReorder.h"
#include "stinkytofu/transforms/RewriteSupport.h"
#include "stinkytofu/transforms/VgprMsbPasses.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include <numeric>
#include <optional>

using namespace llvm;

namespace stinkytofu {

namespace {

/// The list scheduler's priorities of a node: the longest latency path
/// from it to the region's end (DependenceDAG::heightOf), except that a
/// memory access counts its own latency on its way into a fence, not one
/// cycle: the fence after a load is usually the wait that drains it, so a
/// load issued late holds everything behind that wait. Among loads the same
/// wait drains, the one whose result is read sooner goes first (the longest
/// path through its data edges): a counted wait lets the newest accesses
/// go on, so those read later should be the newest.
struct Priority {
  uint64_t Height = 0, DataHeight = 0;
};

std::vector<Priority> priorities(const DependenceDAG &DAG, ArrayRef<InstTimes> Times) {
  std::vector<Priority> Of(DAG.size());
  for (unsigned Node = DAG.size(); Node-- > 0;) {
    bool Memory = DAG.effects(Node).accessesMemory();
    Priority &P = Of[Node];
    P.Height = Times[Node].Latency;
    for (unsigned EdgeIdx : DAG.succs(Node)) {
      const DepEdge &E = DAG.edges()[EdgeIdx];
      uint64_t Latency = Memory && E.Kind == DepKind::Order
                             ? std::max<uint64_t>(E.Latency, Times[Node].Latency)
                             : E.Latency;
      P.Height = std::max(P.Height, Latency + Of[E.To].Height);
      if (E.Kind == DepKind::Data)
        P.DataHeight = std::max(P.DataHeight, E.Latency + Of[E.To].Height);
    }
  }
  return Of;
}

} // namespace

std::vector<unsigned> listSchedule(const DependenceDAG &DAG, IssueState &State,
                                   const BlockCycleModel &Timing) {
  const unsigned N = DAG.size();
  std::vector<InstTimes> Times;
  for (unsigned Node = 0; Node != N; ++Node)
    Times.push_back(Timing.timesOf(DAG.instruction(Node)));
  std::vector<Priority> Priorities = priorities(DAG, Times);
  // When a node's operands are there, taken when its last predecessor
  // issued: the writers of what it reads are its predecessors, issued by
  // then, and a later writer of them is its successor.
  std::vector<uint64_t> OperandsAt(N, 0);
  std::vector<unsigned> Pending(N), Ready, Order;
  auto MakeReady = [&](unsigned Node) {
    OperandsAt[Node] = State.readyAt(DAG.instruction(Node));
    Ready.push_back(Node);
  };
  for (unsigned Node = 0; Node != N; ++Node)
    if (!(Pending[Node] = DAG.preds(Node).size()))
      MakeReady(Node);
  auto Key = [&](unsigned Node) {
    uint64_t Start = std::max(State.cycles(), OperandsAt[Node]);
    if (Times[Node].MatrixPipe)
      Start = std::max(Start, State.matrixFree());
    return std::make_tuple(Start, !Times[Node].MatrixPipe, -int64_t(Priorities[Node].Height),
                           -int64_t(Priorities[Node].DataHeight), Node);
  };
  while (!Ready.empty()) {
    // Soonest first; then a matrix product, which keeps the matrix pipe
    // busy while what is issued after it fills its passes; then the
    // critical path; then the result read soonest; then the input order.
    auto Best = Ready.begin();
    auto BestKey = Key(*Best);
    for (auto It = std::next(Ready.begin()); It != Ready.end(); ++It)
      if (auto K = Key(*It); K < BestKey) {
        Best = It;
        BestKey = K;
      }
    unsigned Node = *Best;
    Ready.erase(Best);
    State.issue(DAG.instruction(Node));
    Order.push_back(Node);
    for (unsigned EdgeIdx : DAG.succs(Node))
      if (!--Pending[DAG.edges()[EdgeIdx].To])
        MakeReady(DAG.edges()[EdgeIdx].To);
  }
  return Order;
}

std::vector<unsigned> listSchedule(const DependenceDAG &DAG, const BlockCycleModel &Timing) {
  IssueState State(Timing);
  return listSchedule(DAG, State, Timing);
}

namespace {

/// The cycles of blocks with what the passes after the scheduler put back:
/// BlockCycleModel's estimate with the memory waits the wait inserter will
/// place (WaitCountAnalysis's missing waits of the current order, which is
/// what StinkyWaitCntInsertionPass inserts), the depctr waits
/// InsertWaitAluPass will (findDepCtrWaitNeeds) and the s_delay_alu
/// InsertDelayAluPass will (DelayAluAnalysis), plus the hazard wait states
/// (HazardAnalysis) and the s_set_vgpr_msb writes the block needs.
class WaitAwareEstimate {
public:
  WaitAwareEstimate(Function &F, const BlockCycleModel &Timing, const CounterModel &Counters,
                    WaitCountCache &WaitCache, bool CheckCache, HazardTraitsCache &HazardTraits)
      : F(F), Timing(Timing), Counters(Counters), WaitCache(WaitCache),
        CheckCache(CheckCache),
        Hazards(F, HazardModel::of(Timing.target()), &HazardTraits, /*RecordStamps=*/true) {
    if (Timing.target().hardware().hasHighVgprs())
      Codec = std::make_unique<VgprMsbCodec>(Timing.target());
    for (const BasicBlock &BB : F.blocks())
      HazardsRead[&BB] = orderOf(BB);
  }

  Expected<DenseMap<const BasicBlock *, uint64_t>> of(ArrayRef<BasicBlock *> Blocks) {
    // Without branch correlation: the dataflow is cheaper, and a wait the
    // correlated analysis would leave out on an infeasible path costs the
    // same in both orders. The cache solves again only the blocks an order
    // changed and those their changed states reach.
    Expected<WaitCountAnalysis> A = WaitCountAnalysis::run(
        F, Counters,
        {.CorrelateBranches = false, .DescribePaths = false, .CheckCache = CheckCache},
        WaitCache);
    if (!A)
      return A.takeError();
    ExpectedWaits Waits;
    for (const MissingWait &W : A->missingWaits())
      Waits.Memory[W.Consumer] = W.Needed;
    for (const DepCtrWaitNeed &N : findDepCtrWaitNeeds(F, Timing.target()))
      Waits.DepCtrs[N.Consumer] |= N.Fields;
    DelayAluAnalysis AluDelays = DelayAluAnalysis::run(F);
    for (const DelayAluDemand &D : AluDelays.demands())
      Waits.AluDelays[D.Consumer] = {D.First, D.Second};
    DenseMap<const BasicBlock *, uint64_t> Cycles;
    for (BasicBlock *BB : Blocks) {
      // A block read again in the order the analysis read it last gives
      // the same entries.
      std::vector<const Instruction *> Order = orderOf(*BB);
      if (std::vector<const Instruction *> &Read = HazardsRead[BB]; Read != Order) {
        Hazards.refresh(*BB);
        Read = Order;
      }
      uint64_t HazardWaits = 0;
      for (const Instruction &I : BB->instructions()) {
        HazardNeeds Needs = Hazards.needs(I);
        HazardWaits += Needs.States + Needs.Valus;
      }
      Cycles[BB] = issueCycles(*BB, Waits) + HazardWaits;
    }
    return Cycles;
  }

private:
  /// What a block's issue cycles depend on: its instructions in order and
  /// the waits expected in front of each.
  struct ExpectedAt {
    const Instruction *Inst;
    std::optional<WaitCounts> Memory;
    uint8_t DepCtr = 0;
    std::optional<std::pair<uint8_t, uint8_t>> AluDelay;
    bool operator==(const ExpectedAt &) const = default;
  };
  struct KeptCycles {
    std::vector<ExpectedAt> Key;
    uint64_t Cycles;
  };

  static std::vector<const Instruction *> orderOf(const BasicBlock &BB) {
    std::vector<const Instruction *> Order;
    for (const Instruction &I : BB.instructions())
      Order.push_back(&I);
    return Order;
  }

  /// BlockCycleModel's estimate with \p Waits plus the s_set_vgpr_msb
  /// writes, kept per block: the guard asks again each round for blocks
  /// whose instructions and waits no order changed.
  uint64_t issueCycles(const BasicBlock &BB, const ExpectedWaits &Waits) {
    std::vector<ExpectedAt> Key;
    for (const Instruction &I : BB.instructions()) {
      ExpectedAt &At = Key.emplace_back(ExpectedAt{&I, std::nullopt, 0, std::nullopt});
      if (auto It = Waits.Memory.find(&I); It != Waits.Memory.end())
        At.Memory = It->second;
      At.DepCtr = Waits.DepCtrs.lookup(&I);
      if (auto It = Waits.AluDelays.find(&I); It != Waits.AluDelays.end())
        At.AluDelay = It->second;
    }
    std::vector<KeptCycles> &Kept = Estimated[&BB];
    for (const KeptCycles &K : Kept)
      if (K.Key == Key)
        return K.Cycles;
    uint64_t Cycles = Timing.estimate(BB, Waits).Cycles + msbWrites(BB);
    Kept.push_back({std::move(Key), Cycles});
    return Cycles;
  }

  /// The s_set_vgpr_msb writes (one issue cycle each) InsertVgprMsbPass
  /// puts into \p BB on a target with VGPRs 256 and up, which the
  /// scheduler sees as logical registers: those RaiseVgprMsbPass took out
  /// come back with the instruction they stood at, where they still serve
  /// it, and a new one goes before each instruction whose slots need other
  /// banks than the state has. A new order that alternates banks costs a
  /// write at each change. The block starts with no bank known.
  uint64_t msbWrites(const BasicBlock &BB) {
    if (!Codec)
      return 0;
    uint8_t Known = 0, Value = 0;
    uint64_t Writes = 0;
    auto Restore = [&](ArrayRef<RaisedVgprMsbData::Switch> Raised) {
      Writes += Raised.size();
      Known = 0xFF;
      Value = vgprmsb::stateOfImmediate(Raised.back().Immediate);
    };
    for (const Instruction &I : BB.instructions()) {
      VgprMsbNeed N;
      for (const MCInst &Inst : I.mcInsts()) {
        if (I.kind() == InstKind::Opaque)
          break;
        if (Expected<VgprMsbNeed> Part = Codec->need(Inst)) {
          N.Mask |= Part->Mask;
          N.Value |= Part->Value;
        } else {
          consumeError(Part.takeError());
        }
      }
      const RaisedVgprMsbData *Raised = I.getModifier<RaisedVgprMsbData>();
      if (Raised && !Raised->Before.empty() &&
          (!N.any() ||
           N.satisfiedBy(vgprmsb::stateOfImmediate(Raised->Before.back().Immediate), 0xFF)))
        Restore(Raised->Before);
      if (N.any() && !N.satisfiedBy(Value, Known)) {
        ++Writes;
        Known |= N.Mask;
        Value = uint8_t(((Value & ~N.Mask) | N.Value) & Known);
      }
      if (Raised && !Raised->After.empty())
        Restore(Raised->After);
    }
    return Writes;
  }

  Function &F;
  const BlockCycleModel &Timing;
  const CounterModel &Counters;
  WaitCountCache &WaitCache;
  bool CheckCache;
  HazardAnalysis Hazards;
  /// Per block, the order the hazard analysis last read it in.
  DenseMap<const BasicBlock *, std::vector<const Instruction *>> HazardsRead;
  DenseMap<const BasicBlock *, std::vector<KeptCycles>> Estimated;
  std::unique_ptr<VgprMsbCodec> Codec;
};

class StinkyDAGSchedulerPass final : public Pass {
public:
  StringRef name() const override { return "StinkyDAGSchedulerPass"; }

  Expected<PreservedAnalyses> run(Module &M, AnalysisManager &AM, const PassScope &) override {
    CounterModel Counters(M.target());
    for (Function &F : M.functions()) {
      // The waits the schedule will get come from the CFG's dataflow.
      if (!F.hasValidCFG()) {
        buildCFG(F);
        AM.invalidate(F, PreservedAnalyses::none());
      }
      if (Error E = scheduleFunction(F, AM, Counters))
        return std::move(E);
    }
    if (Stats)
      context().statsStream() << "StinkyDAGSchedulerPass: " << Regions << " regions, "
                              << Scheduled << " reordered, " << Saved
                              << " estimated cycles saved\n";
    // Instructions were only moved: the wait analysis's cache stays valid
    // for the wait insertion that follows.
    return Scheduled ? PreservedAnalyses::none().preserve<WaitCountCacheAnalysis>()
                     : PreservedAnalyses::all();
  }

  bool Stats = false;
  /// Run every wait analysis of the guard also without its cache and fail
  /// where they differ (WaitCountOptions::CheckCache).
  bool CheckWaitCache = false;

private:
  /// How many rounds of the block guard run before every block still in
  /// doubt goes back to its input order.
  static constexpr unsigned MaxGuardRounds = 4;

  Error scheduleFunction(Function &F, AnalysisManager &AM, const CounterModel &Counters) {
    FunctionDependences &Deps = AM.getResult<DependenceDAGAnalysis>(F);
    // The graphs' model: it describes each instruction once for both.
    const BlockCycleModel &Timing = Deps.timing();
    // A region's list schedule is a candidate when its block issues faster
    // with it (IssueState: BlockCycleModel's rules with memory results in
    // counter order; the regions before it in the order chosen for them,
    // those after it in theirs).
    std::vector<std::pair<unsigned, std::vector<unsigned>>> Candidates;
    SetVector<BasicBlock *> Judged;
    ArrayRef<ScheduleRegion> All = Deps.regions();
    for (unsigned First = 0; First != All.size();) {
      unsigned End = First + 1;
      while (End != All.size() && All[End].Block == All[First].Block)
        ++End;
      // The state after the regions before Issued, made when first needed.
      // The list schedule of a region with one order is that order: such a
      // region is issued only when a region after it in the block is
      // scheduled.
      std::optional<IssueState> Issuing;
      unsigned Issued = First;
      for (unsigned R = First; R != End; ++R) {
        const DependenceDAG &DAG = Deps.dag(R);
        ++Regions;
        if (hasOneOrder(DAG))
          continue;
        if (!Issuing)
          Issuing.emplace(Timing);
        IssueState &State = *Issuing;
        for (; Issued != R; ++Issued)
          for (Instruction *I : All[Issued].Insts)
            State.issue(*I);
        Issued = R + 1;
        IssueState Moved = State;
        std::vector<unsigned> Order = listSchedule(DAG, Moved, Timing);
        if (Order == inputOrder(DAG)) {
          State = std::move(Moved);
          continue;
        }
        issueRegion(State, DAG, inputOrder(DAG));
        if (blockCycles(Moved, Deps, R + 1, End) < blockCycles(State, Deps, R + 1, End)) {
          State = std::move(Moved);
          Candidates.emplace_back(R, std::move(Order));
          BasicBlock *BB = All[R].Block;
          Judged.insert(BB);
          Judged.insert(BB->successors().begin(), BB->successors().end());
        }
      }
      First = End;
    }
    if (Candidates.empty())
      return Error::success();

    // The blocks a candidate changes and their successors, in the input
    // order, then with every candidate in its new order; MovedIn holds the
    // reordered regions of each block. The hazard traits are those the
    // hazard repair reads again.
    WaitAwareEstimate Estimate(F, Timing, Counters, AM.getResult<WaitCountCacheAnalysis>(F),
                               CheckWaitCache,
                               AM.getLastingResult<HazardTraitsCacheAnalysis>(*F.parent()));
    Expected<DenseMap<const BasicBlock *, uint64_t>> Before =
        Estimate.of(Judged.getArrayRef());
    if (!Before)
      return Before.takeError();
    MapVector<BasicBlock *, SmallVector<unsigned, 4>> MovedIn;
    for (auto &[R, Order] : Candidates) {
      Expected<bool> Moved =
          reorderRegion(Deps.regions()[R], Order, Deps.dag(R), Deps.effects().units());
      if (!Moved)
        return Moved.takeError();
      if (*Moved)
        MovedIn[Deps.regions()[R].Block].push_back(R);
    }

    // A block keeps its new order only when it gets faster with the waits
    // and hazard wait states its new order gets. Putting a block back
    // changes what is in flight where its successors start, so the others
    // are judged again until none goes back.
    auto Restore = [&](BasicBlock *BB) -> Error {
      for (unsigned R : MovedIn[BB])
        if (Expected<bool> Back = reorderRegion(Deps.regions()[R], inputOrder(Deps.dag(R)),
                                                Deps.dag(R), Deps.effects().units());
            !Back)
          return Back.takeError();
      MovedIn[BB].clear();
      return Error::success();
    };
    std::vector<BasicBlock *> Changed;
    for (auto &Entry : MovedIn)
      Changed.push_back(Entry.first);
    for (unsigned Round = 0; !Changed.empty(); ++Round) {
      if (Round == MaxGuardRounds) {
        for (BasicBlock *BB : Changed)
          if (Error E = Restore(BB))
            return E;
        Changed.clear();
        break;
      }
      Expected<DenseMap<const BasicBlock *, uint64_t>> After = Estimate.of(Judged.getArrayRef());
      if (!After)
        return After.takeError();
      // What a block's new order costs: its own cycles and those its
      // successors that kept their order lose (a result produced later
      // makes the successor's s_delay_alu or wait stall longer).
      auto Cost = [&](BasicBlock *BB) {
        uint64_t Cycles = (*After)[BB];
        for (BasicBlock *Succ : BB->successors())
          if (Succ != BB && MovedIn.lookup(Succ).empty() && (*After)[Succ] > (*Before)[Succ])
            Cycles += (*After)[Succ] - (*Before)[Succ];
        return Cycles;
      };
      std::vector<BasicBlock *> Faster;
      for (BasicBlock *BB : Changed) {
        if (Cost(BB) < (*Before)[BB]) {
          Faster.push_back(BB);
          continue;
        }
        if (Error E = Restore(BB))
          return E;
      }
      if (Faster.size() == Changed.size()) {
        for (BasicBlock *BB : Faster) {
          Scheduled += MovedIn[BB].size();
          Saved += (*Before)[BB] - Cost(BB);
        }
        break;
      }
      Changed = std::move(Faster);
    }
    if (!Changed.empty())
      AM.invalidate(F, PreservedAnalyses::none().preserve<WaitCountCacheAnalysis>());
    return Error::success();
  }

  static void issueRegion(IssueState &State, const DependenceDAG &DAG, ArrayRef<unsigned> Order) {
    for (unsigned Node : Order)
      State.issue(DAG.instruction(Node));
  }

  /// The block's issue cycles from \p State on, regions \p From up to \p End
  /// in their input order.
  static uint64_t blockCycles(IssueState State, const FunctionDependences &Deps, unsigned From,
                              unsigned End) {
    for (unsigned R = From; R != End; ++R)
      for (Instruction *I : Deps.regions()[R].Insts)
        State.issue(*I);
    return State.cycles();
  }

  /// Whether each node has an edge from the one before it: then the input
  /// order is the only one.
  static bool hasOneOrder(const DependenceDAG &DAG) {
    for (unsigned Node = 1; Node < DAG.size(); ++Node)
      if (!DAG.edge(Node - 1, Node))
        return false;
    return true;
  }

  static std::vector<unsigned> inputOrder(const DependenceDAG &DAG) {
    std::vector<unsigned> Input(DAG.size());
    std::iota(Input.begin(), Input.end(), 0u);
    return Input;
  }

  unsigned Regions = 0, Scheduled = 0;
  uint64_t Saved = 0;
};

} // namespace

Expected<std::unique_ptr<Pass>> createStinkyDAGSchedulerPass(const PassArguments &Args) {
  auto P = std::make_unique<StinkyDAGSchedulerPass>();
  if (Error E = parseFlagArguments(Args, {{"stats", &P->Stats}, {"checkWaitCache", &P->CheckWaitCache}}))
    return std::move(E);
  return std::move(P);
}

} // namespace stinkytofu
