//===- DAGSchedulerPass.cpp - List scheduling of each region --------------===//
#include "stinkytofu/transforms/DAGSchedulerPass.h"
#include "stinkytofu/analysis/BlockCycleModel.h"
#include "stinkytofu/analysis/DepCtrHazards.h"
#include "stinkytofu/analysis/DelayAluAnalysis.h"
#include "stinkytofu/analysis/HazardAnalysis.h"
#include "stinkytofu/analysis/LoopInfo.h"
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

/// Whether the scheduler's hazard search tries \p BB: each move it tries
/// simulates the block again and reads its hazards again, so a long block
/// (a Tensile main loop, whose expert order rarely has a wait to spare)
/// would cost more than the scheduler itself.
bool searchable(const BasicBlock &BB) {
  constexpr unsigned MaxInstructions = 32;
  return !hasNItemsOrMore(BB.instructions(), MaxInstructions + 1);
}

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
    ExpectedWaits Waits = aluWaits();
    for (const MissingWait &W : A->missingWaits())
      Waits.Memory[W.Consumer] = W.Needed;
    DenseMap<const BasicBlock *, uint64_t> Cycles;
    for (BasicBlock *BB : Blocks)
      Cycles[BB] = issueCycles(*BB, Waits) + hazardWaits(*BB);
    return Cycles;
  }

  /// The wait states and VALU slots \p BB lacks in its order now.
  uint64_t hazardWaits(const BasicBlock &BB) {
    // A block read again in the order the analysis read it last gives
    // the same entries.
    std::vector<const Instruction *> Order = orderOf(BB);
    if (std::vector<const Instruction *> &Read = HazardsRead[&BB]; Read != Order) {
      Hazards.refresh(BB);
      Read = std::move(Order);
    }
    uint64_t Waits = 0;
    for (const Instruction &I : BB.instructions()) {
      const HazardNeeds &Needs = Hazards.needs(I);
      Waits += Needs.States + Needs.Valus;
    }
    return Waits;
  }

  /// The depctr waits and `s_delay_alu` the passes after the scheduler
  /// will put in front of instructions (gfx10+ and gfx11+), for the
  /// function's order now.
  ExpectedWaits aluWaits() const {
    ExpectedWaits Waits;
    for (const DepCtrWaitNeed &N : findDepCtrWaitNeeds(F, Timing.target()))
      Waits.DepCtrs[N.Consumer] |= N.Fields;
    DelayAluAnalysis AluDelays = DelayAluAnalysis::run(F);
    for (const DelayAluDemand &D : AluDelays.demands())
      Waits.AluDelays[D.Consumer] = {D.First, D.Second};
    return Waits;
  }

  /// What \p I lacks in its block's order as last read (hazardWaits).
  const HazardNeeds &needsOf(const Instruction &I) const { return Hazards.needs(I); }

  /// What the hazard search compares orders of \p BB by: the block's
  /// cycles with the ALU waits it will get (the memory waits are left to
  /// the guard: they take the whole function's wait analysis) plus the
  /// hazard waits it lacks. A move near the end of a block changes what
  /// its successors wait for at their start (an SALU result read by a
  /// loop's first instruction): theirs count too, unless too long to
  /// simulate again at every move (searchable). Each block is weighed by
  /// the loops around it (loopWeight, \p Loops): a wait moved out of a
  /// loop into its preheader is paid once, not every trip.
  uint64_t hazardSearchCost(const BasicBlock &BB, const LoopInfo &Loops) {
    ExpectedWaits Alu = aluWaits();
    auto Weighed = [&](const BasicBlock &B) {
      return loopWeight(Loops, B) * (Timing.estimate(B, Alu).Cycles + hazardWaits(B));
    };
    uint64_t Cost = Weighed(BB);
    for (const BasicBlock *Succ : BB.successors())
      if (Succ != &BB && searchable(*Succ))
        Cost += Weighed(*Succ);
    return Cost;
  }

  /// How much a cycle of \p B weighs against one outside every loop: 8
  /// per loop around it, up to three.
  static uint64_t loopWeight(const LoopInfo &Loops, const BasicBlock &B) {
    uint64_t Weight = 1;
    for (unsigned Depth = std::min(Loops.loopDepth(&B), 3u); Depth; --Depth)
      Weight *= 8;
    return Weight;
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
  /// The hazard search: how far an instruction moves (the longest hazard
  /// window of LLVM's rules is 19 wait states, most are 1 to 5; an
  /// `s_delay_alu` names one of the last 4 VALUs), its sweeps over a
  /// block, the moves it tries in a function, and the instructions those
  /// moves may read in all (each move reads the function's ALU waits).
  static constexpr unsigned HazardWindow = 8, MaxHazardSweeps = 3, MaxHazardTrials = 1024;
  static constexpr uint64_t HazardSearchWork = 4'000'000;

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
    // The hazard traits are those the hazard repair reads again.
    WaitAwareEstimate Estimate(F, Timing, Counters, AM.getResult<WaitCountCacheAnalysis>(F),
                               CheckWaitCache,
                               AM.getLastingResult<HazardTraitsCacheAnalysis>(*F.parent()));
    // Loop blocks that lack hazard waits or will get ALU waits in their
    // input order, and the predecessors of those that wait near their
    // start: the hazard search tries them too (below). Outside loops a
    // wait is paid once, and the search's moves cost more than it saves.
    Expected<LoopInfo &> Loops = AM.getResult<LoopAnalysis>(F);
    if (!Loops)
      return Loops.takeError();
    SetVector<BasicBlock *> HazardBlocks;
    ExpectedWaits Alu = Estimate.aluWaits();
    auto WorthSearching = [&](BasicBlock &BB) {
      return Loops->loopDepth(&BB) && searchable(BB) &&
             (Estimate.hazardWaits(BB) || any_of(BB.instructions(), [&](const Instruction &I) {
                return getsAluWait(I, Alu);
              }));
    };
    auto AddHazardBlock = [&](BasicBlock &BB) {
      HazardBlocks.insert(&BB);
      Judged.insert(&BB);
      Judged.insert(BB.successors().begin(), BB.successors().end());
    };
    for (BasicBlock &BB : F.blocks())
      if (WorthSearching(BB)) {
        AddHazardBlock(BB);
        if (waitsNearStart(BB, Estimate, Alu))
          for (BasicBlock *Pred : BB.predecessors())
            if (searchable(*Pred))
              AddHazardBlock(*Pred);
      }
    if (Candidates.empty() && HazardBlocks.empty())
      return Error::success();

    // The blocks a candidate or the hazard search may change and their
    // successors, in the input order, then in the new orders; MovedIn holds
    // the reordered regions of each block.
    Expected<DenseMap<const BasicBlock *, uint64_t>> Before =
        Estimate.of(Judged.getArrayRef());
    if (!Before)
      return Before.takeError();
    MapVector<BasicBlock *, SmallVector<unsigned, 4>> MovedIn;
    DenseMap<unsigned, std::vector<unsigned>> OrderOf;
    for (auto &[R, Order] : Candidates) {
      Expected<bool> Moved =
          reorderRegion(Deps.regions()[R], Order, Deps.dag(R), Deps.effects().units());
      if (!Moved)
        return Moved.takeError();
      if (*Moved)
        MovedIn[Deps.regions()[R].Block].push_back(R);
      OrderOf[R] = std::move(Order);
    }
    Alu = Estimate.aluWaits();
    for (BasicBlock *BB : MovedIn.keys())
      if (WorthSearching(*BB))
        HazardBlocks.insert(BB);
    // Each move is judged on the function's ALU-wait analyses: the moves
    // tried in a function are bounded by its size.
    unsigned Trials = unsigned(std::min<uint64_t>(
        MaxHazardTrials, HazardSearchWork / std::max<uint64_t>(1, F.instructionCount())));
    for (BasicBlock *BB : HazardBlocks)
      if (Error E = searchHazards(*BB, Deps, Estimate, OrderOf, MovedIn, *Loops, Trials))
        return E;

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
      // What a block's new order gains: its own cycles and those of its
      // successors that kept their order (a result produced later makes
      // the successor's s_delay_alu or wait stall longer, one produced
      // earlier shorter), each weighed by the loops around it
      // (WaitAwareEstimate::loopWeight): a wait moved from a loop's
      // first instruction into its preheader is paid once, not every trip.
      auto Gain = [&](BasicBlock *BB, bool Weighed) {
        auto Delta = [&](BasicBlock *B) {
          int64_t D = int64_t((*Before)[B]) - int64_t((*After)[B]);
          return Weighed ? D * int64_t(WaitAwareEstimate::loopWeight(*Loops, *B)) : D;
        };
        int64_t Total = Delta(BB);
        for (BasicBlock *Succ : BB->successors())
          if (Succ != BB && MovedIn.lookup(Succ).empty())
            Total += Delta(Succ);
        return Total;
      };
      std::vector<BasicBlock *> Faster;
      for (BasicBlock *BB : Changed) {
        if (Gain(BB, true) > 0) {
          Faster.push_back(BB);
          continue;
        }
        if (Error E = Restore(BB))
          return E;
      }
      if (Faster.size() == Changed.size()) {
        for (BasicBlock *BB : Faster) {
          Scheduled += MovedIn[BB].size();
          Saved += std::max<int64_t>(0, Gain(BB, false));
        }
        break;
      }
      Changed = std::move(Faster);
    }
    if (!Changed.empty())
      AM.invalidate(F, PreservedAnalyses::none().preserve<WaitCountCacheAnalysis>());
    return Error::success();
  }

  /// Moves of one instruction up to HazardWindow places earlier, past
  /// instructions it does not depend on, near those that lack hazard waits
  /// in \p BB, each kept when the block's cycles plus the hazard waits it
  /// lacks go down (WaitAwareEstimate::hazardSearchCost). The list schedule
  /// issues on IssueState, which has no hazard rules, so a producer left
  /// too near its consumer (a `v_readfirstlane_b32` of a buffer descriptor
  /// right before the load, a VALU result read by `v_accvgpr_write_b32`
  /// next) costs `s_nop`s no order it built avoids. Each region's order is
  /// in \p OrderOf (its input order when absent); a region the search
  /// changes is validated and listed in \p MovedIn, so that the guard
  /// judges it as it judges a list schedule.
  Error searchHazards(BasicBlock &BB, const FunctionDependences &Deps, WaitAwareEstimate &Estimate,
                      DenseMap<unsigned, std::vector<unsigned>> &OrderOf,
                      MapVector<BasicBlock *, SmallVector<unsigned, 4>> &MovedIn,
                      const LoopInfo &Loops, unsigned &Trials) {
    ArrayRef<ScheduleRegion> All = Deps.regions();
    SmallVector<unsigned, 4> Regions;
    for (unsigned R = 0; R != All.size(); ++R)
      if (All[R].Block == &BB && !hasOneOrder(Deps.dag(R)))
        Regions.push_back(R);
    uint64_t Best = Estimate.hazardSearchCost(BB, Loops);
    SmallSetVector<unsigned, 4> Changed;
    for (unsigned Sweep = 0; Sweep != MaxHazardSweeps && Trials; ++Sweep) {
      bool Improved = false;
      for (unsigned R : Regions) {
        const DependenceDAG &DAG = Deps.dag(R);
        auto [It, New] = OrderOf.try_emplace(R);
        std::vector<unsigned> &Order = It->second;
        if (New)
          Order = inputOrder(DAG);
        // The instructions worth moving: up to HazardWindow before one that
        // lacks waits or will get one (in the order kept: the analyses may
        // have read a refused move last), the one itself included.
        Estimate.hazardWaits(BB);
        ExpectedWaits Alu = Estimate.aluWaits();
        std::vector<bool> Near(Order.size());
        for (unsigned P = 0; P != Order.size(); ++P)
          if (waits(DAG.instruction(Order[P]), Estimate, Alu))
            for (unsigned Q = P > HazardWindow ? P - HazardWindow : 0; Q <= P; ++Q)
              Near[Q] = true;
        // The end of the block, for a successor that waits at its start.
        if (R == Regions.back() && any_of(BB.successors(), [&](const BasicBlock *Succ) {
              return waitsNearStart(*Succ, Estimate, Alu);
            }))
          for (unsigned Q = Order.size() > HazardWindow ? Order.size() - HazardWindow : 0;
               Q != Order.size(); ++Q)
            Near[Q] = true;
        for (unsigned P = 1; P < Order.size() && Trials; ++P) {
          if (!Near[P])
            continue;
          Instruction &Moving = DAG.instruction(Order[P]);
          // Earlier one place at a time, while nothing passed is a
          // dependence of it and no directive stands between.
          for (unsigned Q = P; Q-- > 0 && P - Q <= HazardWindow && Trials;) {
            unsigned Passed = Order[Q];
            if (DAG.edge(std::min(Passed, Order[P]), std::max(Passed, Order[P])) ||
                !adjacent(DAG.instruction(Passed), DAG.instruction(Order[Q + 1])))
              break;
            --Trials;
            Moving.moveBefore(DAG.instruction(Passed));
            if (uint64_t Cost = Estimate.hazardSearchCost(BB, Loops); Cost < Best) {
              Improved = true;
              Best = Cost;
              std::rotate(Order.begin() + Q, Order.begin() + P, Order.begin() + P + 1);
              Changed.insert(R);
              break;
            }
            Moving.moveAfter(DAG.instruction(Order[P - 1]));
          }
        }
      }
      if (!Improved)
        break;
    }
    // The order is in place already: the validator checks it all the same
    // before the guard may keep it.
    for (unsigned R : Changed) {
      if (Expected<bool> Valid =
              reorderRegion(All[R], OrderOf[R], Deps.dag(R), Deps.effects().units());
          !Valid)
        return Valid.takeError();
      if (!is_contained(MovedIn[&BB], R))
        MovedIn[&BB].push_back(R);
    }
    return Error::success();
  }

  /// Whether \p I will get an ALU wait of \p Alu.
  static bool getsAluWait(const Instruction &I, const ExpectedWaits &Alu) {
    return Alu.DepCtrs.count(&I) || Alu.AluDelays.count(&I);
  }

  /// Whether \p I lacks hazard waits or will get an ALU wait.
  static bool waits(const Instruction &I, const WaitAwareEstimate &Estimate,
                    const ExpectedWaits &Alu) {
    return !Estimate.needsOf(I).empty() || getsAluWait(I, Alu);
  }

  /// Whether one of the first HazardWindow instructions of \p BB waits: a
  /// move at the end of a predecessor may shorten that.
  static bool waitsNearStart(const BasicBlock &BB, const WaitAwareEstimate &Estimate,
                             const ExpectedWaits &Alu) {
    unsigned Seen = 0;
    for (const Instruction &I : BB.instructions()) {
      if (Seen++ == HazardWindow)
        break;
      if (waits(I, Estimate, Alu))
        return true;
    }
    return false;
  }

  /// Whether \p B is the item right after \p A: no directive between them,
  /// which a swap would move past.
  static bool adjacent(const Instruction &A, const Instruction &B) {
    return std::next(ItemList::const_iterator(A)) == ItemList::const_iterator(B);
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
