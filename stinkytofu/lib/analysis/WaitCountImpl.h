//===- WaitCountImpl.h - The wait analysis's dataflow ----------*- C++ -*-===//
//
// Internal to the wait analysis (WaitCountAnalysis.cpp, the run;
// WaitCountKept.cpp, the states kept for questions after it): the
// dataflow over the wait states, its transfer and what it reads of each
// instruction. The file comment of WaitCountAnalysis.cpp describes the
// scores.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_LIB_ANALYSIS_WAITCOUNTIMPL_H
#define STINKYTOFU_LIB_ANALYSIS_WAITCOUNTIMPL_H

#include "stinkytofu/analysis/WaitCountAnalysis.h"
#include "LdsRingState.h"
#include "WaitCountState.h"
#include "WaitTargetUnits.h"
#include "stinkytofu/analysis/Dataflow.h"
#include "stinkytofu/analysis/FeasiblePath.h"
#include "stinkytofu/analysis/LdsRingPhases.h"
#include "stinkytofu/analysis/PathPartitions.h"
#include "stinkytofu/analysis/RegisterUnits.h"
#include "stinkytofu/hw/TargetInfo.h"
#include "stinkytofu/ir/BasicBlock.h"
#include "stinkytofu/ir/BranchVocabulary.h"
#include "stinkytofu/ir/Modifier.h"
#include "stinkytofu/ir/Module.h"
#include "stinkytofu/ir/SameMC.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/MC/MCInstrDesc.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCRegisterInfo.h"
#include <utility>

namespace stinkytofu {

// The two files this header serves read LLVM's names and the state's
// unqualified, as the analysis always has.
using namespace llvm;
using namespace waitcount;

namespace waitcount {

/// A return jumps to the return address the call left in s[30:31] (the
/// AMDGPU calling convention); an `s_setpc_b64` elsewhere in a callable is
/// a tail call, whose callee waits at entry.
inline bool jumpsToReturnAddress(const Instruction &I) {
  if (I.mcInsts().size() != 1 || I.mcInsts()[0].getNumOperands() == 0)
    return false;
  const MCOperand &Target = I.mcInsts()[0].getOperand(0);
  const Module *M = I.parent() && I.parent()->parent() ? I.parent()->parent()->parent() : nullptr;
  return Target.isReg() && M && M->target().asmName(Target.getReg()) == "s[30:31]";
}

/// Instructions described alike, each kind described once:
/// - clones sharing their MC buffer (Instruction::clone): nothing changes
///   during a run, so they hold the same words, MC instructions, facts and
///   modifiers (inserted code stamps out a few statements many times);
/// - statements that assembled to the same MC instructions, of the same
///   kind and mnemonic and without modifiers (a generator repeats its
///   lines). An expression operand counts only as such: a description
///   reads immediates (a wait's counts, a DS instruction's gds bit),
///   registers and opcodes, never what an expression says, so a branch or
///   an address computation naming another label describes alike.
/// The instructions seen must live while it is asked.
class DescriptionTwins {
public:
  explicit DescriptionTwins(size_t Expected = 0) { ByRecord.reserve(Expected); }

  /// \p I's description: one made before for an instruction described
  /// alike (second: false), or a new one from \p Make() for the caller to
  /// fill (second: true), which then serves those after it. Asked after
  /// \p I's words and facts, which a lazy record fills or copies first.
  template <typename MakeT>
  std::pair<InstInfo *, bool> described(const Instruction &I, MakeT Make) {
    ArrayRef<MCInst> MC = I.mcInsts();
    if (MC.empty())
      return {Make(), true};
    auto [Seen, First] = ByRecord.try_emplace({MC.data(), unsigned(I.kind())}, nullptr);
    if (!First)
      return {Seen->second, false};
    if (!I.modifiers().empty())
      return {Seen->second = Make(), true};
    auto &Alike = ByContent[hashMC(MC, /*ExpressionsAlike=*/true) ^ uint64_t(I.kind()) << 56];
    for (auto [T, Info] : Alike)
      if (T->kind() == I.kind() && T->mnemonic() == I.mnemonic() &&
          sameMC(T->mcInsts(), MC, /*ExpressionsAlike=*/true))
        return {Seen->second = Info, false};
    Seen->second = Make();
    Alike.emplace_back(&I, Seen->second);
    return {Seen->second, true};
  }

private:
  DenseMap<std::pair<const MCInst *, unsigned>, InstInfo *> ByRecord;
  DenseMap<uint64_t, SmallVector<std::pair<const Instruction *, InstInfo *>, 1>> ByContent;
};

} // namespace waitcount

struct WaitCountAnalysis::Impl
    : DataflowAnalysis<WaitCountAnalysis::Impl, WaitPaths, DataflowDirection::Forward> {
  using Base = DataflowAnalysis<Impl, WaitPaths, DataflowDirection::Forward>;
  /// Partitions per point when branches are correlated: a few are enough
  /// for the loop guards of real kernels, and each costs a state.
  static constexpr unsigned MaxPartitions = 3;

  const CounterModel &CM;
  WaitCountOptions Opts;
  RegisterUnits RU;
  /// The descriptions: the options', else the cache's, else this run's
  /// own (WaitDescriptions).
  WaitDescriptions OwnDescriptions;
  WaitDescriptions::Impl *Descriptions = OwnDescriptions.P.get();
  std::array<uint32_t, MaxWaitCounters> OutOfOrderEvents{};
  std::optional<unsigned> LoadCounter, StoreOnlyCounter;
  /// xcnt: like stores, LLVM leaves it to the caller at a return.
  std::optional<unsigned> TranslationCounter;
  MCRegister Exec;
  /// Registers MC gives a counter (WaitTargetUnits.h): no data to wait for.
  const BitVector *CounterUnits;
  /// The units a caller's pending load may write (loadDestinationUnits),
  /// asked only in callable functions: computed on first use (all of MC's
  /// opcodes are read, once per target).
  mutable const BitVector *LoadDestinations = nullptr;
  bool loadDestination(unsigned Unit) const {
    if (!LoadDestinations)
      LoadDestinations = &loadDestinationUnits(RU);
    return LoadDestinations->test(Unit);
  }
  /// Set while the final pass records what each instruction lacks.
  mutable MissingWait *Recording = nullptr;
  /// The branch facts, for correlation and for describing paths (else not
  /// built).
  std::optional<BranchConditions> Conditions;
  /// What the path searches read of each block, made by the first search
  /// and kept for the run's others.
  mutable std::optional<PathSteps> Paths;
  /// Off: one partition, no branch facts (the path-insensitive analysis).
  bool Correlate;
  /// Not a kernel: a jump to the caller is a return.
  bool Callable;
  /// The function states LDS ring slots and they hold (LdsRingState.h).
  bool Rings = false;
  /// The block results kept between runs: path-insensitive runs given a
  /// cache use it (WaitCountCache).
  WaitCountCache::Impl *Memo = nullptr;

  Impl(const Function &F, const CounterModel &CM, WaitCountOptions Opts, bool Correlate,
       WaitCountCache::Impl *Cache)
      : Base(F), CM(CM), Opts(Opts), RU(CM.target()), Exec(CM.target().findRegister("EXEC")),
        CounterUnits(&counterRegisterUnits(RU, CM)) {
    if (Opts.CorrelateBranches || Opts.DescribePaths)
      Conditions.emplace(F, CM.target());
    this->Correlate = Correlate && Conditions && Conditions->tracksAny();
    if (Cache) {
      Cache->begin(CM.target(), Opts.NumWaves);
      Descriptions = Cache->Descriptions;
      if (!this->Correlate)
        Memo = Cache;
    }
    if (Opts.Descriptions)
      Descriptions = Opts.Descriptions->P.get();
    Descriptions->begin(CM.target());
    for (unsigned E = 0; E < NumWaitEvents; ++E)
      if (auto C = CM.counterOf(WaitEvent(E)); C && !CM.inOrder(WaitEvent(E)))
        OutOfOrderEvents[*C] |= 1u << E;
    LoadCounter = CM.counterOf(WaitEvent::VmemLoad);
    auto Store = CM.counterOf(WaitEvent::VmemStore);
    if (Store && Store != LoadCounter)
      StoreOnlyCounter = Store;
    TranslationCounter = CM.counterOf(WaitEvent::Translation);
    Callable = !F.isEntry();
    Rings = statesLdsRings(F) && !findLdsRingContradiction(F, CM);
    // Room for every instruction not yet described at once (each growth of
    // the map moves every description).
    std::vector<const Instruction *> Undescribed;
    for (const BasicBlock &BB : F.blocks())
      for (const Instruction &I : BB.instructions())
        if (!Descriptions->Infos.contains(I.stamp()))
          Undescribed.push_back(&I);
    Descriptions->Infos.reserve(Descriptions->Infos.size() + Undescribed.size());
    DescriptionTwins Twins(Undescribed.size());
    for (const Instruction *Next : Undescribed) {
      const Instruction &I = *Next;
      auto [It, New] = Descriptions->Infos.try_emplace(I.stamp());
      if (!New)
        continue;
      (void)I.mnemonic();
      (void)I.facts();
      // The map does not grow here (reserved above): a description stays
      // where it was noted.
      auto [Info, Fresh] = Twins.described(I, [&] { return &It->second; });
      if (!Fresh) {
        It->second = *Info;
        continue;
      }
      describe(I, It->second);
      ++Descriptions->Described;
      if (Cache)
        ++Cache->Stats.Described;
    }
  }

  /// Fills \p II, new (in place: a description is large to move).
  void describe(const Instruction &I, InstInfo &II) const {
    II.Opaque = isOpaqueInstruction(I);
    if (II.Opaque)
      return;
    const TargetInfo &TI = CM.target();
    // A macro statement (or an expansion into several instructions) holds
    // instructions of other mnemonics: each is read by its own. Its waits
    // apply before its events start, the safe order for a whole statement.
    const bool OneInstruction = I.kind() == InstKind::Machine && I.mcInsts().size() == 1;
    for (const MCInst &MI : I.mcInsts()) {
      std::string Printed = OneInstruction ? std::string() : TI.printMC(MI);
      StringRef Mnemonic =
          OneInstruction ? I.mnemonic() : StringRef(Printed).split(' ').first.trim();
      if (std::optional<WaitCounts> W = CM.decodeWait(MI, Mnemonic)) {
        if (!II.Wait)
          II.Wait = WaitCounts();
        II.Wait->merge(*W);
      }
      MemoryAccess A = CM.classify(MI, Mnemonic);
      II.Access.Events |= A.Events;
      II.Access.ReadsLds |= A.ReadsLds;
      II.Access.WritesLds |= A.WritesLds;
      II.Access.GenericFlat |= A.GenericFlat;
      const MCInstrDesc &D = TI.instrInfo().get(MI.getOpcode());
      for (unsigned Op = D.getNumDefs(); Op < MI.getNumOperands(); ++Op)
        if (MI.getOperand(Op).isReg() && MI.getOperand(Op).getReg())
          append_range(II.ExplicitUseUnits, unitsOf(MI.getOperand(Op).getReg()));
    }
    const InstRole Role = HardwareModel::roleOf(I.mnemonic());
    // A wave-sync barrier orders only the issue of tensor loads: it publishes
    // no LDS work still in flight, so it needs none of it done.
    II.Barrier = Role == InstRole::Barrier && !I.getModifier<WaveSyncData>();
    II.CacheInvalidate = Role == InstRole::CacheInvalidate;
    II.JumpsToCaller = isIndirectBranch(I) && !I.getModifier<LabelData>() && !isProgramEnd(I) &&
                       jumpsToReturnAddress(I);
    II.Call = I.facts().has(IF_Call);
    for (MCRegister R : I.facts().Defs)
      for (unsigned U : unitsOf(R))
        if (!CounterUnits->test(U))
          II.DefUnits.emplace_back(U, R);
    for (MCRegister R : I.facts().Uses)
      for (unsigned U : unitsOf(R))
        if (!CounterUnits->test(U))
          II.UseUnits.emplace_back(U, R);
    for (auto Units : {ArrayRef(II.DefUnits), ArrayRef(II.UseUnits)})
      for (auto [U, R] : Units) {
        II.UnitsLo = std::min(II.UnitsLo, U);
        II.UnitsHi = std::max(II.UnitsHi, U);
      }
    II.WritesExec = any_of(I.facts().Defs,
                           [&](MCRegister R) { return TI.regInfo().regsOverlap(R, Exec); });
    if (const auto *T = I.getModifier<MemTokenData>())
      II.Tokens.assign(T->Tokens.begin(), T->Tokens.end());
    if (I.getModifier<LdsRingData>())
      II.Ring = std::make_shared<const RingInfo>(ringInfoOf(I));
  }

  /// \p R's units, kept with the descriptions (asked for each register
  /// operand of each instruction described).
  ArrayRef<unsigned> unitsOf(MCRegister R) const {
    auto [It, New] = Descriptions->Units.try_emplace(R.id());
    if (New)
      It->second = RU.units(R);
    return It->second;
  }

  const InstInfo &info(const Instruction &I) const {
    return Descriptions->Infos.find(I.stamp())->second;
  }

  /// Dataflow hooks: a block transfer the cache holds for this block's
  /// instructions and an equal state is taken instead of transferring it.
  bool reuseTransfer(const BasicBlock &BB, const WaitPaths &In, WaitPaths &Out) const {
    if (!Memo)
      return false;
    const WaitCountCache::Impl::Transfer *T = Memo->findTransfer(BB, In);
    if (!T)
      return false;
    // Nothing recorded for this state: the block's findings come from a
    // replay.
    Visited.erase(&BB);
    Out = T->Out;
    ++Memo->Stats.TransfersReused;
    return true;
  }
  void noteTransfer(const BasicBlock &BB, const WaitPaths &In, const WaitPaths &Out) const {
    if (Memo)
      Memo->addTransfer(BB, In, Out);
  }

  /// What one block lacks: its missing waits with the branch facts of
  /// each reason's partition, and its waits that complete nothing.
  struct BlockFindings {
    std::vector<MissingWait> Missing;
    std::vector<SmallVector<PathFacts, 1>> Facts;
    std::vector<const Instruction *> Redundant;
  };
  /// Set when the dataflow's own block transfers record what each block
  /// lacks (transferBlock): a block's last transfer starts from its final
  /// state, so no replay is needed unless that transfer was taken from the
  /// cache. Only where the transfer is the replay's: the partitions carry
  /// the facts the replay reads (branches correlated, or no facts at all).
  bool RecordVisits = false;
  mutable DenseMap<const BasicBlock *, BlockFindings> Visited;

  /// Dataflow hook: \p BB's instructions from \p S, recording (above).
  void transferBlock(const BasicBlock &BB, WaitPaths &S) const {
    if (!RecordVisits) {
      Base::transferBlock(BB, S);
      return;
    }
    BlockFindings &F = Visited[&BB];
    F = BlockFindings();
    recordBlock(BB, S, F);
  }

  void recordBlock(const BasicBlock &BB, WaitPaths &S, BlockFindings &F) const;
  void describePaths(const BasicBlock &BB, BlockFindings &F) const;
  void replayBlock(const BasicBlock &BB, const WaitPaths &In, std::vector<MissingWait> &Missing,
                   std::vector<const Instruction *> &Redundant) const;

  // The dataflow runs on partitions (PathPartitions.h); the hooks below
  // lift the wait state's own ones.

  WaitPaths initialState() const { return WaitPaths(); }
  WaitPaths entryState() const { return WaitPaths::unconditional(entryWaits()); }
  WaitPaths unreachedState(const BasicBlock &) const {
    return WaitPaths::unconditional(initialWaits());
  }
  auto joiner() const {
    return [this](WaitState &Into, const WaitState &From) { joinWaits(Into, From); };
  }
  void join(WaitPaths &Into, const WaitPaths &From) const {
    Into.join(From, Correlate ? MaxPartitions : 1, joiner());
  }
  const WaitPaths &transferEdge(const BasicBlock &From, const BasicBlock &To, const WaitPaths &Out,
                                WaitPaths &Scratch) const {
    if (!Correlate)
      return Out;
    return WaitPaths::alongEdge(*Conditions, From, To, Out, Scratch, MaxPartitions, joiner());
  }
  /// The code gets one wait for all its paths: what any partition lacks
  /// before \p I is applied to every partition.
  void transfer(const Instruction &I, WaitPaths &S) const {
    const InstInfo &II = info(I);
    SmallVector<WaitCounts, 4> Implicit(S.Parts.size());
    WaitCounts Shared;
    for (auto [P, H] : zip(S.Parts, Implicit))
      Shared.merge(requirements(I, II, P.State, H));
    for (auto [P, H] : zip(S.Parts, Implicit)) {
      if (Correlate)
        Conditions->transfer(I, P.Facts);
      H.merge(Shared);
      transferWaits(I, II, H, P.State);
    }
  }

  WaitState initialWaits() const {
    WaitState S;
    S.C.resize(CM.numCounters());
    for (unsigned C = 0; C < CM.numCounters(); ++C)
      S.C[C].Max = CM.counterMax(C);
    return S;
  }

  /// A callable function starts with its caller's loads, LDS and scalar
  /// work possibly in flight into any register a load can write (LLVM
  /// waits for them at the callee's entry).
  WaitState entryWaits() const {
    WaitState S = initialWaits();
    if (blocks().empty() || blocks().front()->parent()->isEntry())
      return S;
    for (WaitEvent E : {WaitEvent::VmemLoad, WaitEvent::Lds, WaitEvent::Smem})
      if (auto C = CM.counterOf(E)) {
        CounterState &CS = S.C[*C];
        CS.UB = CS.UnknownScore = 1;
      }
    return S;
  }

  void joinWaits(WaitState &Into, const WaitState &From) const {
    canonicalize(Into);
    // From in canonical form, read on the fly.
    SmallVector<int64_t, MaxWaitCounters> ShB = canonicalShift(From);
    // How far each side's scores move up so that the two UBs meet.
    SmallVector<int64_t, MaxWaitCounters> DA(Into.C.size()), DB(Into.C.size());
    for (unsigned C = 0; C < Into.C.size(); ++C) {
      int64_t UBB = From.C[C].UB - ShB[C];
      int64_t UB = std::max(Into.C[C].UB, UBB);
      DA[C] = UB - Into.C[C].UB;
      DB[C] = UB - UBB;
    }
    auto Shifted = [](int64_t Score, int64_t D) { return Score ? Score + D : 0; };
    auto Moved = [&](Pending P, ArrayRef<int64_t> D, unsigned C) {
      P.Score += D[C];
      if (P.DoneWith >= 0)
        P.DoneScore += D[P.DoneWith];
      return P;
    };
    for (unsigned C = 0; C < Into.C.size(); ++C) {
      CounterState &X = Into.C[C];
      const CounterState &Y = From.C[C];
      X.UB += DA[C];
      if (Y.UB - ShB[C])
        X.Kinds |= Y.Kinds;
      X.FlatScore = std::max(Shifted(X.FlatScore, DA[C]),
                             Shifted(rebasedScore(Y, Y.FlatScore, ShB[C]), DB[C]));
      X.UnknownScore = std::max(Shifted(X.UnknownScore, DA[C]),
                                Shifted(rebasedScore(Y, Y.UnknownScore, ShB[C]), DB[C]));
      int64_t LX = Shifted(X.LdsScore, DA[C]),
              LY = Shifted(rebasedScore(Y, Y.LdsScore, ShB[C]), DB[C]);
      if (LY > LX)
        X.LdsProducer = Y.LdsProducer;
      X.LdsScore = std::max(LX, LY);
      if (!X.Newest)
        X.Newest = Y.Newest;
      auto MergeMap = [&](auto &Into, const auto &FromMap) {
        for (auto &Entry : Into)
          Entry.second = Moved(Entry.second, DA, C);
        for (const auto &Entry : FromMap) {
          if (!entryPending(From, Y, Entry.second))
            continue;
          Pending Q = Moved(rebasedEntry(Entry.second, ShB, C), DB, C);
          auto [It, New] = Into.try_emplace(Entry.first, Q);
          if (New)
            continue;
          Pending &Old = It->second;
          // A translation ends with its operation only if it does on both.
          int DoneWith = Old.DoneWith == Q.DoneWith ? Old.DoneWith : -1;
          int64_t DoneScore = std::max(Old.DoneScore, Q.DoneScore);
          if (Q.Score > Old.Score)
            Old = Q;
          Old.DoneWith = DoneWith;
          Old.DoneScore = DoneWith >= 0 ? DoneScore : 0;
        }
      };
      MergeMap(X.Writes, Y.Writes);
      MergeMap(X.Reads, Y.Reads);
      X.UnitsLo = std::min(X.UnitsLo, Y.UnitsLo);
      X.UnitsHi = std::max(X.UnitsHi, Y.UnitsHi);
      MergeMap(X.LdsWrites, Y.LdsWrites);
      MergeMap(X.LdsReads, Y.LdsReads);
    }
  }

  bool outOfOrder(const WaitState &S, unsigned C) const {
    const CounterState &CS = S.C[C];
    if (CS.pending(CS.UnknownScore) || (CS.Kinds & OutOfOrderEvents[C]))
      return true;
    if (!CM.hardware().flatCountsInOrder() && CS.pending(CS.FlatScore))
      return true;
    // Two kinds of event on one counter complete in no common order.
    constexpr uint32_t VmemQueue = eventBit(WaitEvent::VmemLoad) |
                                   eventBit(WaitEvent::VmemStore) | eventBit(WaitEvent::LdsDma);
    constexpr uint32_t LdsQueue = eventBit(WaitEvent::Lds) | eventBit(WaitEvent::FlatLds);
    uint32_t Queues = CS.Kinds & ~(VmemQueue | LdsQueue);
    unsigned Count = popcount(Queues) + bool(CS.Kinds & VmemQueue) + bool(CS.Kinds & LdsQueue);
    return Count > 1;
  }

  /// Requires of counter \p C that the operation of score \p Score be done.
  void need(const WaitState &S, WaitCounts &W, unsigned C, int64_t Score,
            const WaitReason &Why) const {
    const CounterState &CS = S.C[C];
    if (!CS.pending(Score))
      return;
    int N = outOfOrder(S, C) ? 0 : int(std::min<int64_t>(CS.UB - Score, CS.Max - 1));
    bool Stricter = !W.waits(C) || N < W.Count[C];
    W.require(C, N);
    if (Recording && Stricter) {
      WaitReason R = Why;
      R.Counter = C;
      R.Needed = N;
      R.Outstanding = unsigned(CS.UB - CS.LB);
      auto It = find_if(Recording->Reasons, [&](const WaitReason &Old) { return Old.Counter == C; });
      if (It != Recording->Reasons.end())
        *It = R;
      else
        Recording->Reasons.push_back(R);
    }
  }

  WaitReason reason(WaitReason::Kind K, const Instruction *Producer,
                    MCRegister Reg = MCRegister()) const {
    WaitReason R;
    R.What = K;
    R.Producer = Producer;
    R.Register = Reg;
    return R;
  }

  /// The waits \p I needs in state \p S; \p Implicit receives those the
  /// hardware itself provides before \p I.
  WaitCounts requirements(const Instruction &I, const InstInfo &II, const WaitState &S,
                          WaitCounts &Implicit) const {
    WaitCounts W;
    const unsigned N = S.C.size();
    if (II.Opaque) {
      for (unsigned C = 0; C < N; ++C)
        need(S, W, C, S.C[C].UB, reason(WaitReason::Opaque, S.C[C].Newest));
      return W;
    }
    // Only counters with work in flight can ask for a wait, and for a
    // register only those that hold registers in the instruction's range
    // of units or a caller's work.
    bool AnyBusy = false;
    SmallVector<unsigned, MaxWaitCounters> Holding;
    for (unsigned C = 0; C < N; ++C) {
      const CounterState &CS = S.C[C];
      if (!CS.busy())
        continue;
      AnyBusy = true;
      if (((!CS.Writes.empty() || !CS.Reads.empty()) && CS.UnitsLo <= II.UnitsHi &&
           II.UnitsLo <= CS.UnitsHi) ||
          CS.pending(CS.UnknownScore))
        Holding.push_back(C);
    }
    if (!AnyBusy)
      return W;
    for (auto [U, R] : Holding.empty() ? ArrayRef<std::pair<unsigned, MCRegister>>() : II.UseUnits)
      for (unsigned C : Holding) {
        const CounterState &CS = S.C[C];
        if (CS.mayHold(U))
          if (auto It = CS.Writes.find(U); It != CS.Writes.end() && entryPending(S, CS, It->second))
            need(S, W, C, It->second.Score, reason(WaitReason::Read, It->second.Producer, R));
        if (CS.pending(CS.UnknownScore) && loadDestination(U))
          need(S, W, C, CS.UnknownScore, reason(WaitReason::Read, nullptr, R));
      }
    const bool InOrderVmem = CM.hardware().vmemWritesVgprInOrder() &&
                             II.Access.has(WaitEvent::VmemLoad);
    // VMEM instructions translate their addresses in order: a later one
    // writes no register before the earlier ones have read theirs, which
    // completes their translations without a wait (as LLVM applies it).
    const bool VmemTranslates = II.Access.has(WaitEvent::Translation);
    for (auto [U, R] : Holding.empty() ? ArrayRef<std::pair<unsigned, MCRegister>>() : II.DefUnits)
      for (unsigned C : Holding) {
        const CounterState &CS = S.C[C];
        if (CS.mayHold(U)) {
          if (auto It = CS.Writes.find(U); It != CS.Writes.end() &&
                                           entryPending(S, CS, It->second) &&
                                           !(InOrderVmem && C == LoadCounter))
            need(S, W, C, It->second.Score, reason(WaitReason::Write, It->second.Producer, R));
          if (auto It = CS.Reads.find(U); It != CS.Reads.end() && entryPending(S, CS, It->second))
            need(S, VmemTranslates && C == TranslationCounter ? Implicit : W, C, It->second.Score,
                 reason(WaitReason::Overwrite, It->second.Producer, R));
        }
        if (CS.pending(CS.UnknownScore) && loadDestination(U))
          need(S, W, C, CS.UnknownScore, reason(WaitReason::Write, nullptr, R));
      }
    if (II.WritesExec)
      if (auto C = CM.counterOf(WaitEvent::Export)) {
        const CounterState &CS = S.C[*C];
        if (CS.Kinds & (eventBit(WaitEvent::Export) | eventBit(WaitEvent::GdsGprLock)))
          need(S, W, *C, CS.UB, reason(WaitReason::Overwrite, CS.Newest));
      }
    if (II.Access.ReadsLds || II.Access.WritesLds)
      checkLds(II, S, W);
    if (II.Barrier)
      for (unsigned C = 0; C < N; ++C) {
        const CounterState &CS = S.C[C];
        if (Rings && II.Ring && II.Ring->ordersSlots())
          forEachRingDependence(S, CS, *II.Ring, true, false, false, [&](const Pending &P) {
            need(S, W, C, P.Score, reason(WaitReason::Barrier, P.Producer));
          });
        else
          need(S, W, C, CS.LdsScore, reason(WaitReason::Barrier, CS.LdsProducer));
        if (CM.hardware().barrierNeedsIdleCounters())
          need(S, W, C, CS.UB, reason(WaitReason::Barrier, CS.Newest));
      }
    // The acquire half of a fence: the loads and returning atomics before
    // the invalidate must be done (LLVM's rule; stores belong to the
    // release half, which the memory legalizer orders).
    if (II.CacheInvalidate && LoadCounter)
      need(S, W, *LoadCounter, S.C[*LoadCounter].UB,
           reason(WaitReason::Invalidate, S.C[*LoadCounter].Newest));
    if (II.JumpsToCaller && Callable)
      for (unsigned C = 0; C < N; ++C)
        if (C != StoreOnlyCounter && C != TranslationCounter)
          need(S, W, C, S.C[C].UB, reason(WaitReason::Return, S.C[C].Newest));
    dropImpliedTranslationWait(I, II, S, W);
    return W;
  }

  /// A load or SMEM operation that completed has translated its address:
  /// when the other waits of \p W already finish every translation the
  /// instruction depends on, its xcnt wait goes (as LLVM's applyXcnt).
  void dropImpliedTranslationWait(const Instruction &I, const InstInfo &II, const WaitState &S,
                                  WaitCounts &W) const {
    if (!TranslationCounter || !W.waits(*TranslationCounter))
      return;
    WaitCounts Others = W;
    Others.Count[*TranslationCounter] = WaitCounts::NoWait;
    if (Others.empty())
      return;
    WaitState After = S;
    applyWaits(Others, After);
    MissingWait *Saved = std::exchange(Recording, nullptr);
    WaitCounts Implicit;
    bool StillNeeded = requirements(I, II, After, Implicit).waits(*TranslationCounter);
    Recording = Saved;
    if (!StillNeeded)
      W.Count[*TranslationCounter] = WaitCounts::NoWait;
  }

  /// LDS written (or, for a writer, read) by a transfer on another counter.
  void checkLds(const InstInfo &II, const WaitState &S, WaitCounts &W) const {
    auto Relevant = [&](int64_t Token) {
      return !isRingKey(Token) &&
             (II.Tokens.empty() || Token == Untagged || is_contained(II.Tokens, Token));
    };
    for (unsigned C = 0; C < S.C.size(); ++C) {
      // Operations on the instruction's own counters reach LDS in order.
      bool Own = false;
      for (unsigned E = 0; E < NumWaitEvents; ++E)
        if ((II.Access.Events & (1u << E)) && CM.counterOf(WaitEvent(E)) == C &&
            WaitEvent(E) != WaitEvent::Translation && WaitEvent(E) != WaitEvent::SmemTranslation)
          Own = true;
      if (Own)
        continue;
      if (Opts.NumWaves > 1 && !II.Barrier && C == CM.counterOf(WaitEvent::TensorLds))
        continue;
      const CounterState &CS = S.C[C];
      auto Scan = [&](const DenseMap<int64_t, Pending> &Map) {
        for (const auto &[Token, P] : Map)
          if (Relevant(Token) && entryPending(S, CS, P))
            need(S, W, C, P.Score, reason(WaitReason::LdsAccess, P.Producer));
      };
      Scan(CS.LdsWrites);
      if (II.Access.WritesLds)
        Scan(CS.LdsReads);
      if (Rings)
        forEachRingDependence(S, CS, II.Ring ? *II.Ring : RingInfo(), false, II.Access.ReadsLds,
                              II.Access.WritesLds, [&](const Pending &P) {
                                need(S, W, C, P.Score, reason(WaitReason::LdsAccess, P.Producer));
                              });
    }
  }

  // The state's counters are shared with its copies (CounterStates): what
  // changes nothing reads them through a const reference, so that they
  // stay shared.

  /// Whether some counter of \p S has work in flight.
  static bool anyBusy(const WaitState &S) {
    for (unsigned C = 0; C < S.C.size(); ++C)
      if (S.C[C].busy())
        return true;
    return false;
  }

  /// Makes counter \p C of \p S idle.
  static void makeIdle(WaitState &S, unsigned C) {
    const CounterState &CS = std::as_const(S).C[C];
    // Already as idle() leaves it (an LDS map with buckets would keep them,
    // which orders its later entries: only one without buckets is left).
    if (CS.LB == CS.UB && !CS.Kinds && CS.Writes.empty() && CS.Reads.empty() &&
        !CS.LdsWrites.getMemorySize() && !CS.LdsReads.getMemorySize())
      return;
    S.C.idle(C);
  }

  void applyWaits(const WaitCounts &W, WaitState &S) const {
    for (unsigned C = 0; C < S.C.size(); ++C) {
      if (!W.waits(C))
        continue;
      if (W.Count[C] == 0) {
        makeIdle(S, C);
        continue;
      }
      const CounterState &CS = std::as_const(S).C[C];
      if (int64_t LB = CS.UB - W.Count[C]; LB > CS.LB && !outOfOrder(S, C))
        S.C[C].LB = LB;
    }
    settleTranslations(S);
  }

  /// A memory operation that completed has finished its address
  /// translation: once no SMEM (or no VMEM) operation is in flight, xcnt
  /// holds none of theirs (as LLVM's xcnt handling assumes).
  void settleTranslations(WaitState &S) const {
    auto X = CM.counterOf(WaitEvent::Translation);
    const WaitState &Now = S;
    if (!X || !Now.C[*X].Kinds)
      return;
    auto Idle = [&](WaitEvent E) {
      auto C = CM.counterOf(E);
      return !C || !(Now.C[*C].busy() && (Now.C[*C].Kinds & eventBit(E)));
    };
    uint32_t Kinds = Now.C[*X].Kinds;
    if (Idle(WaitEvent::Smem))
      Kinds &= ~eventBit(WaitEvent::SmemTranslation);
    if (Idle(WaitEvent::VmemLoad) && Idle(WaitEvent::VmemStore) && Idle(WaitEvent::LdsDma) &&
        Idle(WaitEvent::TensorLds) && Idle(WaitEvent::AsyncLds))
      Kinds &= ~eventBit(WaitEvent::Translation);
    if (Kinds == Now.C[*X].Kinds)
      return;
    CounterState &XS = S.C[*X];
    XS.Kinds = Kinds;
    if (!XS.Kinds)
      XS.idle();
  }

  /// \p I in one partition, after the waits \p Needed (what it lacks, what
  /// the hardware provides, what other partitions lack there).
  void transferWaits(const Instruction &I, const InstInfo &II, const WaitCounts &Needed,
                     WaitState &S) const {
    applyWaits(Needed, S);
    if (II.Wait)
      applyWaits(*II.Wait, S);
    if (II.Call) {
      // The callee waited for everything but stores.
      for (unsigned C = 0; C < S.C.size(); ++C)
        if (C != StoreOnlyCounter)
          makeIdle(S, C);
      if (StoreOnlyCounter)
        ++S.C[*StoreOnlyCounter].UB;
    }
    startEvents(I, II, S);
    if (Rings && II.Ring && !II.Ring->Advances.empty())
      advanceRingFrames(S, II.Ring->Advances);
  }

  void startEvents(const Instruction &I, const InstInfo &II, WaitState &S) const {
    if (!II.Access.Events)
      return;
    SmallVector<unsigned, 4> Touched;
    for (unsigned E = 0; E < NumWaitEvents; ++E)
      if (II.Access.Events & (1u << E)) {
        unsigned C = *CM.counterOf(WaitEvent(E));
        if (!is_contained(Touched, C)) {
          Touched.push_back(C);
          ++S.C[C].UB;
          S.C[C].Newest = &I;
        }
        S.C[C].Kinds |= 1u << E;
      }
    // The counter whose completion also ends the instruction's translation.
    int Main = -1;
    for (unsigned C : Touched)
      if (C != CM.counterOf(WaitEvent::Translation) && C != CM.counterOf(WaitEvent::SmemTranslation)) {
        Main = int(C);
        break;
      }
    for (unsigned E = 0; E < NumWaitEvents; ++E) {
      if (!(II.Access.Events & (1u << E)))
        continue;
      WaitEvent Ev = WaitEvent(E);
      unsigned C = *CM.counterOf(Ev);
      CounterState &CS = S.C[C];
      Pending P{CS.UB, &I};
      switch (Ev) {
      case WaitEvent::Translation:
      case WaitEvent::SmemTranslation:
        if (Main >= 0) {
          P.DoneWith = Main;
          P.DoneScore = S.C[Main].UB;
        }
        // Every register the instruction reads, EXEC and M0 included, stays
        // in use until its address is translated (as LLVM scores xcnt).
        for (auto Unit : II.UseUnits) {
          CS.Reads[Unit.first] = P;
          CS.holdUnit(Unit.first);
        }
        continue;
      case WaitEvent::Export:
      case WaitEvent::GdsGprLock:
        for (unsigned U : II.ExplicitUseUnits) {
          CS.Reads[U] = P;
          CS.holdUnit(U);
        }
        continue;
      default:
        break;
      }
      for (auto Unit : II.DefUnits) {
        CS.Writes[Unit.first] = P;
        CS.holdUnit(Unit.first);
      }
      if (Ev == WaitEvent::Lds || Ev == WaitEvent::FlatLds || Ev == WaitEvent::LdsDma ||
          Ev == WaitEvent::TensorLds || Ev == WaitEvent::AsyncLds) {
        CS.LdsScore = CS.UB;
        CS.LdsProducer = &I;
        if (Rings)
          recordRingEvent(CS, II.Ring ? *II.Ring : RingInfo(), P);
      }
      if (Ev == WaitEvent::LdsDma || Ev == WaitEvent::TensorLds || Ev == WaitEvent::AsyncLds) {
        auto &Map = II.Access.WritesLds ? CS.LdsWrites : CS.LdsReads;
        if (II.Tokens.empty())
          Map[Untagged] = P;
        for (int64_t T : II.Tokens)
          Map[T] = P;
      }
    }
    if (II.Access.GenericFlat)
      for (unsigned C : Touched)
        S.C[C].FlatScore = S.C[C].UB;
  }

  /// Whether the existing wait \p W completes anything in state \p S.
  bool completesSomething(const WaitCounts &W, const WaitState &S) const {
    for (unsigned C = 0; C < S.C.size(); ++C) {
      if (!W.waits(C) || !S.C[C].busy())
        continue;
      if (W.Count[C] == 0 ||
          (!outOfOrder(S, C) && W.Count[C] < S.C[C].UB - S.C[C].LB))
        return true;
    }
    return false;
  }
};

} // namespace stinkytofu

#endif
