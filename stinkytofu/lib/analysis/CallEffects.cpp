//===- CallEffects.cpp - What a call does to registers --------------------===//
#include "stinkytofu/analysis/CallEffects.h"
#include "stinkytofu/analysis/CallGraph.h"
#include "stinkytofu/analysis/CallingConvention.h"
#include "stinkytofu/analysis/LiveUnitsDataflow.h"
#include "stinkytofu/ir/BranchVocabulary.h"

using namespace llvm;

namespace stinkytofu {

CallTransfer makeCallTransfer(const RegisterUnits &RU, const Instruction &Call,
                              const CallEffect &Effect) {
  CallTransfer T{RU.none(), RU.none(), RU.none()};
  for (MCRegister R : Call.facts().Defs)
    RU.set(T.Kill, R);
  // The callee runs after the call has written its own defs (s_swappc_b64
  // writes the return address its callee reads). In a macro expansion the
  // defs may also come after the call: nothing is subtracted then.
  T.Gen = Effect.Reads;
  if (Call.kind() == InstKind::Machine)
    T.Gen.reset(T.Kill);
  for (MCRegister R : Call.facts().Uses)
    RU.set(T.Gen, R);
  T.MayWrite = T.Kill;
  T.MayWrite |= Effect.MayWrite;
  T.Kill |= Effect.MustWrite;
  return T;
}

CallEffectAnalyzer::CallEffectAnalyzer(const Module &M, const RegisterUnits &RU,
                                       std::optional<BitVector> UnknownCalleeReads)
    : M(M), RU(RU), UnknownCalleeReads(std::move(UnknownCalleeReads)) {}

const CallEffect &CallEffectAnalyzer::unknown() {
  if (!Unknown)
    Unknown = CallEffect{/*Known=*/false, UnknownCalleeReads ? *UnknownCalleeReads : RU.all(),
                         callClobberedUnits(RU), RU.none()};
  return *Unknown;
}

const Function *CallEffectAnalyzer::findCallee(StringRef Name) const {
  return stinkytofu::findCallee(M, Name);
}

CallEffect CallEffectAnalyzer::effectOf(const Instruction &Call) {
  const auto *Targets = Call.getModifier<CallTargetData>();
  if (!Targets || Targets->Callees.empty())
    return unknown();
  CallEffect E{/*Known=*/true, RU.none(), RU.none(), RU.all()};
  for (const std::string &Name : Targets->Callees) {
    const Function *F = findCallee(Name);
    if (!F)
      return unknown();
    const CallEffect *S = summaryOf(*F);
    if (!S)
      return unknown(); // recursion
    E.Reads |= S->Reads;
    E.MayWrite |= S->MayWrite;
    E.MustWrite &= S->MustWrite;
  }
  return E;
}

const CallEffect *CallEffectAnalyzer::summaryOf(const Function &F) {
  if (auto It = Summaries.find(&F); It != Summaries.end())
    return It->second.get();
  if (!InProgress.insert(&F).second)
    return nullptr;
  auto S = std::make_unique<CallEffect>(summarise(F));
  InProgress.erase(&F);
  return (Summaries[&F] = std::move(S)).get();
}

/// Whether control leaving \p BB without a successor goes back to the caller
/// (a return) or ends the wave; otherwise (a branch whose target was not
/// found, or falling off the end) we do not know where it goes.
static bool leavesCleanly(const BasicBlock &BB) {
  if (BB.empty())
    return false;
  const Instruction &Last = BB.instructions().back();
  return isProgramEnd(Last) || isReturn(Last) ||
         (isIndirectBranch(Last) && !Last.getModifier<LabelData>());
}

using CallTransfers = DenseMap<const Instruction *, CallTransfer>;
/// What the callees of each tail call read (CallEffect::Reads).
using TailCallReads = DenseMap<const Instruction *, BitVector>;

namespace {

/// What a callee may read before writing it: the live-in of its entry, with
/// nothing live after a return (what the caller reads afterwards is the
/// caller's business) and everything live where control goes we do not know
/// where. Edges to other functions are not followed.
class CalleeReads : public LiveUnitsDataflow<CalleeReads> {
public:
  CalleeReads(const Function &F, const RegisterUnits &RU, const CallTransfers &Calls,
              const TailCallReads &Tails)
      : LiveUnitsDataflow(F, RU), Calls(Calls), Tails(Tails) {}

  const CallTransfer &callTransfer(const Instruction &Call) const {
    return Calls.find(&Call)->second;
  }
  BitVector exitState(const BasicBlock &BB) const {
    if (!BB.empty())
      if (auto It = Tails.find(&BB.instructions().back()); It != Tails.end())
        return It->second; // the tail callee's reads are ours
    return leavesCleanly(BB) ? RU.none() : RU.all();
  }

private:
  const CallTransfers &Calls;
  const TailCallReads &Tails;
};

/// What is surely written on every path from the entry of a callee: a
/// forward must-analysis (intersection where paths meet). A write after a
/// branch inside a block (one the CFG builder has not split) does not count:
/// control may have left before it.
class SurelyWritten
    : public DataflowAnalysis<SurelyWritten, BitVector, DataflowDirection::Forward> {
public:
  SurelyWritten(const Function &F, const RegisterUnits &RU, const CallTransfers &Calls,
                const DenseSet<const Instruction *> &AfterInnerBranch)
      : DataflowAnalysis(F), RU(RU), Calls(Calls), AfterInnerBranch(AfterInnerBranch) {}

  /// Nothing is known to be unwritten until a path says so.
  BitVector initialState() const { return RU.all(); }
  BitVector entryState() const { return RU.none(); }
  void join(BitVector &Into, const BitVector &From) const { Into &= From; }
  void transfer(const Instruction &I, BitVector &Written) const {
    if (!AfterInnerBranch.contains(&I))
      for (MCRegister R : I.facts().Defs)
        RU.set(Written, R);
  }
  void transferCall(const Instruction &I, BitVector &Written) const {
    if (!AfterInnerBranch.contains(&I))
      Written |= Calls.find(&I)->second.Kill;
  }
  /// An opaque instruction may write anything but surely writes nothing.
  void transferOpaque(const Instruction &, BitVector &) const {}

private:
  const RegisterUnits &RU;
  const CallTransfers &Calls;
  const DenseSet<const Instruction *> &AfterInnerBranch;
};

} // namespace

CallEffect CallEffectAnalyzer::summarise(const Function &F) {
  CallEffect S{/*Known=*/true, RU.none(), RU.none(), RU.none()};
  if (F.blocks().empty())
    return S;

  // One pass over the instructions: the effect of each call, the may-sets
  // (UnionReads: every read, the fallback when there is no CFG to find the
  // reads that come before a write) and the instructions that follow a
  // branch in the middle of their block.
  BitVector UnionReads = RU.none();
  CallTransfers Calls;
  TailCallReads Tails;
  DenseSet<const Instruction *> AfterInnerBranch;
  for (const BasicBlock &BB : F.blocks()) {
    const Instruction *BranchInside = nullptr;
    for (const Instruction &I : BB.instructions()) {
      if (BranchInside)
        AfterInnerBranch.insert(&I);
      if (isOpaqueInstruction(I)) {
        UnionReads.set();
        S.MayWrite.set();
      } else if (I.facts().has(IF_Call)) {
        CallTransfer T = makeCallTransfer(RU, I, effectOf(I));
        UnionReads |= T.Gen;
        S.MayWrite |= T.MayWrite;
        Calls[&I] = std::move(T);
      } else {
        for (MCRegister R : I.facts().Uses)
          RU.set(UnionReads, R);
        for (MCRegister R : I.facts().Defs)
          RU.set(S.MayWrite, R);
        if (isTailCall(I)) {
          CallEffect Tail = effectOf(I);
          UnionReads |= Tail.Reads;
          S.MayWrite |= Tail.MayWrite;
          Tails[&I] = std::move(Tail.Reads);
        }
      }
      if (I.facts().has(IF_Branch) && &I != &BB.instructions().back())
        BranchInside = &I;
    }
  }

  CalleeReads Reads(F, RU, Calls, Tails);
  size_t Edges = 0;
  for (const BasicBlock *BB : Reads.blocks())
    for (const BasicBlock *Succ : BB->successors())
      Edges += Reads.contains(*Succ);
  if (Reads.blocks().size() > 1 && Edges == 0) {
    S.Reads = std::move(UnionReads); // no CFG: every read may come first
    return S;                        // and nothing is surely written
  }
  cantFail(Reads.run()); // no visit limit: it cannot fail
  S.Reads = Reads.stateIn(F.blocks().front());

  // Surely written: intersected over the exits (blocks without successors)
  // that the entry reaches.
  SurelyWritten Written(F, RU, Calls, AfterInnerBranch);
  cantFail(Written.run());
  DenseSet<const BasicBlock *> Reachable{&F.blocks().front()};
  std::vector<const BasicBlock *> Work{&F.blocks().front()};
  bool AnyExit = false;
  BitVector Surely = RU.all();
  while (!Work.empty()) {
    const BasicBlock *BB = Work.back();
    Work.pop_back();
    bool HasSuccessor = false;
    for (const BasicBlock *Succ : BB->successors()) {
      if (!Written.contains(*Succ))
        continue;
      HasSuccessor = true;
      if (Reachable.insert(Succ).second)
        Work.push_back(Succ);
    }
    if (!HasSuccessor) {
      Surely &= Written.stateOut(*BB);
      AnyExit = true;
    }
  }
  if (AnyExit)
    S.MustWrite = std::move(Surely);
  return S;
}

} // namespace stinkytofu
