//===- RepairMatrixCoexecPass.cpp - ALU work out of the way of matrix ops -===//
#include "stinkytofu/transforms/RepairMatrixCoexecPass.h"
#include "stinkytofu/analysis/BlockCycleModel.h"
#include "stinkytofu/analysis/DependenceDAG.h"
#include "stinkytofu/analysis/HazardAnalysis.h"
#include "stinkytofu/analysis/ScheduleValidator.h"
#include "stinkytofu/hw/HardwareModel.h"
#include "stinkytofu/hw/HazardModel.h"
#include "stinkytofu/hw/TargetInfo.h"
#include "stinkytofu/hw/VgprMsb.h"
#include "stinkytofu/ir/Module.h"
#include "stinkytofu/transforms/CFGBuilderPass.h"
#include "VgprMsbSupport.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"

using namespace llvm;

namespace stinkytofu {
namespace {

using Order = std::vector<Instruction *>;

/// The most wait states a hazard rule counts (LLVM's look-ahead with AGPRs).
constexpr unsigned kHazardReach = 19;

/// The occupancy figures of the debug lines.
struct WindowCounts {
  unsigned MatrixOps = 0, Windows = 0, Empty = 0, EmptyDependent = 0;
};

/// What the pass knows of one module's instructions.
class CoexecModel {
public:
  CoexecModel(const Module &M, const EffectModel &EM)
      : EM(EM), Timing(M), Hazards(HazardModel::of(M.target())) {
    if (M.target().hardware().hasHighVgprs())
      Codec = std::make_unique<VgprMsbCodec>(M.target());
  }

  const EffectModel &effects() const { return EM; }
  /// EffectModel::effectsOf, once per instruction (a move does not change
  /// them).
  const InstructionEffects &effectsOf(const Instruction &I) {
    auto [It, New] = Effects.try_emplace(&I);
    if (New)
      It->second = EM.effectsOf(I);
    return It->second;
  }

  bool isMatrix(const Instruction &I) { return factsOf(I).Matrix; }
  /// A memory-counter wait: it stays in front of the matrix instruction it
  /// was put before, with its count.
  bool isCounterWait(const Instruction &I) { return factsOf(I).CounterWait; }
  /// Plain SALU or VALU work (by MC's class): no memory, no fence, no role
  /// that makes its place matter (nops, waits, barriers, bank switches).
  bool isMovable(const Instruction &I) { return factsOf(I).Movable; }
  bool isValu(const Instruction &I) { return factsOf(I).Valu; }
  bool isFence(const Instruction &I) { return effectsOf(I).Fence; }
  bool isHazardWait(const Instruction &I) { return factsOf(I).HazardWait; }
  unsigned issueOf(const Instruction &I) { return factsOf(I).Issue; }
  /// The cycles the matrix pipe is busy with \p M after M's own issue: what
  /// the work up to the next matrix instruction can take without delaying
  /// it.
  unsigned roomAfter(const Instruction &M) { return factsOf(M).Room; }

  const HazardTraits *traitsOf(const Instruction &I) {
    if (I.mcInsts().size() != 1)
      return nullptr;
    auto [It, New] = Traits.try_emplace(&I);
    if (New)
      It->second = Hazards.traits(I.mcInsts().front(), I.mnemonic().lower());
    return &It->second;
  }
  /// Whether \p X names a register \p M writes or reads.
  bool touches(const Instruction &X, const Instruction &M) {
    const HazardTraits *A = traitsOf(X), *B = traitsOf(M);
    if (!A || !B)
      return true;
    // Explicit operands: every VALU and matrix instruction reads EXEC.
    for (ArrayRef<MCRegister> Mine : {ArrayRef(A->Defs), ArrayRef(A->ExplicitUses)})
      for (ArrayRef<MCRegister> Theirs : {ArrayRef(B->Defs), ArrayRef(B->ExplicitUses)})
        for (MCRegister R : Mine)
          for (MCRegister S : Theirs)
            if (Hazards.overlap(R, S))
              return true;
    return false;
  }

  /// The s_set_vgpr_msb InsertVgprMsbPass will put among \p Insts, the first
  /// of which sets the banks it needs.
  unsigned bankSwitches(ArrayRef<Instruction *> Insts) {
    if (!Codec)
      return 0;
    unsigned Switches = 0;
    uint8_t Known = 0, KnownMask = 0;
    for (const Instruction *I : Insts)
      for (const MCInst &Inst : I->mcInsts()) {
        Expected<VgprMsbNeed> Need = Codec->need(Inst);
        if (!Need) {
          consumeError(Need.takeError());
          continue;
        }
        if (!Need->any() || Need->satisfiedBy(Known, KnownMask))
          continue;
        Switches += I != Insts.front();
        Known = uint8_t((Known & ~Need->Mask) | Need->Value);
        KnownMask |= Need->Mask;
      }
    return Switches;
  }

private:
  /// What the window walks ask of an instruction again and again, worked
  /// out once.
  struct Facts {
    bool Matrix = false, CounterWait = false, HazardWait = false, Movable = false, Valu = false;
    unsigned Issue = 1, Room = 0;
  };
  const Facts &factsOf(const Instruction &I) {
    auto [It, New] = Known.try_emplace(&I);
    if (!New || I.kind() != InstKind::Machine)
      return It->second;
    Facts &F = It->second;
    InstTimes T = Timing.timesOf(I);
    StringRef Class = T.Class->Name;
    InstRole Role = HardwareModel::roleOf(I.mnemonic().lower());
    const InstructionEffects &E = effectsOf(I);
    F.Matrix = T.MatrixPipe != 0;
    F.CounterWait = !HardwareModel::waitCounters(I.mnemonic().lower()).empty();
    F.HazardWait = HardwareModel::isHazardWait(I.mnemonic().lower());
    F.Valu = Class == "VALU" || Class == "TRANS";
    F.Movable = !F.Matrix && I.mcInsts().size() == 1 && (F.Valu || Class == "SALU") &&
                (Role == InstRole::None || Role == InstRole::Move32) && !E.Fence &&
                !E.accessesMemory();
    F.Issue = T.Issue;
    F.Room = T.MatrixPipe > T.Issue ? T.MatrixPipe - T.Issue : 0;
    return F;
  }

  const EffectModel &EM;
  BlockCycleModel Timing;
  const HazardModel &Hazards;
  std::unique_ptr<VgprMsbCodec> Codec;
  DenseMap<const Instruction *, HazardTraits> Traits;
  DenseMap<const Instruction *, InstructionEffects> Effects;
  DenseMap<const Instruction *, Facts> Known;
};

/// Lays \p Insts, a permutation of a region, out in that order, around its
/// last instruction (which is in the region's span wherever it was).
void layOut(const Order &Insts) {
  for (unsigned K = Insts.size() - 1; K-- > 0;)
    Insts[K]->moveBefore(*Insts[K + 1]);
}

/// The VALUs each instruction of \p Regions lacks in the current code (the
/// v_nop the hazard repair would put in front of it).
DenseMap<const Instruction *, unsigned> valusLacked(Function &F, const HazardModel &Hazards,
                                                    ArrayRef<Order> Regions) {
  HazardAnalysis HA(F, Hazards);
  DenseMap<const Instruction *, unsigned> Valus;
  for (const Order &R : Regions)
    for (const Instruction *I : R)
      Valus[I] = HA.needs(*I).Valus;
  return Valus;
}

/// What the hazard rules lack in a span of a region as the function is
/// laid out: an order is no worse than another when the hazard repair will
/// have no more wait states or VALUs to add in the span. One analysis per
/// function, re-read block by block as the repair lays blocks out.
class HazardGuard {
public:
  // The analysis re-reads the same instructions after each move: their
  // traits are kept by edit stamp.
  HazardGuard(Function &F, const HazardModel &Hazards)
      : Analysis(F, Hazards, &Traits, /*RecordStamps=*/true) {}
  unsigned lacked(const Order &Region, unsigned From, unsigned To) {
    Analysis.refresh(*Region.front()->parent());
    unsigned Sum = 0;
    for (unsigned K = From; K < To; ++K) {
      const HazardNeeds &N = Analysis.needs(*Region[K]);
      Sum += N.States + N.Valus;
    }
    return Sum;
  }

private:
  HazardTraitsCache Traits;
  HazardAnalysis Analysis;
};

/// Repairs one region, in the order \p Current it has (moves proven
/// against it), keeping \p Position: each instruction's index in the
/// input order, the ids of the debug lines.
class RegionRepair {
public:
  RegionRepair(CoexecModel &Model, Order &Current,
               const DenseMap<const Instruction *, unsigned> &Position,
               const DenseMap<const Instruction *, unsigned> &ValusWanted,
               HazardGuard &Guard, raw_ostream *Debug)
      : Model(Model), Current(Current), Position(Position), ValusWanted(ValusWanted),
        Guard(Guard), Debug(Debug) {}

  /// Instructions moved, and windows whose moves were taken back.
  unsigned Hoisted = 0, Deferred = 0, Kept = 0;

  void hoistIntoDependentWindows() {
    std::vector<unsigned> Matrix = matrixPositions();
    for (unsigned W = 0; W + 1 < Matrix.size(); ++W) {
      Matrix = matrixPositions();
      unsigned Open = Matrix[W], Close = Matrix[W + 1];
      Instruction *First = Current[Open], *Second = Current[Close];
      unsigned Wanted = ValusWanted.lookup(Second);
      if (Close != Open + 1 || !Wanted || hasHazardWait(Open, Matrix, W))
        continue;
      unsigned Room = Model.roomAfter(*First), Used = 0;
      Order Before = Current;
      std::vector<Instruction *> Batch;
      unsigned End = W + 2 < Matrix.size() ? anchorStart(Matrix[W + 1], Matrix[W + 2])
                                           : Current.size();
      for (unsigned K = Close + 1; K < End && Wanted; ++K) {
        Instruction *X = Current[K];
        if (Model.isCounterWait(*X) || Model.isFence(*X))
          break;
        if (Moved.count(X) || !Model.isMovable(*X) || !Model.isValu(*X) ||
            Model.touches(*X, *First) || Model.touches(*X, *Second) ||
            Used + Model.issueOf(*X) > Room)
          continue;
        Order New = Current;
        New.erase(New.begin() + K);
        New.insert(New.begin() + Close, X);
        if (!proven(New, Close, K + 1))
          continue;
        if (Debug)
          *Debug << "[MatrixCoexecReadyQueue] hoist dagId=" << Position.lookup(X)
                 << " ahead of dependent matrix dagId=" << Position.lookup(Second) << "\n";
        Current = std::move(New);
        Batch.push_back(X);
        Used += Model.issueOf(*X);
        ++Close;
        --Wanted;
      }
      if (keepIfNoWorse(Before, Batch, Open))
        Hoisted += Batch.size();
    }
  }

  void deferOverflow() {
    for (unsigned W = 0;; ++W) {
      std::vector<unsigned> Matrix = matrixPositions();
      if (W + 1 >= Matrix.size())
        return;
      unsigned Open = Matrix[W], Close = Matrix[W + 1];
      unsigned Room = Model.roomAfter(*Current[Open]);
      unsigned NextRoom = Model.roomAfter(*Current[Close]);
      if (hasHazardWait(Open, Matrix, W))
        continue;
      Order Before = Current;
      std::vector<Instruction *> Batch;
      if (Debug && load(Open, Close) > Room)
        *Debug << "[MatrixCoexecReadyQueue] window of matrix dagId=" << Position.lookup(Current[Open])
               << ": " << load(Open, Close) << " cycles, room " << Room << "; next window "
               << loadAfter(Current, Current[Close]) << " of " << NextRoom << "\n";
      // The tail of the window's ALU work, last first, as long as the
      // window is over its room and the next one has room for it.
      for (unsigned K = anchorStart(Open, Close); K-- > Open + 1;) {
        if (load(Open, Close) <= Room)
          break;
        Instruction *X = Current[K];
        if (Model.isFence(*X))
          break;
        if (Moved.count(X) || !Model.isMovable(*X))
          continue;
        Order New = withDeferred(X, Close);
        unsigned Next = Close + 1;
        while (Next < Current.size() && !Model.isMatrix(*Current[Next]))
          ++Next;
        if (loadAfter(New, Current[Close]) > NextRoom || !proven(New, K, Next))
          break;
        Current = std::move(New);
        Batch.push_back(X);
        Close = matrixPositions()[W + 1];
      }
      if (!Batch.empty() && Debug)
        *Debug << "[MatrixCoexecReadyQueue] defer " << Batch.size() << " past matrix\n";
      if (keepIfNoWorse(Before, Batch, Open))
        Deferred += Batch.size();
    }
  }

private:
  /// Lays the window's moves (\p Batch, all within the span from the
  /// matrix instruction at \p Open to the one after the next) out and keeps
  /// them when the span lacks no more hazard wait states or VALUs than in
  /// the order \p Before them (laid out now); else lays \p Before out again.
  /// The span reaches kHazardReach instructions further: a rule counted in
  /// wait states sees that far back, one counted in VALUs stops at the
  /// matrix instruction (it counts as many VALUs as its latency).
  bool keepIfNoWorse(const Order &Before, ArrayRef<Instruction *> Batch, unsigned Open) {
    if (Batch.empty())
      return false;
    unsigned To = Open + 1, MatrixSeen = 0;
    while (To < Current.size() && MatrixSeen < 2)
      MatrixSeen += Model.isMatrix(*Current[To++]);
    To = std::min<size_t>(To + kHazardReach, Current.size());
    unsigned Was = Guard.lacked(Before, Open, To);
    layOut(Current);
    if (Guard.lacked(Current, Open, To) <= Was) {
      Moved.insert(Batch.begin(), Batch.end());
      return true;
    }
    Current = Before;
    layOut(Current);
    ++Kept;
    return false;
  }

  /// Whether a hazard wait (s_nop, v_nop, s_delay_alu, s_wait_alu) is in
  /// window \p W (at \p Open) or the one after it: one counts the
  /// instructions around it, so the windows of code the hazard passes have
  /// seen are left as they are (the repair runs before them).
  bool hasHazardWait(unsigned Open, ArrayRef<unsigned> Matrix, unsigned W) const {
    unsigned End = W + 2 < Matrix.size() ? Matrix[W + 2] : Current.size();
    return any_of(ArrayRef(Current).slice(Open, End - Open),
                  [&](const Instruction *I) { return Model.isHazardWait(*I); });
  }

  std::vector<unsigned> matrixPositions() const {
    std::vector<unsigned> Matrix;
    for (unsigned K = 0; K < Current.size(); ++K)
      if (Model.isMatrix(*Current[K]))
        Matrix.push_back(K);
    return Matrix;
  }
  /// The first of the waits right before the matrix instruction at \p Close.
  unsigned anchorStart(unsigned Open, unsigned Close) const {
    while (Close > Open + 1 && Model.isCounterWait(*Current[Close - 1]))
      --Close;
    return Close;
  }
  /// The cycles of the window from the matrix instruction at \p Open up to
  /// the one at \p Close (\p In's, else the current order's).
  unsigned load(unsigned Open, unsigned Close, const Order *In = nullptr) const {
    const Order &O = In ? *In : Current;
    unsigned Cycles = 0;
    for (unsigned K = Open + 1; K < Close; ++K)
      Cycles += Model.issueOf(*O[K]);
    return Cycles + Model.bankSwitches(ArrayRef(O).slice(Open, Close - Open + 1 -
                                                                     (Close == O.size())));
  }
  /// The load of the window \p M opens in \p In (up to the next matrix
  /// instruction or the region's end).
  unsigned loadAfter(const Order &In, const Instruction *M) const {
    unsigned Open = find(In, M) - In.begin(), Close = Open + 1;
    while (Close < In.size() && !Model.isMatrix(*In[Close]))
      ++Close;
    return load(Open, Close, &In);
  }
  /// The current order with \p X right behind the matrix instruction at
  /// \p Close, in front of what was deferred there before it.
  Order withDeferred(Instruction *X, unsigned Close) const {
    Instruction *Anchor = Current[Close];
    Order New;
    for (Instruction *I : Current)
      if (I != X)
        New.push_back(I);
    // X came before everything already deferred from this window.
    New.insert(find(New, Anchor) + 1, X);
    return New;
  }
  /// Whether \p New computes what the current order does, the memory-counter
  /// waits left out (the validator keeps every instruction on its side of
  /// one): a moved instruction starts no memory operation, so each wait
  /// still counts what it counted, and one moved behind a wait only finds
  /// more of the memory operations done.
  /// \p New differs from the current order in [\p From, \p To) only, which
  /// is checked alone: the validator compares what the span leaves behind
  /// as well.
  bool proven(const Order &New, unsigned From, unsigned To) const {
    std::vector<const Instruction *> Old, Candidate;
    std::vector<InstructionEffects> Effects;
    for (unsigned K = From; K < To; ++K) {
      if (!Model.isCounterWait(*Current[K])) {
        Old.push_back(Current[K]);
        Effects.push_back(Model.effectsOf(*Current[K]));
      }
      if (!Model.isCounterWait(*New[K]))
        Candidate.push_back(New[K]);
    }
    if (Error Refused =
            validateReordering(Old, Candidate, Effects, Model.effects().units())) {
      consumeError(std::move(Refused));
      return false;
    }
    return true;
  }

  CoexecModel &Model;
  Order &Current;
  const DenseMap<const Instruction *, unsigned> &Position;
  const DenseMap<const Instruction *, unsigned> &ValusWanted;
  HazardGuard &Guard;
  raw_ostream *Debug;
  /// Moved already: nothing moves twice.
  DenseSet<const Instruction *> Moved;
};

/// The windows of \p Regions; a pair of matrix instructions is dependent
/// when the second lacks VALUs after the first (\p ValusWanted: the
/// co-execution hazard's v_nop padding).
WindowCounts countWindows(CoexecModel &Model, ArrayRef<Order> Regions,
                          const DenseMap<const Instruction *, unsigned> &ValusWanted) {
  WindowCounts C;
  for (const Order &R : Regions) {
    const Instruction *Previous = nullptr;
    unsigned PreviousAt = 0;
    for (unsigned K = 0; K < R.size(); ++K) {
      if (!Model.isMatrix(*R[K]))
        continue;
      ++C.MatrixOps;
      if (Previous) {
        ++C.Windows;
        if (PreviousAt + 1 == K) {
          ++C.Empty;
          C.EmptyDependent += ValusWanted.lookup(R[K]) != 0;
        }
      }
      Previous = R[K];
      PreviousAt = K;
    }
  }
  return C;
}

void printCounts(raw_ostream &OS, StringRef When, const WindowCounts &C) {
  OS << "[MatrixCoexec " << When << "] matrixOps=" << C.MatrixOps << " windows=" << C.Windows
     << " emptyWindows=" << C.Empty << " (dependent=" << C.EmptyDependent << ")\n";
}

class RepairMatrixCoexecPass final : public Pass {
public:
  explicit RepairMatrixCoexecPass(bool Debug) : Debug(Debug) {}
  StringRef name() const override { return "RepairMatrixCoexecPass"; }

  Expected<PreservedAnalyses> run(Module &M, AnalysisManager &AM, const PassScope &) override {
    if (!M.target().hardware().delayAluMatrixIsTrans())
      return createStringError(inconvertibleErrorCode(),
                               name() + ": " + M.target().processor() +
                                   " runs no VALU work beside its matrix instructions (the "
                                   "pass is for gfx1250)");
    raw_ostream *OS = Debug ? &context().dumpStream() : nullptr;
    unsigned Deferred = 0, Hoisted = 0, Kept = 0;
    // On VGPRs 256 and up as the registers they are: an instruction moved
    // across an s_set_vgpr_msb would name others.
    if (Error E = withLogicalVgprs(M, AM, context(), [&] {
          EffectModel EM(M.target());
          CoexecModel Model(M, EM);
          for (Function &F : M.functions())
            repairFunction(F, Model, OS, Deferred, Hoisted, Kept);
          return Error::success();
        }))
      return std::move(E);
    if (OS) {
      *OS << "[RepairMatrixCoexec] deferred " << Deferred << ", hoisted " << Hoisted;
      if (Kept)
        *OS << ", kept " << Kept << " segment(s) in input order for hazard gaps";
      *OS << "\n";
    }
    return Deferred + Hoisted ? PreservedAnalyses::none() : PreservedAnalyses::all();
  }

private:
  void repairFunction(Function &F, CoexecModel &Model, raw_ostream *OS, unsigned &Deferred,
                      unsigned &Hoisted, unsigned &Kept) const {
    std::vector<Order> Regions;
    for (ScheduleRegion &R : scheduleRegions(F))
      Regions.push_back(R.Insts);
    auto HasWindow = [&](const Order &R) {
      return count_if(R, [&](const Instruction *I) { return Model.isMatrix(*I); }) > 1;
    };
    if (none_of(Regions, HasWindow))
      return;
    if (!F.hasValidCFG())
      buildCFG(F);
    const HazardModel &Hazards = HazardModel::of(F.parent()->target());
    DenseMap<const Instruction *, unsigned> ValusWanted = valusLacked(F, Hazards, Regions);
    DenseMap<const Instruction *, unsigned> Position;
    for (const Order &R : Regions)
      for (unsigned K = 0; K < R.size(); ++K)
        Position[R[K]] = K;
    if (OS)
      printCounts(*OS, "before", countWindows(Model, Regions, ValusWanted));
    HazardGuard Guard(F, Hazards);
    // Each region is repaired in place: Regions ends in the new order.
    for (Order &Region : Regions) {
      if (!HasWindow(Region))
        continue;
      RegionRepair Repair(Model, Region, Position, ValusWanted, Guard, OS);
      Repair.hoistIntoDependentWindows();
      Repair.deferOverflow();
      Deferred += Repair.Deferred;
      Hoisted += Repair.Hoisted;
      Kept += Repair.Kept;
    }
    if (!OS)
      return;
    printCounts(*OS, "after", countWindows(Model, Regions, valusLacked(F, Hazards, Regions)));
  }

  bool Debug;
};

} // namespace

Expected<std::unique_ptr<Pass>> createRepairMatrixCoexecPass(const PassArguments &Args) {
  bool Debug = false;
  for (const auto &[Key, Value] : Args) {
    if (Key == "debug" && Value.empty()) {
      Debug = true;
      continue;
    }
    return createStringError(inconvertibleErrorCode(),
                             "takes debug, not '" + Key + (Value.empty() ? "" : "=" + Value) +
                                 "'");
  }
  return std::make_unique<RepairMatrixCoexecPass>(Debug);
}

} // namespace stinkytofu
