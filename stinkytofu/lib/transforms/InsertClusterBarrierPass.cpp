//===- InsertClusterBarrierPass.cpp - Cluster handshakes before tensor loads ===//
#include "stinkytofu/transforms/InsertClusterBarrierPass.h"

#include "stinkytofu/analysis/Liveness.h"
#include "stinkytofu/analysis/LoopInfo.h"
#include "stinkytofu/hw/HardwareModel.h"
#include "stinkytofu/hw/InstTiming.h"
#include "stinkytofu/hw/TargetInfo.h"
#include "stinkytofu/hw/WaitCounters.h"
#include "stinkytofu/ir/Module.h"
#include "stinkytofu/mc/InstInserter.h"
#include "stinkytofu/transforms/CFGBuilderPass.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/MC/MCSubtargetInfo.h"

using namespace llvm;

namespace stinkytofu {

namespace {

/// The named barriers of `s_barrier_signal` / `s_barrier_wait` (ISA): the
/// workgroup's and the cluster's.
constexpr int64_t WorkgroupBarrier = -1;
constexpr int64_t ClusterBarrier = -3;

struct Options {
  /// The wave-index SGPR as an operand (`s5`, `s[sgprWaveIdx]`).
  std::string WaveIdx = "s[sgprWaveIdx]";
  /// Estimated cycles the signal leads its wait (the reference's default).
  unsigned Lead = 100;
  /// Where a loop handshake goes (rule3Mode): 0 the wait before the
  /// workgroup signal, the signal `Lead` ahead; 1 the signal there and the
  /// wait after the workgroup wait; 2 both after the workgroup wait.
  unsigned Mode = 0;
  /// The producer drain (`s_wait_tensorcnt 0`) after each loop handshake's
  /// tensor-load group: -1 for StreamK cluster multicast at
  /// PrefetchGlobalRead 2 and up, 0 never, 1 always.
  int ProducerDrain = -1;
  bool StreamKMulticast = false;
  unsigned PrefetchGlobalRead = 1;
  bool drains() const {
    return ProducerDrain == 1 ||
           (ProducerDrain == -1 && StreamKMulticast && PrefetchGlobalRead >= 2);
  }
};

/// One handshake: its wait before WaitAt, its gated signal before SignalAt.
/// Where the gate overwrites a live SCC: after the signal a copy of
/// Restore, the compare that set it, or with SpillScc (no such compare) the
/// handshake twice, on arms chosen by SCC, each setting SCC back.
struct Handshake {
  Instruction *WaitAt = nullptr;
  Instruction *SignalAt = nullptr;
  const Instruction *Restore = nullptr;
  bool SpillScc = false;
  /// The last tensor load of the group to drain after, if any.
  Instruction *DrainAfter = nullptr;
};

/// A tensor load to plant for and its anchor: the workgroup signal in front
/// of it in a loop, the load itself for the kernel's first load.
struct Site {
  size_t Anchor, Load;
  bool inLoop() const { return Anchor != Load; }
};

/// One step of inserted code: an instruction to build, a copy to insert,
/// or a label that opens a block at the next instruction.
struct Step {
  std::optional<InstSpec> Spec;
  const Instruction *Copy = nullptr;
  std::string Label;
};

/// Whether \p I is `s_barrier_signal ID` (\p Signal) or `s_barrier_wait ID`.
bool isBarrier(const Instruction &I, bool Signal, int64_t Id) {
  if (I.kind() != InstKind::Machine)
    return false;
  InstRole Role = HardwareModel::roleOf(I.mnemonic().lower());
  if (Role != (Signal ? InstRole::Barrier : InstRole::BarrierWait))
    return false;
  const MCInst &Inst = I.mcInsts().front();
  return Inst.getNumOperands() >= 1 && Inst.getOperand(0).isImm() &&
         Inst.getOperand(0).getImm() == Id;
}

bool isClusterBarrier(const Instruction &I) {
  return isBarrier(I, true, ClusterBarrier) || isBarrier(I, false, ClusterBarrier);
}

/// The instructions of \p BB that are not pseudo-instructions.
SmallVector<Instruction *, 0> blockInstructions(BasicBlock &BB) {
  SmallVector<Instruction *, 0> Out;
  for (Instruction &I : BB.instructions())
    if (I.kind() != InstKind::Pseudo)
      Out.push_back(&I);
  return Out;
}

class InsertClusterBarrierPass final : public Pass {
public:
  explicit InsertClusterBarrierPass(Options O) : Opts(std::move(O)) {}
  StringRef name() const override { return "InsertClusterBarrierPass"; }

  Expected<PreservedAnalyses> run(Module &M, AnalysisManager &, const PassScope &Scope) override {
    const TargetInfo &TI = M.target();
    if (!TI.subtargetInfo().checkFeatures("+clusters"))
      return createStringError(inconvertibleErrorCode(),
                               name() + ": " + TI.processor() +
                                   " has no workgroup clusters (LLVM MC's 'clusters' feature)");
    InstBuilder Builder(M);
    if (Expected<Instruction> Gate = Builder.build(gateSpec()); !Gate)
      return createStringError(inconvertibleErrorCode(),
                               name() + ": the wave index '" + Opts.WaveIdx +
                                   "' does not assemble (" + toString(Gate.takeError()) +
                                   "): name its SGPR with waveIdx=");
    StringSet<> Labels;
    for (Function &F : M.functions())
      for (BasicBlock &BB : F.blocks())
        Labels.insert(BB.label());
    bool Changed = false;
    for (Function &F : M.functions()) {
      if (!F.isEntry())
        continue;
      Expected<std::vector<Handshake>> Plan = plan(M, F, Scope);
      if (!Plan)
        return Plan.takeError();
      for (const Handshake &H : *Plan) {
        if (H.DrainAfter)
          if (Error E = drainAfter(Builder, *H.DrainAfter))
            return std::move(E);
        if (Error E = plant(Builder, F, H, Labels))
          return std::move(E);
      }
      if (!Plan->empty()) {
        buildCFG(F);
        Changed = true;
      }
    }
    if (Fallbacks)
      context().statsStream() << name() << ": Rule 3 mode " << Opts.Mode << " kept mode 0 for "
                              << Fallbacks << " handshake(s): a block where some load has no "
                              << "workgroup wait between its signal and it, or SCC live where "
                              << "mode " << Opts.Mode << " puts the handshake\n";
    return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
  }

private:
  InstSpec gateSpec() const {
    return {"s_cmp_eq_u32", {BuildOperand::text(Opts.WaveIdx), BuildOperand::imm(0)}};
  }

  /// Every handshake of \p F, decided on the code as it stands.
  Expected<std::vector<Handshake>> plan(Module &M, Function &F, const PassScope &Scope) {
    buildCFG(F);
    DominatorTree DT(F);
    LoopInfo Loops(F, DT);
    Liveness Live(F);
    CounterModel Counters(M.target());
    InstTiming Timing(M.target());
    auto IsTensorLoad = [&](const Instruction &I) {
      if (I.kind() != InstKind::Machine)
        return false;
      MemoryAccess A = Counters.classify(I.mcInsts().front(), I.mnemonic());
      return A.has(WaitEvent::TensorLds) && A.WritesLds;
    };
    DenseMap<const BasicBlock *, bool> WaitedIn = clusterWaited(F, IsTensorLoad);
    std::vector<Handshake> Plan;
    SmallPtrSet<const Instruction *, 8> Triggers;
    bool FirstLoad = true;
    for (BasicBlock &BB : F.blocks()) {
      SmallVector<Instruction *, 0> Insts = blockInstructions(BB);
      SmallVector<Site, 2> Sites;
      for (size_t L = 0; L < Insts.size(); ++L) {
        if (!IsTensorLoad(*Insts[L]))
          continue;
        bool First = std::exchange(FirstLoad, false);
        if (!inScope(M, Scope, *Insts[L]))
          continue;
        if (!Loops.loopFor(&BB)) {
          if (First)
            Sites.push_back({L, L});
          continue;
        }
        // The workgroup barrier in front of the load in its block.
        for (size_t T = L; T-- > 0;) {
          if (Insts[T]->facts().has(IF_Call))
            break;
          if (isBarrier(*Insts[T], true, WorkgroupBarrier)) {
            if (Triggers.insert(Insts[T]).second)
              Sites.push_back({T, L});
            break;
          }
        }
      }
      // rule3Mode 1 and 2 hold for a block only when each of its loop
      // handshakes can take them; else the block keeps mode 0.
      unsigned Mode = Opts.Mode;
      unsigned InLoop = count_if(Sites, [](const Site &S) { return S.inLoop(); });
      if (Mode && any_of(Sites, [&](const Site &S) {
            return S.inLoop() && !modePlaces(Mode, Insts, S, Live);
          })) {
        Fallbacks += InLoop;
        Mode = 0;
      }
      for (const Site &S : Sites) {
        // (wait, signal) of modes 1 and 2; mode 0 waits at the anchor and
        // leads the signal.
        std::optional<std::pair<size_t, size_t>> Places;
        if (Mode && S.inLoop())
          Places = modePlaces(Mode, Insts, S, Live);
        size_t WaitAt = Places ? Places->first : S.Anchor;
        // Every path has waited for the cluster since its last tensor load:
        // the handshake is there (a second run adds nothing).
        bool Waited = WaitedIn.lookup(&BB);
        for (Instruction *I : ArrayRef(Insts).take_front(S.Load))
          Waited = waitedAfter(*I, Waited, IsTensorLoad);
        if (Waited)
          continue;
        Handshake H{Insts[WaitAt], nullptr, nullptr, false, nullptr};
        if (S.inLoop() && Opts.drains()) {
          size_t Last = S.Load;
          while (Last + 1 < Insts.size() && IsTensorLoad(*Insts[Last + 1]))
            ++Last;
          H.DrainAfter = Insts[Last];
        }
        std::optional<size_t> SignalAt =
            Places ? Places->second : leadSite(Insts, WaitAt, Live, Timing, Counters, Opts.Lead);
        if (SignalAt) {
          H.SignalAt = Insts[*SignalAt];
        } else {
          // SCC is live down to the wait: the gate goes with the wait and
          // the compare that set SCC runs again after it; without one, the
          // handshake runs on two arms that set SCC back.
          H.SignalAt = H.WaitAt;
          H.Restore = sccCompare(M.target(), Insts, WaitAt);
          H.SpillScc = !H.Restore;
        }
        Plan.push_back(H);
      }
    }
    return Plan;
  }

  /// Where rule3Mode \p Mode puts the wait and the signal of loop site
  /// \p S: after the workgroup wait between its signal and the load, the
  /// signal with the wait (2, at the first place there where SCC is dead)
  /// or at the anchor (1, where mode 0 puts the wait; SCC must be dead
  /// there). None when the mode does not fit.
  static std::optional<std::pair<size_t, size_t>>
  modePlaces(unsigned Mode, ArrayRef<Instruction *> Insts, const Site &S, const Liveness &Live) {
    std::optional<size_t> Protect;
    for (size_t W = S.Anchor + 1; W < S.Load && !Protect; ++W)
      if (isBarrier(*Insts[W], false, WorkgroupBarrier))
        Protect = W;
    if (!Protect)
      return std::nullopt;
    if (Mode == 1) {
      if (Live.isLiveBefore(*Insts[S.Anchor], "SCC"))
        return std::nullopt;
      return std::pair(*Protect + 1, S.Anchor);
    }
    for (size_t W = *Protect + 1; W <= S.Load; ++W)
      if (!Live.isLiveBefore(*Insts[W], "SCC"))
        return std::pair(W, W);
    return std::nullopt;
  }

  /// Whether every path has waited at the cluster barrier since its last
  /// tensor load (or call), after \p I given \p Waited before it.
  template <typename IsLoadT>
  static bool waitedAfter(const Instruction &I, bool Waited, IsLoadT IsTensorLoad) {
    if (isBarrier(I, false, ClusterBarrier))
      return true;
    return Waited && !IsTensorLoad(I) && !I.facts().has(IF_Call);
  }

  /// waitedAfter at the entry of every block: a must-dataflow (all
  /// predecessors), none at the function's entry.
  template <typename IsLoadT>
  static DenseMap<const BasicBlock *, bool> clusterWaited(Function &F, IsLoadT IsTensorLoad) {
    DenseMap<const BasicBlock *, bool> In, Out;
    for (BasicBlock &BB : F.blocks())
      Out[&BB] = true;
    for (bool Changed = true; Changed;) {
      Changed = false;
      for (BasicBlock &BB : F.blocks()) {
        bool Waited = &BB != &*F.blocks().begin() && !BB.predecessors().empty();
        for (const BasicBlock *P : BB.predecessors())
          Waited &= Out.lookup(P);
        In[&BB] = Waited;
        for (const Instruction &I : BB.instructions())
          Waited = waitedAfter(I, Waited, IsTensorLoad);
        if (Out[&BB] != Waited) {
          Out[&BB] = Waited;
          Changed = true;
        }
      }
    }
    return In;
  }

  /// Where the signal goes ahead of the wait at \p WaitAt: the first place
  /// up the block \p Lead cycles ahead where SCC is dead, else the highest
  /// such place; never above a cluster barrier, a call or a counter wait.
  /// None when SCC is live at every such place.
  std::optional<size_t> leadSite(ArrayRef<Instruction *> Insts, size_t WaitAt,
                                 const Liveness &Live, const InstTiming &Timing,
                                 const CounterModel &Counters, unsigned Lead) {
    std::optional<size_t> Best;
    uint64_t Cycles = 0;
    for (size_t At = WaitAt;; --At) {
      const Instruction &I = *Insts[At];
      if (At != WaitAt) {
        // A signal is a release point: the wait analysis wants the LDS
        // writes before it finished, so it stays below the counter waits.
        if (isClusterBarrier(I) || I.facts().has(IF_Call) ||
            (I.kind() == InstKind::Machine &&
             Counters.decodeWait(I.mcInsts().front(), I.mnemonic())))
          break;
        InstTimes T = Timing.times(I.mcInsts(), I.mnemonic());
        Cycles += std::max(T.Issue, T.MatrixPipe);
      }
      if (!Live.isLiveBefore(I, "SCC")) {
        Best = At;
        if (Cycles >= Lead)
          break;
      }
      if (At == 0)
        break;
    }
    return Best;
  }

  /// The instruction of the block that set the SCC live at \p WaitAt, when
  /// running it again gives the same SCC: it writes nothing else, reads no
  /// SCC, and nothing between overwrites what it reads.
  static const Instruction *sccCompare(const TargetInfo &TI, ArrayRef<Instruction *> Insts,
                                       size_t WaitAt) {
    const MCRegisterInfo &RI = TI.regInfo();
    MCRegister SCC = TI.findRegister("SCC");
    auto Touches = [&](ArrayRef<MCRegister> Regs, MCRegister R) {
      return any_of(Regs, [&](MCRegister X) { return RI.regsOverlap(X, R); });
    };
    for (size_t At = WaitAt; At-- > 0;) {
      const Instruction &I = *Insts[At];
      if (I.kind() != InstKind::Machine)
        return nullptr;
      if (!Touches(I.facts().Defs, SCC))
        continue;
      // (MC marks the SALU compares as having side effects; they have none.)
      if (I.facts().Defs.size() != 1 || Touches(I.facts().Uses, SCC) ||
          I.facts().has(IF_MayLoad) || I.facts().has(IF_MayStore))
        return nullptr;
      for (const Instruction *Between : ArrayRef(Insts).slice(At + 1, WaitAt - At - 1))
        for (MCRegister Use : I.facts().Uses)
          if (Touches(Between->facts().Defs, Use))
            return nullptr;
      return &I;
    }
    return nullptr;
  }

  /// A label no block of the module has: `<Stem><N>`, numbered (not the
  /// reference's random hash) so that the output is reproducible.
  std::string newLabel(StringRef Stem, StringSet<> &Labels) {
    std::string Name;
    do
      Name = (Stem + utostr(NextLabel[Stem]++)).str();
    while (!Labels.insert(Name).second);
    return Name;
  }

  /// The wave-0 gate and signal, then the wait (\p WithWait) and SCC
  /// \p Restore, as steps.
  void appendHandshake(std::vector<Step> &Steps, bool WithWait, const Instruction *Restore,
                       StringSet<> &Labels) {
    std::string Skip = newLabel("label_skipCBPreSignal_", Labels);
    Steps.push_back({gateSpec(), nullptr, ""});
    Steps.push_back({InstSpec{"s_cbranch_scc0", {BuildOperand::label(Skip)}}, nullptr, ""});
    Steps.push_back({InstSpec{"s_barrier_signal", {BuildOperand::imm(ClusterBarrier)}}, nullptr, ""});
    Steps.push_back({std::nullopt, nullptr, Skip});
    if (Restore)
      Steps.push_back({std::nullopt, Restore, ""});
    if (WithWait)
      Steps.push_back({waitSpec(), nullptr, ""});
  }

  static InstSpec waitSpec() {
    return {"s_barrier_wait", {BuildOperand::imm(ClusterBarrier)}};
  }

  /// Inserts \p H.
  Error plant(InstBuilder &Builder, Function &F, const Handshake &H, StringSet<> &Labels) {
    std::vector<Step> Steps;
    if (H.SpillScc) {
      // s_cbranch_scc0 In0; handshake; SCC = 1; s_branch Done;
      // In0: handshake; SCC = 0; Done: the anchor.
      std::string In0 = newLabel("label_cbSccSpill_", Labels);
      std::string Done = newLabel("label_cbSccSpill_", Labels);
      Steps.push_back({InstSpec{"s_cbranch_scc0", {BuildOperand::label(In0)}}, nullptr, ""});
      appendHandshake(Steps, true, nullptr, Labels);
      Steps.push_back(
          {InstSpec{"s_cmp_eq_u32", {BuildOperand::imm(0), BuildOperand::imm(0)}}, nullptr, ""});
      Steps.push_back({InstSpec{"s_branch", {BuildOperand::label(Done)}}, nullptr, ""});
      Steps.push_back({std::nullopt, nullptr, In0});
      appendHandshake(Steps, true, nullptr, Labels);
      Steps.push_back(
          {InstSpec{"s_cmp_lg_u32", {BuildOperand::imm(0), BuildOperand::imm(0)}}, nullptr, ""});
      Steps.push_back({std::nullopt, nullptr, Done});
      return insertSteps(Builder, F, *H.WaitAt, Steps);
    }
    bool Together = H.SignalAt == H.WaitAt;
    if (!Together)
      if (Error E = insertSteps(Builder, F, *H.WaitAt, {{waitSpec(), nullptr, ""}}))
        return E;
    appendHandshake(Steps, Together, H.Restore, Labels);
    return insertSteps(Builder, F, *H.SignalAt, Steps);
  }

  /// The producer drain: `s_wait_tensorcnt 0` right after \p LastLoad.
  static Error drainAfter(InstBuilder &Builder, Instruction &LastLoad) {
    InstInserter At(Builder);
    At.setInsertPointAfter(LastLoad);
    Expected<Instruction &> Drain = At.build(InstSpec{"s_wait_tensorcnt", {BuildOperand::imm(0)}});
    return Drain ? Error::success() : Drain.takeError();
  }

  /// Inserts \p Steps before \p Before; each label splits the block at the
  /// instruction after it.
  static Error insertSteps(InstBuilder &Builder, Function &F, Instruction &Before,
                           ArrayRef<Step> Steps) {
    InstInserter At(Builder);
    At.setInsertPointBefore(Before);
    std::vector<std::pair<Instruction *, std::string>> Splits;
    std::string Pending;
    for (const Step &S : Steps) {
      if (!S.Label.empty()) {
        Pending = S.Label;
        continue;
      }
      Instruction *I = nullptr;
      if (S.Copy) {
        I = &At.insert(S.Copy->clone());
      } else if (Expected<Instruction &> Built = At.build(*S.Spec)) {
        I = &*Built;
      } else {
        return Built.takeError();
      }
      if (!Pending.empty())
        Splits.push_back({I, std::exchange(Pending, "")});
    }
    if (!Pending.empty())
      Splits.push_back({&Before, Pending});
    for (auto &[I, Label] : Splits) {
      BasicBlock &BB = *I->parent();
      F.splitBlock(BB, BB.directivesBefore(*I), Label);
    }
    return Error::success();
  }

  Options Opts;
  StringMap<unsigned> NextLabel;
  /// Loop handshakes that kept mode 0 under rule3Mode 1 or 2 (a remark).
  unsigned Fallbacks = 0;
};

} // namespace

Expected<std::unique_ptr<Pass>> createInsertClusterBarrierPass(const PassArguments &Args) {
  Options O;
  for (const auto &[Key, Value] : Args) {
    unsigned N = 0;
    int I = 0;
    if (Key == "waveIdx" && !Value.empty()) {
      bool Register = Value.size() > 1 && (Value[0] == 's' || Value[0] == 'S') &&
                      all_of(StringRef(Value).drop_front(), isDigit);
      O.WaveIdx = Register ? Value : "s[" + Value + "]";
    } else if (Key == "lead" && to_integer(Value, I)) {
      // A negative lead is unset, as in TensileLite's option.
      if (I >= 0)
        O.Lead = I;
    } else if (Key == "pgr" && to_integer(Value, N)) {
      O.PrefetchGlobalRead = N;
    } else if (Key == "rule3Mode" && to_integer(Value, N) && N <= 2) {
      O.Mode = N;
    } else if (Key == "producerDrain" && to_integer(Value, I) && I >= -1 && I <= 1) {
      O.ProducerDrain = I;
    } else if (Key == "streamKMulticast" && (Value.empty() || Value == "0" || Value == "1")) {
      O.StreamKMulticast = Value != "0";
    } else {
      return createStringError(inconvertibleErrorCode(),
                               "argument '" + Key + (Value.empty() ? "" : "=" + Value) +
                                   "': expected lead=N, rule3Mode=0|1|2, pgr=N, "
                                   "producerDrain=-1|0|1, streamKMulticast or waveIdx=REG");
    }
  }
  return std::make_unique<InsertClusterBarrierPass>(std::move(O));
}

} // namespace stinkytofu
