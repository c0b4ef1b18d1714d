//===- LaneLiveness.cpp - Vector registers live in any lane ---------------===//
#include "stinkytofu/analysis/LaneLiveness.h"
#include "stinkytofu/analysis/CallingConvention.h"
#include "stinkytofu/analysis/Dataflow.h"
#include "stinkytofu/hw/HardwareModel.h"
#include "stinkytofu/ir/BranchVocabulary.h"
#include "stinkytofu/ir/Module.h"
#include "llvm/MC/MCInstrInfo.h"

using namespace llvm;

namespace stinkytofu {

namespace {

struct LaneState {
  BitVector Exec, Any;
  bool operator==(const LaneState &O) const { return Exec == O.Exec && Any == O.Any; }
};

/// The TSFlags of instructions that read lanes other than their own whatever
/// their mnemonic: DPP and the matrix instructions.
uint64_t crossLaneFlags() {
  uint64_t Mask = 0;
  for (const char *Name : {"DPP", "IsMAI", "IsWMMA", "IsSWMMAC"})
    if (std::optional<unsigned> Bit = HardwareModel::tsFlagBit(Name))
      Mask |= uint64_t(1) << *Bit;
  return Mask;
}

} // namespace

class LaneLiveness::Flow
    : public DataflowAnalysis<LaneLiveness::Flow, LaneState, DataflowDirection::Backward> {
public:
  Flow(const Liveness &L, const BitVector *AfterReturn,
       const DenseSet<const Instruction *> *Ignore)
      : DataflowAnalysis(L.function()), L(L), RU(L.units()), TI(RU.target()), Ignore(Ignore),
        CrossLaneFlags(crossLaneFlags()) {
    Exec = RU.byName("EXEC");
    Vector = ArgumentVgprs = RU.none();
    for (RegClass K : {RegClass::VGPR, RegClass::AGPR})
      for (unsigned N = 0;; ++N) {
        MCRegister R = TI.reg32(K, N);
        if (!R.isValid())
          break;
        RU.set(Vector, R);
        if (K == RegClass::VGPR && isArgumentVGPR(N))
          RU.set(ArgumentVgprs, R);
      }
    AtReturn = AfterReturn ? *AfterReturn : Vector;
    AtReturn &= Vector;
  }

  LaneState initialState() const { return {RU.none(), RU.none()}; }
  void join(LaneState &Into, const LaneState &From) const {
    Into.Exec |= From.Exec;
    Into.Any |= From.Any;
  }
  void transfer(const Instruction &I, LaneState &S) const {
    if (Ignore && Ignore->contains(&I))
      return;
    const InstrFacts &F = I.facts();
    const bool ReadsExec = Exec.isValid() && any_of(F.Uses, [&](MCRegister R) {
      return regsOverlap(R, Exec);
    });
    // Writes: a lane-masked write kills the current lanes' reads; a write
    // of EXEC makes the reads after it reads of other lanes.
    for (MCRegister R : F.Defs) {
      if (Exec.isValid() && regsOverlap(R, Exec)) {
        S.Any |= S.Exec;
        S.Exec.reset();
      } else if (ReadsExec && HardwareModel::roleOf(I.mnemonic()) != InstRole::LaneWrite) {
        RU.reset(S.Exec, R);
      }
    }
    bool OtherLanes = !ReadsExec || HardwareModel::roleOf(I.mnemonic()) == InstRole::CrossLane ||
                      (TI.instrInfo().get(F.Opcode).TSFlags & CrossLaneFlags);
    for (MCRegister R : F.Uses)
      RU.set(OtherLanes ? S.Any : S.Exec, R);
    S.Exec &= Vector;
    S.Any &= Vector;
  }
  void transferCall(const Instruction &I, LaneState &S) const {
    if (Ignore && Ignore->contains(&I))
      return;
    // A callee reads its VGPR arguments in the lanes it is called with and
    // keeps every other lane of every VGPR (the calling convention; whole-
    // wave code in it sets inactive lanes before reading them, and saves
    // and restores whole registers unchanged). One not known may read any
    // argument VGPR.
    const CallEffect *E = L.callEffect(I);
    for (MCRegister R : I.facts().Uses)
      RU.set(S.Exec, R);
    if (E && E->Known)
      S.Exec |= E->Reads;
    else
      S.Exec |= ArgumentVgprs;
    S.Exec &= Vector;
  }
  void transferOpaque(const Instruction &I, LaneState &S) const {
    if (!(Ignore && Ignore->contains(&I)))
      S.Any = Vector;
  }
  LaneState exitState(const BasicBlock &BB) const {
    for (const Instruction &I : reverse(BB.instructions()))
      if (!(Ignore && Ignore->contains(&I)))
        return {RU.none(), isProgramEnd(I) ? RU.none() : isReturn(I) ? AtReturn : Vector};
    return {RU.none(), Vector};
  }
  void joinOutsideEdge(const BasicBlock &, const BasicBlock &, LaneState &S) const {
    S.Any = Vector;
  }

  static BitVector live(LaneState S) { return std::move(S.Exec |= S.Any); }

private:
  bool regsOverlap(MCRegister A, MCRegister B) const {
    return TI.regInfo().regsOverlap(A, B);
  }

  const Liveness &L;
  const RegisterUnits &RU;
  const TargetInfo &TI;
  const DenseSet<const Instruction *> *Ignore;
  uint64_t CrossLaneFlags;
  MCRegister Exec;
  BitVector Vector, ArgumentVgprs, AtReturn;
};

LaneLiveness::LaneLiveness(const Liveness &L, const BitVector *AfterReturn,
                           const DenseSet<const Instruction *> *Ignore)
    : RU(L.units()), Solved(std::make_unique<Flow>(L, AfterReturn, Ignore)) {
  cantFail(Solved->run());
}

LaneLiveness::~LaneLiveness() = default;

BitVector LaneLiveness::liveBefore(const Instruction &I) const {
  return Solved->live(Solved->stateBefore(I));
}

BitVector LaneLiveness::liveAfter(const Instruction &I) const {
  return Solved->live(Solved->stateAfter(I));
}

BitVector LaneLiveness::otherLanesLiveAfter(const Instruction &I) const {
  return Solved->stateAfter(I).Any;
}

BitVector LaneLiveness::liveAtEnd(const BasicBlock &BB) const {
  return Solved->live(Solved->stateOut(BB));
}

} // namespace stinkytofu
