//===- LdsRingPhases.cpp - LDS ring slots for the wait analysis ----------===//
//
// The check of `mod.lds_ring` against the instructions (LdsRingPhases.h)
// and the ring slots of the wait analysis's state (LdsRingState.h).
//
//===----------------------------------------------------------------------===//
#include "stinkytofu/analysis/LdsRingPhases.h"
#include "LdsRingState.h"
#include "stinkytofu/hw/HardwareModel.h"
#include "stinkytofu/hw/TargetInfo.h"
#include "stinkytofu/hw/WaitCounters.h"
#include "stinkytofu/ir/BasicBlock.h"
#include "stinkytofu/ir/Module.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/Twine.h"

using namespace llvm;

namespace stinkytofu {

namespace {

using Access = LdsRingData::Access;
using AccessKind = LdsRingData::AccessKind;

// The key packs class and frame (15 bits each), ring size and slot (16
// bits each) below UnringedLds.
constexpr int64_t MaxClassOrFrame = (int64_t(1) << 15) - 1;
constexpr int64_t MaxRing = (int64_t(1) << 16) - 1;

struct Slot {
  int64_t Class, Frame, Ring, Delta;
};

int64_t keyOf(const Slot &S) {
  int64_t Delta = ((S.Delta % S.Ring) + S.Ring) % S.Ring;
  int64_t Packed = (((S.Class << 15 | S.Frame) << 16 | S.Ring) << 16) | Delta;
  return waitcount::UnringedLds - 1 - Packed;
}

Slot slotOf(int64_t Key) {
  int64_t Packed = waitcount::UnringedLds - 1 - Key;
  return {Packed >> 47, (Packed >> 32) & MaxClassOrFrame, (Packed >> 16) & MaxRing,
          Packed & MaxRing};
}

int64_t keyOf(const Access &A) {
  return keyOf(Slot{A.BufferClass, A.Frame, A.Ring, A.GlobalDelta});
}

StringRef kindName(AccessKind K) {
  switch (K) {
  case AccessKind::Read:
    return "read";
  case AccessKind::Write:
    return "write";
  case AccessKind::Publish:
    return "publish";
  case AccessKind::Protect:
    return "protect";
  }
  return "";
}

} // namespace

bool statesLdsRings(const Function &F) {
  for (const BasicBlock &BB : F.blocks())
    for (const Instruction &I : BB.instructions())
      if (I.getModifier<LdsRingData>())
        return true;
  return false;
}

std::optional<LdsRingContradiction> findLdsRingContradiction(const Function &F,
                                                             const CounterModel &CM) {
  const TargetInfo &TI = CM.target();
  DenseMap<std::pair<int64_t, int64_t>, int64_t> RingSize;
  for (const BasicBlock &BB : F.blocks())
    for (const Instruction &I : BB.instructions()) {
      const auto *R = I.getModifier<LdsRingData>();
      if (!R)
        continue;
      auto Contradiction = [&](const Twine &Why) {
        return LdsRingContradiction{&I, ("mod.lds_ring: " + Why).str()};
      };
      bool ReadsLds = false, WritesLds = false;
      const bool OneInstruction = I.kind() == InstKind::Machine && I.mcInsts().size() == 1;
      for (const MCInst &MI : I.mcInsts()) {
        std::string Printed = OneInstruction ? std::string() : TI.printMC(MI);
        StringRef Mnemonic =
            OneInstruction ? I.mnemonic() : StringRef(Printed).split(' ').first.trim();
        MemoryAccess A = CM.classify(MI, Mnemonic);
        ReadsLds |= A.ReadsLds;
        WritesLds |= A.WritesLds;
      }
      const bool Barrier = HardwareModel::roleOf(I.mnemonic()) == InstRole::Barrier &&
                           !I.getModifier<WaveSyncData>();
      for (const Access &A : R->Accesses) {
        if (A.BufferClass < 0 || A.BufferClass > MaxClassOrFrame || A.Frame < 0 ||
            A.Frame > MaxClassOrFrame || A.Ring > MaxRing)
          return Contradiction("class " + Twine(A.BufferClass) + ", frame " + Twine(A.Frame) +
                               " or ring size " + Twine(A.Ring) +
                               " is out of range (class and frame 0 to " +
                               Twine(MaxClassOrFrame) + ", size 1 to " + Twine(MaxRing) + ")");
        bool Holds = A.Kind == AccessKind::Read    ? ReadsLds
                     : A.Kind == AccessKind::Write ? WritesLds
                                                   : Barrier;
        if (!Holds)
          return Contradiction(
              "a " + kindName(A.Kind) + " access, but " + I.mnemonic() +
              (A.Kind == AccessKind::Read    ? " reads no LDS"
               : A.Kind == AccessKind::Write ? " writes no LDS"
                                             : " is no barrier that publishes LDS"));
        auto [It, New] = RingSize.try_emplace({A.BufferClass, A.Frame}, A.Ring);
        if (!New && It->second != A.Ring)
          return Contradiction("class " + Twine(A.BufferClass) + ", frame " + Twine(A.Frame) +
                               " has ring size " + Twine(A.Ring) + " here and " +
                               Twine(It->second) + " before");
      }
      for (const LdsRingData::Advance &V : R->Advances)
        if (V.Frame < 0 || V.Frame > MaxClassOrFrame)
          return Contradiction("frame " + Twine(V.Frame) + " is out of range (0 to " +
                               Twine(MaxClassOrFrame) + ")");
    }
  return std::nullopt;
}

namespace waitcount {

RingInfo ringInfoOf(const Instruction &I) {
  RingInfo R;
  if (const auto *D = I.getModifier<LdsRingData>()) {
    R.Accesses.assign(D->Accesses.begin(), D->Accesses.end());
    R.Advances.assign(D->Advances.begin(), D->Advances.end());
  }
  return R;
}

void recordRingEvent(CounterState &CS, const RingInfo &R, const Pending &P) {
  bool Named = false;
  for (const Access &A : R.Accesses)
    if (A.Kind == AccessKind::Read || A.Kind == AccessKind::Write) {
      (A.Kind == AccessKind::Read ? CS.LdsReads : CS.LdsWrites)[keyOf(A)] = P;
      Named = true;
    }
  if (!Named)
    CS.LdsWrites[UnringedLds] = P;
}

void advanceRingFrames(WaitState &S, ArrayRef<LdsRingData::Advance> Advances) {
  // How far the frame of slot key \p Key moves (0: not a slot, or not moved).
  auto Amount = [&](int64_t Key) {
    int64_t N = 0;
    if (Key < UnringedLds)
      for (const LdsRingData::Advance &V : Advances)
        if (V.Frame == slotOf(Key).Frame)
          N += V.Amount;
    return N;
  };
  auto Moves = [&](const DenseMap<int64_t, Pending> &Map) {
    return any_of(Map, [&](const auto &E) { return Amount(E.first) != 0; });
  };
  auto Rename = [&](DenseMap<int64_t, Pending> &Map) {
    DenseMap<int64_t, Pending> Renamed;
    for (const auto &[Key, P] : Map) {
      int64_t N = Amount(Key);
      Slot Sl = slotOf(Key);
      Sl.Delta -= N;
      Renamed[N ? keyOf(Sl) : Key] = P;
    }
    Map = std::move(Renamed);
  };
  for (unsigned C = 0; C < S.C.size(); ++C) {
    const CounterState &Now = std::as_const(S).C[C];
    if (!Moves(Now.LdsWrites) && !Moves(Now.LdsReads))
      continue;
    CounterState &CS = S.C[C];
    Rename(CS.LdsWrites);
    Rename(CS.LdsReads);
  }
}

void forEachRingDependence(const WaitState &S, const CounterState &CS, const RingInfo &R,
                           bool Barrier, bool ReadsLds, bool WritesLds,
                           function_ref<void(const Pending &)> Need) {
  auto Check = [&](const DenseMap<int64_t, Pending> &Map, int64_t Key) {
    if (auto It = Map.find(Key); It != Map.end() && entryPending(S, CS, It->second))
      Need(It->second);
  };
  if (Barrier) {
    Check(CS.LdsWrites, UnringedLds);
    for (const Access &A : R.Accesses)
      if (A.Kind == AccessKind::Publish)
        Check(CS.LdsWrites, keyOf(A));
      else if (A.Kind == AccessKind::Protect)
        Check(CS.LdsReads, keyOf(A));
    return;
  }
  const bool Named = R.has(AccessKind::Read) || R.has(AccessKind::Write);
  if (!Named) {
    // No slot named: any slot's work may be the one it touches.
    auto All = [&](const DenseMap<int64_t, Pending> &Map) {
      for (const auto &[Key, P] : Map)
        if (Key < UnringedLds && entryPending(S, CS, P))
          Need(P);
    };
    if (ReadsLds || WritesLds)
      All(CS.LdsWrites);
    if (WritesLds)
      All(CS.LdsReads);
    return;
  }
  for (const Access &A : R.Accesses) {
    if (A.Kind != AccessKind::Read && A.Kind != AccessKind::Write)
      continue;
    Check(CS.LdsWrites, keyOf(A));
    if (A.Kind == AccessKind::Write)
      Check(CS.LdsReads, keyOf(A));
  }
}

} // namespace waitcount

} // namespace stinkytofu
