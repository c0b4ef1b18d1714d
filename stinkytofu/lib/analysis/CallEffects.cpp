//===- CallEffects.cpp - What a call does to registers --------------------===//
#include "stinkytofu/analysis/CallEffects.h"
#include "stinkytofu/analysis/CallingConvention.h"
#include "stinkytofu/ir/BranchVocabulary.h"

using namespace llvm;

namespace stinkytofu {

static bool isOpaque(const Instruction &I) {
  return I.kind() == InstKind::Opaque || I.facts().has(IF_Opaque);
}

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

CallEffectAnalyzer::CallEffectAnalyzer(const Module &M, const RegisterUnits &RU)
    : M(M), RU(RU) {}

const CallEffect &CallEffectAnalyzer::unknown() {
  if (!Unknown)
    Unknown = CallEffect{/*Known=*/false, RU.all(), callClobberedUnits(RU), RU.none()};
  return *Unknown;
}

const Function *CallEffectAnalyzer::findCallee(StringRef Name) const {
  StringRef Resolved = M.resolveAlias(Name);
  for (StringRef N : {Name, Resolved}) {
    for (const Function &F : M.functions())
      if (F.name() == N)
        return &F;
    for (const Function &F : M.functions())
      if (!F.blocks().empty() && F.blocks().front().hasLabel() &&
          F.blocks().front().label() == N)
        return &F;
  }
  return nullptr;
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

CallEffect CallEffectAnalyzer::summarise(const Function &F) {
  CallEffect S{/*Known=*/true, RU.none(), RU.none(), RU.none()};
  std::vector<const BasicBlock *> Blocks;
  DenseMap<const BasicBlock *, unsigned> Index;
  for (const BasicBlock &B : F.blocks()) {
    Index[&B] = Blocks.size();
    Blocks.push_back(&B);
  }
  const unsigned N = Blocks.size();
  if (N == 0)
    return S;

  // One pass per block:
  // - may-sets over every instruction (UnionReads: every read, the fallback
  //   when there is no CFG to find the reads that come before a write);
  // - Must: what the block surely writes, up to a control transfer in its
  //   middle (a block the CFG builder has not split);
  // - Gen/Kill for the backward liveness inside the callee.
  BitVector UnionReads = RU.none();
  std::vector<BitVector> Must(N, RU.none()), Gen(N, RU.none()), Kill(N, RU.none());
  for (unsigned B = 0; B < N; ++B) {
    std::vector<const Instruction *> Insts;
    for (const Instruction &I : Blocks[B]->instructions())
      Insts.push_back(&I);
    std::vector<std::optional<CallTransfer>> Calls(Insts.size());
    bool Stopped = false;
    for (size_t K = 0; K < Insts.size(); ++K) {
      const Instruction &I = *Insts[K];
      if (isOpaque(I)) {
        UnionReads.set();
        S.MayWrite.set();
      } else if (I.facts().has(IF_Call)) {
        Calls[K] = makeCallTransfer(RU, I, effectOf(I));
        UnionReads |= Calls[K]->Gen;
        S.MayWrite |= Calls[K]->MayWrite;
        if (!Stopped)
          Must[B] |= Calls[K]->Kill;
      } else {
        for (MCRegister R : I.facts().Uses)
          RU.set(UnionReads, R);
        for (MCRegister R : I.facts().Defs) {
          RU.set(S.MayWrite, R);
          if (!Stopped)
            RU.set(Must[B], R);
        }
      }
      if (I.facts().has(IF_Branch) && K + 1 != Insts.size())
        Stopped = true;
    }
    for (size_t K = Insts.size(); K-- > 0;) {
      const Instruction &I = *Insts[K];
      if (isOpaque(I)) {
        Gen[B].set();
      } else if (Calls[K]) {
        Gen[B].reset(Calls[K]->Kill);
        Gen[B] |= Calls[K]->Gen;
        Kill[B] |= Calls[K]->Kill;
      } else {
        for (MCRegister R : I.facts().Defs) {
          RU.reset(Gen[B], R);
          RU.set(Kill[B], R);
        }
        for (MCRegister R : I.facts().Uses)
          RU.set(Gen[B], R);
      }
    }
  }

  std::vector<std::vector<unsigned>> Preds(N), Succs(N);
  size_t Edges = 0;
  for (unsigned B = 0; B < N; ++B)
    for (const BasicBlock *Succ : Blocks[B]->successors())
      if (auto It = Index.find(Succ); It != Index.end()) {
        Succs[B].push_back(It->second);
        Preds[It->second].push_back(B);
        ++Edges;
      }
  if (N > 1 && Edges == 0) {
    S.Reads = std::move(UnionReads); // no CFG: every read may come first
    return S;                        // and nothing is surely written
  }
  std::vector<bool> Reachable(N, false);
  std::vector<unsigned> Work{0};
  Reachable[0] = true;
  while (!Work.empty()) {
    unsigned B = Work.back();
    Work.pop_back();
    for (unsigned Succ : Succs[B])
      if (!Reachable[Succ]) {
        Reachable[Succ] = true;
        Work.push_back(Succ);
      }
  }

  // Reads: live-in of the entry, with nothing live after a return (what the
  // caller reads afterwards is the caller's business) and everything live
  // where control goes we do not know where.
  std::vector<BitVector> LiveIn(N, RU.none());
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (unsigned B = N; B-- > 0;) {
      BitVector Live = RU.none();
      if (Succs[B].empty()) {
        if (!leavesCleanly(*Blocks[B]))
          Live.set();
      } else {
        for (unsigned Succ : Succs[B])
          Live |= LiveIn[Succ];
      }
      Live.reset(Kill[B]);
      Live |= Gen[B];
      if (Live != LiveIn[B]) {
        LiveIn[B] = std::move(Live);
        Changed = true;
      }
    }
  }
  S.Reads = LiveIn[0];

  // Surely written on every path: a forward must-analysis from the entry,
  // intersected over the exits (reachable blocks without successors).
  std::vector<BitVector> Out(N, RU.all());
  Out[0] = Must[0];
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (unsigned B = 1; B < N; ++B) {
      if (!Reachable[B])
        continue;
      BitVector In = RU.all();
      for (unsigned P : Preds[B])
        if (Reachable[P])
          In &= Out[P];
      In |= Must[B];
      if (In != Out[B]) {
        Out[B] = std::move(In);
        Changed = true;
      }
    }
  }
  bool AnyExit = false;
  BitVector Surely = RU.all();
  for (unsigned B = 0; B < N; ++B)
    if (Reachable[B] && Succs[B].empty()) {
      Surely &= Out[B];
      AnyExit = true;
    }
  if (AnyExit)
    S.MustWrite = std::move(Surely);
  return S;
}

} // namespace stinkytofu
