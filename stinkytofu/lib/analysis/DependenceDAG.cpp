//===- DependenceDAG.cpp - Which instructions of a region must keep their order -===//
#include "stinkytofu/analysis/DependenceDAG.h"
#include "stinkytofu/analysis/BlockCycleModel.h"
#include "stinkytofu/ir/Module.h"
#include "llvm/ADT/STLExtras.h"

using namespace llvm;

namespace stinkytofu {

AnalysisKey DependenceDAGAnalysis::Key;

StringRef depKindName(DepKind K) {
  switch (K) {
  case DepKind::Data:
    return "data";
  case DepKind::Anti:
    return "anti";
  case DepKind::Output:
    return "output";
  case DepKind::Memory:
    return "memory";
  case DepKind::Order:
    return "order";
  }
  return "?";
}

std::vector<ScheduleRegion> scheduleRegions(Function &F) {
  std::vector<ScheduleRegion> Regions;
  for (BasicBlock &BB : F.blocks()) {
    ScheduleRegion Current{&BB, {}};
    for (BlockItem &Item : BB.items()) {
      if (auto *I = dyn_cast<Instruction>(&Item)) {
        Current.Insts.push_back(I);
        continue;
      }
      if (!Current.Insts.empty())
        Regions.push_back(std::move(Current));
      Current = ScheduleRegion{&BB, {}};
    }
    if (!Current.Insts.empty())
      Regions.push_back(std::move(Current));
  }
  return Regions;
}

namespace {

/// Per register unit: the node that wrote it last and the nodes that read
/// that value since.
struct UnitState {
  int LastWriter = -1;
  SmallVector<unsigned, 4> Readers;
};

/// The states of the units a region touches, found through a table by unit
/// (a hash map's lookups were most of the graph's own cost). A call or an
/// opaque statement reads and writes every unit; after it, a unit not
/// touched since has it as last writer and no reader. (A table of every
/// unit's state, walked at each such node, cost most of a call-dense
/// kernel's scheduling.)
class UnitStates {
public:
  /// \p SlotOf: NumUnits entries of NoSlot, left so.
  /// Room for the units of a few instructions: growing from nothing was
  /// most of a small region's unit lookups.
  explicit UnitStates(std::vector<unsigned> &SlotOf) : SlotOf(SlotOf) {
    States.reserve(32);
    Touched.reserve(32);
  }
  ~UnitStates() {
    for (unsigned U : Touched)
      SlotOf[U] = NoSlot;
  }
  static constexpr unsigned NoSlot = ~0u;

  int lastWriter(unsigned U) const {
    unsigned Slot = SlotOf[U];
    return Slot == NoSlot ? AllWriter : States[Slot].LastWriter;
  }
  /// The state of \p U, valid until the next unit is touched.
  UnitState &operator[](unsigned U) {
    unsigned &Slot = SlotOf[U];
    if (Slot == NoSlot) {
      Slot = States.size();
      States.emplace_back().LastWriter = AllWriter;
      Touched.push_back(U);
    }
    return States[Slot];
  }
  /// Calls \p Visit on the state of every unit in unit order, a run of
  /// untouched units (all in the same state) once.
  template <typename VisitT> void forEachInOrder(VisitT Visit) {
    SmallVector<unsigned, 32> Units(Touched.begin(), Touched.end());
    llvm::sort(Units);
    UnitState Untouched;
    Untouched.LastWriter = AllWriter;
    unsigned Next = 0; // the lowest unit not visited yet
    for (unsigned U : Units) {
      if (Next < U)
        Visit(Untouched);
      Visit(States[SlotOf[U]]);
      Next = U + 1;
    }
    if (Next < SlotOf.size())
      Visit(Untouched);
  }
  /// After a node that writes every unit.
  void writtenAllBy(unsigned Node) {
    for (unsigned U : Touched)
      SlotOf[U] = NoSlot;
    Touched.clear();
    States.clear();
    AllWriter = int(Node);
  }

private:
  std::vector<unsigned> &SlotOf;
  std::vector<UnitState> States;
  std::vector<unsigned> Touched; ///< the unit of each state
  int AllWriter = -1;
};

} // namespace

DependenceDAG::DependenceDAG(ArrayRef<Instruction *> Region, const EffectModel &EM,
                             const BlockCycleModel *Timing, std::vector<unsigned> *UnitSlots)
    : Insts(Region.begin(), Region.end()) {
  const unsigned N = Insts.size();
  Effects.reserve(N);
  Latencies.reserve(N);
  for (Instruction *I : Insts) {
    Effects.push_back(EM.effectsOf(*I));
    Latencies.push_back(Timing ? std::max(1u, Timing->timesOf(*I).Latency) : 1u);
  }
  Preds.resize(N);
  Succs.resize(N);
  EdgeFrom.assign(N, {~0u, 0});

  std::vector<unsigned> OwnSlots;
  if (!UnitSlots) {
    OwnSlots.assign(EM.units().numUnits(), UnitStates::NoSlot);
    UnitSlots = &OwnSlots;
  }
  UnitStates Units(*UnitSlots);
  // The address-register values each node's location was computed from:
  // the last writer of each address unit when it issued.
  std::vector<std::vector<int>> AddressVersions(N);
  std::array<std::vector<unsigned>, NumMemorySpaces> Accesses;
  std::vector<unsigned> SinceFence;
  int LastFence = -1;

  for (unsigned To = 0; To != N; ++To) {
    const InstructionEffects &E = Effects[To];
    if (E.Location)
      for (unsigned U : E.Location->AddressUnits)
        AddressVersions[To].push_back(Units.lastWriter(U));
    auto AddData = [&](int From) {
      if (From >= 0)
        addEdge(From, To, DepKind::Data, Latencies[From]);
    };
    auto AddOverwrite = [&](UnitState &S) {
      if (S.LastWriter >= 0)
        addEdge(S.LastWriter, To, DepKind::Output, 1);
      for (unsigned R : S.Readers)
        if (R != To)
          addEdge(R, To, DepKind::Anti, 1);
      S.Readers.clear();
    };
    if (E.Reads.all() && E.Writes.all()) {
      // The edges, in the order the per-unit walk below would add them.
      Units.forEachInOrder([&](UnitState &S) { AddData(S.LastWriter); });
      Units.forEachInOrder(AddOverwrite);
      Units.writtenAllBy(To);
    } else {
      // A unit read and not written gets To as a reader (no edge), one
      // written gets To as writer once its old readers and writer have
      // their edges: the edges come in the order of the reads, then of
      // the writes.
      for (unsigned U : setUnits(E.Reads)) {
        AddData(Units.lastWriter(U));
        if (!E.Writes.test(U))
          Units[U].Readers.push_back(To);
      }
      for (unsigned U : setUnits(E.Writes)) {
        UnitState &S = Units[U];
        AddOverwrite(S);
        S.LastWriter = To;
      }
    }

    for (unsigned S = 0; S != NumMemorySpaces; ++S) {
      if (!E.Memory[S].any())
        continue;
      for (unsigned From : Accesses[S]) {
        bool SameAddress = AddressVersions[From] == AddressVersions[To];
        if (memoryConflict(Effects[From], E, MemorySpace(S), SameAddress))
          addEdge(From, To, DepKind::Memory, 1);
      }
      Accesses[S].push_back(To);
    }

    if (E.Fence) {
      for (unsigned From : SinceFence)
        addEdge(From, To, DepKind::Order, 1);
      if (LastFence >= 0)
        addEdge(LastFence, To, DepKind::Order, 1);
      SinceFence.clear();
      LastFence = To;
      // Everything before the fence is ordered through it.
      for (auto &List : Accesses)
        List.clear();
    } else {
      if (LastFence >= 0)
        addEdge(LastFence, To, DepKind::Order, 1);
      SinceFence.push_back(To);
    }
  }

  Heights.assign(N, 0);
  for (unsigned Node = N; Node-- > 0;) {
    unsigned Height = Latencies[Node];
    for (unsigned EdgeIdx : Succs[Node]) {
      const DepEdge &Edge = Edges[EdgeIdx];
      Height = std::max(Height, Edge.Latency + Heights[Edge.To]);
    }
    Heights[Node] = Height;
  }
  EdgeFrom = {};
}

void DependenceDAG::addEdge(unsigned From, unsigned To, DepKind Kind, unsigned Latency) {
  // Edges into To are added while To is the newest node: the edge from
  // From, if any, is the one noted for From with To.
  if (EdgeFrom[From].first == To) {
    DepEdge &Edge = Edges[EdgeFrom[From].second];
    if (Kind < Edge.Kind)
      Edge.Kind = Kind;
    Edge.Latency = std::max(Edge.Latency, Latency);
    return;
  }
  EdgeFrom[From] = {To, unsigned(Edges.size())};
  Preds[To].push_back(Edges.size());
  Succs[From].push_back(Edges.size());
  Edges.push_back(DepEdge{From, To, Kind, Latency});
}

const DepEdge *DependenceDAG::edge(unsigned From, unsigned To) const {
  for (unsigned EdgeIdx : Preds[To])
    if (Edges[EdgeIdx].From == From)
      return &Edges[EdgeIdx];
  return nullptr;
}

bool DependenceDAG::isTopologicalOrder(ArrayRef<unsigned> Order) const {
  if (Order.size() != size())
    return false;
  std::vector<int> Position(size(), -1);
  for (unsigned K = 0; K != Order.size(); ++K) {
    if (Order[K] >= size() || Position[Order[K]] >= 0)
      return false;
    Position[Order[K]] = K;
  }
  return all_of(Edges, [&](const DepEdge &E) { return Position[E.From] < Position[E.To]; });
}

FunctionDependences::FunctionDependences(Function &F)
    : EM(std::make_unique<EffectModel>(F.parent()->target())),
      Timing(std::make_unique<BlockCycleModel>(*F.parent())), Regions(scheduleRegions(F)) {
  std::vector<unsigned> UnitSlots(EM->units().numUnits(), ~0u);
  for (const ScheduleRegion &R : Regions)
    DAGs.push_back(std::make_unique<DependenceDAG>(R.Insts, *EM, Timing.get(), &UnitSlots));
}
FunctionDependences::FunctionDependences(FunctionDependences &&) = default;
FunctionDependences::~FunctionDependences() = default;

DependenceDAGAnalysis::Result DependenceDAGAnalysis::run(Function &F, AnalysisManager &) {
  return FunctionDependences(F);
}

} // namespace stinkytofu
