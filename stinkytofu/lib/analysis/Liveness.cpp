//===- Liveness.cpp - Register liveness at instruction granularity --------===//
#include "stinkytofu/analysis/Liveness.h"
#include "stinkytofu/hw/HardwareModel.h"
#include "stinkytofu/ir/BranchVocabulary.h"
#include "stinkytofu/ir/Module.h"
#include "llvm/Support/ErrorHandling.h"

using namespace llvm;

namespace stinkytofu {

AnalysisKey LivenessAnalysis::Key;

/// s_endpgm and its variants end the wave: nothing is live after them.
static bool endsProgram(const BasicBlock &BB) {
  return !BB.empty() && isProgramEnd(BB.instructions().back());
}

Liveness::Liveness(Function &F) : Fn(&F) {
  Module *M = F.parent();
  if (!M)
    report_fatal_error("Liveness: function '" + F.name() + "' belongs to no module");
  RU = std::make_unique<RegisterUnits>(M->target());
  AllLive = RU->all(); // what an unknown instruction gets: everything live
  CallEffectAnalyzer Callees(*M, *RU);
  for (BasicBlock &BB : F.blocks()) {
    unsigned B = Blocks.size();
    BlockIndex[&BB] = B;
    Blocks.push_back(&BB);
    unsigned Idx = 0;
    for (Instruction &I : BB.instructions()) {
      InstPos[&I] = Position{B, Idx++};
      if (!isOpaque(I) && I.facts().has(IF_Call)) {
        CallEffect E = Callees.effectOf(I);
        CallTransfer T = makeCallTransfer(*RU, I, E);
        Calls[&I] = std::make_unique<CallInfo>(CallInfo{std::move(E), std::move(T)});
      }
    }
  }
  Points.resize(Blocks.size());
  computeBlocks();
}

bool Liveness::isOpaque(const Instruction &I) const {
  return I.kind() == InstKind::Opaque || I.facts().has(IF_Opaque);
}

const Liveness::CallInfo *Liveness::callInfo(const Instruction &I) const {
  auto It = Calls.find(&I);
  return It == Calls.end() ? nullptr : It->second.get();
}

const CallEffect *Liveness::callEffect(const Instruction &I) const {
  const CallInfo *CI = callInfo(I);
  return CI ? &CI->Effect : nullptr;
}

void Liveness::stepBackward(const Instruction &I, BitVector &Live) const {
  if (isOpaque(I)) {
    Live.set();
    return;
  }
  if (const CallInfo *CI = callInfo(I)) {
    Live.reset(CI->Transfer.Kill);
    Live |= CI->Transfer.Gen;
    return;
  }
  for (MCRegister R : I.facts().Defs)
    RU->reset(Live, R);
  for (MCRegister R : I.facts().Uses)
    RU->set(Live, R);
}

void Liveness::computeBlocks() {
  const unsigned N = Blocks.size();
  // Per block: upward-exposed uses (Gen) and defs (Kill), so that
  // live-in = Gen | (live-out - Kill).
  std::vector<BitVector> Gen(N, RU->none()), Kill(N, RU->none());
  std::vector<std::vector<unsigned>> Succs(N), Preds(N);
  std::vector<bool> LeavesFunction(N, false);
  for (unsigned B = 0; B < N; ++B) {
    const auto &Insts = Blocks[B]->instructions();
    for (auto It = Insts.rbegin(); It != Insts.rend(); ++It) {
      const Instruction &I = *It;
      if (isOpaque(I)) {
        Gen[B].set();
      } else if (const CallInfo *CI = callInfo(I)) {
        Gen[B].reset(CI->Transfer.Kill);
        Gen[B] |= CI->Transfer.Gen;
        Kill[B] |= CI->Transfer.Kill;
      } else {
        for (MCRegister R : I.facts().Defs) {
          RU->reset(Gen[B], R);
          RU->set(Kill[B], R);
        }
        for (MCRegister R : I.facts().Uses)
          RU->set(Gen[B], R);
      }
    }
    for (const BasicBlock *S : Blocks[B]->successors()) {
      auto It = BlockIndex.find(S);
      if (It == BlockIndex.end()) {
        LeavesFunction[B] = true; // an edge we cannot follow: assume all live
        continue;
      }
      Succs[B].push_back(It->second);
      Preds[It->second].push_back(B);
    }
  }

  // The live-out of a block without successors.
  auto ExitLiveOut = [&](unsigned B) {
    return endsProgram(*Blocks[B]) ? RU->none() : RU->all();
  };

  LiveIn.assign(N, RU->none());
  LiveOut.assign(N, RU->none());
  std::vector<unsigned> Work;
  std::vector<bool> Queued(N, true);
  for (unsigned B = 0; B < N; ++B)
    Work.push_back(B); // popped last block first: backward problems converge faster
  BitVector In;
  while (!Work.empty()) {
    unsigned B = Work.back();
    Work.pop_back();
    Queued[B] = false;
    BitVector &Out = LiveOut[B];
    if (Succs[B].empty() && !LeavesFunction[B]) {
      Out = ExitLiveOut(B);
    } else if (LeavesFunction[B]) {
      Out = RU->all();
    } else {
      Out.reset();
      for (unsigned S : Succs[B])
        Out |= LiveIn[S];
    }
    In = Out;
    In.reset(Kill[B]);
    In |= Gen[B];
    if (In == LiveIn[B])
      continue;
    LiveIn[B] = In;
    for (unsigned P : Preds[B])
      if (!Queued[P]) {
        Queued[P] = true;
        Work.push_back(P);
      }
  }
}

const Liveness::BlockPoints &Liveness::points(unsigned B) const {
  if (!Points[B]) {
    const auto &Insts = Blocks[B]->instructions();
    auto P = std::make_unique<BlockPoints>(Insts.size() + 1);
    unsigned Idx = Insts.size();
    (*P)[Idx] = LiveOut[B];
    BitVector Live = LiveOut[B];
    for (auto It = Insts.rbegin(); It != Insts.rend(); ++It) {
      stepBackward(*It, Live);
      (*P)[--Idx] = Live;
    }
    Points[B] = std::move(P);
  }
  return *Points[B];
}

std::optional<Liveness::Position> Liveness::positionOf(const Instruction &I) const {
  auto It = InstPos.find(&I);
  if (It == InstPos.end())
    return std::nullopt;
  return It->second;
}

const BitVector &Liveness::liveIn(const BasicBlock &BB) const {
  auto It = BlockIndex.find(&BB);
  return It == BlockIndex.end() ? AllLive : LiveIn[It->second];
}

const BitVector &Liveness::liveOut(const BasicBlock &BB) const {
  auto It = BlockIndex.find(&BB);
  return It == BlockIndex.end() ? AllLive : LiveOut[It->second];
}

const BitVector &Liveness::liveBefore(const Instruction &I) const {
  std::optional<Position> P = positionOf(I);
  assert(P && "instruction of another function");
  return P ? points(P->Block)[P->Index] : AllLive;
}

const BitVector &Liveness::liveAfter(const Instruction &I) const {
  std::optional<Position> P = positionOf(I);
  assert(P && "instruction of another function");
  return P ? points(P->Block)[P->Index + 1] : AllLive;
}

bool Liveness::isLiveBefore(const Instruction &I, MCRegister R) const {
  return RU->any(liveBefore(I), R);
}

bool Liveness::isLiveAfter(const Instruction &I, MCRegister R) const {
  return RU->any(liveAfter(I), R);
}

bool Liveness::isLiveBefore(const Instruction &I, StringRef MCName) const {
  MCRegister R = RU->byName(MCName);
  return !R.isValid() || isLiveBefore(I, R);
}

bool Liveness::isLiveAfter(const Instruction &I, StringRef MCName) const {
  MCRegister R = RU->byName(MCName);
  return !R.isValid() || isLiveAfter(I, R);
}

BitVector Liveness::readsOf(const Instruction &I) const {
  if (isOpaque(I))
    return RU->all();
  if (const CallInfo *CI = callInfo(I))
    return CI->Transfer.Gen;
  BitVector Reads = RU->none();
  for (MCRegister R : I.facts().Uses)
    RU->set(Reads, R);
  return Reads;
}

BitVector Liveness::writesOf(const Instruction &I) const {
  if (isOpaque(I))
    return RU->all();
  if (const CallInfo *CI = callInfo(I))
    return CI->Transfer.MayWrite;
  BitVector Writes = RU->none();
  for (MCRegister R : I.facts().Defs)
    RU->set(Writes, R);
  return Writes;
}

std::vector<MCRegister> Liveness::deadSGPRsBefore(const Instruction &I) const {
  std::vector<MCRegister> Dead;
  const BitVector &Live = liveBefore(I);
  const TargetInfo &TI = RU->target();
  for (unsigned S = 0, E = TI.hardware().maxSGPRs(); S < E; ++S) {
    MCRegister R = TI.reg32(RegClass::SGPR, S);
    if (R.isValid() && !RU->any(Live, R))
      Dead.push_back(R);
  }
  return Dead;
}

std::optional<MCRegister> Liveness::findFreeSGPR(const Instruction &First,
                                                 const Instruction &Last,
                                                 unsigned Count, bool Aligned) const {
  std::optional<Position> From = positionOf(First), To = positionOf(Last);
  if (!From || !To || Count == 0)
    return std::nullopt;
  if (From->Block > To->Block || (From->Block == To->Block && From->Index > To->Index))
    return std::nullopt;

  // Everything live at some point of the range or written in it.
  BitVector Busy = RU->none();
  for (unsigned B = From->Block; B <= To->Block; ++B) {
    const BlockPoints &P = points(B);
    unsigned Size = Blocks[B]->instructions().size();
    unsigned Lo = B == From->Block ? From->Index : 0;
    unsigned Hi = B == To->Block ? To->Index + 1 : Size; // points Lo..Hi
    for (unsigned Pt = Lo; Pt <= Hi; ++Pt)
      Busy |= P[Pt];
    auto It = Blocks[B]->instructions().begin();
    std::advance(It, Lo);
    for (unsigned Idx = Lo; Idx < Hi && Idx < Size; ++Idx, ++It)
      Busy |= writesOf(*It);
  }

  const unsigned Align = !Aligned || Count == 1 ? 1 : Count == 2 ? 2 : 4;
  const unsigned Max = RU->target().hardware().maxSGPRs();
  for (unsigned S = 0; S + Count <= Max; S += Align) {
    MCRegister R = RU->sgprTuple(S, Count);
    if (R.isValid() && !RU->any(Busy, R))
      return R;
  }
  return std::nullopt;
}

void Liveness::print(raw_ostream &OS) const {
  for (unsigned B = 0; B < Blocks.size(); ++B) {
    const BasicBlock *BB = Blocks[B];
    StringRef Name = !BB->name().empty() ? BB->name() : BB->label();
    OS << Name << ":\n  live-in:  " << RU->describe(LiveIn[B])
       << "\n  live-out: " << RU->describe(LiveOut[B]) << "\n";
  }
}

Liveness LivenessAnalysis::run(Function &F, AnalysisManager &) { return Liveness(F); }

} // namespace stinkytofu
