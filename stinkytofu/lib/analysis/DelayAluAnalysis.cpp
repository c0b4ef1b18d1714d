//===- DelayAluAnalysis.cpp - The s_delay_alu each ALU instruction needs --===//
//
// What LLVM's AMDGPUInsertDelayAlu computes, on MC instructions: the ALU
// kind of an instruction comes from its TSFlags (SALU, VALU, TRANS) and the
// hardware model's roles, the latency of each def from the write latency
// MC's scheduling model gives it.
//
//===----------------------------------------------------------------------===//
#include "stinkytofu/analysis/DelayAluAnalysis.h"

#include "stinkytofu/analysis/AddressChains.h"
#include "stinkytofu/analysis/Dataflow.h"
#include "stinkytofu/analysis/RegisterUnits.h"
#include "stinkytofu/hw/HardwareModel.h"
#include "stinkytofu/hw/InstrFacts.h"
#include "stinkytofu/hw/TargetInfo.h"
#include "stinkytofu/hw/VgprMsb.h"
#include "stinkytofu/ir/BasicBlock.h"
#include "stinkytofu/ir/BranchVocabulary.h"
#include "stinkytofu/ir/Modifier.h"
#include "stinkytofu/ir/Module.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/MC/MCSchedule.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include <optional>

using namespace llvm;

namespace stinkytofu {

namespace {

enum class AluKind : uint8_t { Valu, Trans, Salu, Other };

// One more than the distances s_delay_alu can name: VALU_DEP_1..4,
// TRANS32_DEP_1..3, SALU_CYCLE_1..3.
constexpr uint8_t ValuLimit = 5, TransLimit = 4, SaluCycleLimit = 4;

/// The last ALU writes of one register unit (several after a join: the
/// worst case of each kind).
struct PendingWrite {
  uint8_t ValuCycles = 0, ValuCount = ValuLimit;
  uint8_t TransCycles = 0, TransCount = TransLimit;
  /// VALUs issued since the TRANS write: decides whether a consumer of
  /// both waits for the VALU too (only when it is newer).
  uint8_t TransValuCount = ValuLimit;
  uint8_t SaluCycles = 0;
  /// For messages only; not part of the state's identity.
  const Instruction *Producer = nullptr;

  static PendingWrite written(AluKind Kind, unsigned Latency, const Instruction *By) {
    PendingWrite W;
    W.Producer = By;
    uint8_t Cycles = uint8_t(std::min(Latency, 255u));
    switch (Kind) {
    case AluKind::Valu:
      W.ValuCycles = Cycles;
      W.ValuCount = 0;
      break;
    case AluKind::Trans:
      W.TransCycles = Cycles;
      W.TransCount = 0;
      W.TransValuCount = 0;
      break;
    case AluKind::Salu:
      // LLVM caps SALU latencies (calls are SALU with huge ones).
      W.SaluCycles = std::min<uint8_t>(Cycles, SaluCycleLimit);
      break;
    case AluKind::Other:
      break;
    }
    return W;
  }

  bool operator==(const PendingWrite &O) const {
    return ValuCycles == O.ValuCycles && ValuCount == O.ValuCount &&
           TransCycles == O.TransCycles && TransCount == O.TransCount &&
           TransValuCount == O.TransValuCount && SaluCycles == O.SaluCycles;
  }

  void merge(const PendingWrite &O) {
    ValuCycles = std::max(ValuCycles, O.ValuCycles);
    ValuCount = std::min(ValuCount, O.ValuCount);
    TransCycles = std::max(TransCycles, O.TransCycles);
    TransCount = std::min(TransCount, O.TransCount);
    TransValuCount = std::min(TransValuCount, O.TransValuCount);
    SaluCycles = std::max(SaluCycles, O.SaluCycles);
    if (!Producer)
      Producer = O.Producer;
  }

  /// One instruction of \p Kind issued in \p Cycles: true when nothing is
  /// left to wait for.
  bool advance(AluKind Kind, unsigned Cycles) {
    bool Done = true;
    ValuCount += Kind == AluKind::Valu;
    if (ValuCount >= ValuLimit || ValuCycles <= Cycles) {
      ValuCount = ValuLimit;
      ValuCycles = 0;
    } else {
      ValuCycles -= Cycles;
      Done = false;
    }
    TransCount += Kind == AluKind::Trans;
    TransValuCount += Kind == AluKind::Valu;
    if (TransCount >= TransLimit || TransCycles <= Cycles) {
      TransCount = TransLimit;
      TransValuCount = ValuLimit;
      TransCycles = 0;
    } else {
      TransCycles -= Cycles;
      Done = false;
    }
    if (SaluCycles <= Cycles) {
      SaluCycles = 0;
    } else {
      SaluCycles -= Cycles;
      Done = false;
    }
    return Done;
  }
};

struct DelayState {
  DenseMap<unsigned, PendingWrite> Units;
  /// The first unit of the SGPR the last VALU of this block wrote (LLVM
  /// keeps it per block); not part of the state that flows on.
  std::optional<unsigned> LastSgprFromValu;

  bool operator==(const DelayState &O) const { return Units == O.Units; }

  void advance(AluKind Kind, unsigned Cycles) {
    for (auto It = Units.begin(), Next = It; It != Units.end(); It = Next) {
      ++Next;
      if (It->second.advance(Kind, Cycles))
        Units.erase(It);
    }
  }
};

/// One MC instruction as the model sees it.
struct AluStep {
  AluKind Kind = AluKind::Other;
  bool WaitsForValu = false, WaitsForSgprWrites = false, IsValu = false;
  /// Part of a sequence LLVM emits as one bundle: no delay of its own.
  bool Bundled = false;
  /// Written by LLVM's branch relaxation after the delays were placed (the
  /// address of a long branch): LLVM's model never sees it.
  bool Relaxation = false;
  unsigned Cycles = 1;
  /// Explicit register sources: (unit, register).
  SmallVector<std::pair<unsigned, MCRegister>, 8> Uses;
  /// Explicit register results: (unit, latency).
  SmallVector<std::pair<unsigned, unsigned>, 4> Defs;
  std::optional<unsigned> FirstSgprDef;
};

/// What the code's s_delay_alu instructions ask of one instruction.
struct Announced {
  SmallVector<AluDelayId, 2> Ids;
  const Instruction *Announcer = nullptr;
};

bool isDelayAlu(const Instruction &I) {
  return HardwareModel::roleOf(I.mnemonic()) == InstRole::DelayAlu;
}

/// True when waiting for \p Have also waits for \p Need: an older VALU or
/// TRANS result is ready once a newer one of the same pipe is, and more
/// SALU cycles cover fewer.
bool coveredBy(AluDelayId Need, AluDelayId Have) {
  auto Group = [](AluDelayId Id) { return Id <= 4 ? 0 : Id <= 7 ? 1 : Id == 8 ? 2 : 3; };
  if (!Need)
    return true;
  if (!Have || Group(Need) != Group(Have))
    return false;
  return Group(Need) == 3 ? Have >= Need : Have <= Need;
}

struct DelayAluModel
    : DataflowAnalysis<DelayAluModel, DelayState, DataflowDirection::Forward> {
  using Base = DataflowAnalysis<DelayAluModel, DelayState, DataflowDirection::Forward>;

  const TargetInfo &TI;
  RegisterUnits RU;
  uint64_t SaluMask, ValuMask, TransMask, SmrdMask, ValuWaitMask;
  const MCRegisterClass *Sgpr32 = nullptr;
  DenseMap<const Instruction *, SmallVector<AluStep, 1>> Steps;
  /// Set while the emitting walk collects the demands.
  mutable std::vector<DelayAluDemand> *Recording = nullptr;

  static uint64_t mask(StringRef Name) {
    std::optional<unsigned> Bit = HardwareModel::tsFlagBit(Name);
    if (!Bit)
      report_fatal_error(Twine("HardwareModel.td declares no TSFlags bit ") + Name);
    return uint64_t(1) << *Bit;
  }

  DelayAluModel(const Function &F, const TargetInfo &TI) : Base(F), TI(TI), RU(TI) {
    SaluMask = mask("SALU");
    ValuMask = mask("VALU");
    TransMask = mask("TRANS");
    SmrdMask = mask("SMRD");
    // LLVM: these wait for va_vdst == 0 before they issue. Images of gfx12
    // (VIMAGE, VSAMPLE) are not among them there either.
    ValuWaitMask = mask("DS") | mask("EXP") | mask("FLAT") | mask("MIMG") | mask("MTBUF") |
                   mask("MUBUF");
    const MCRegisterInfo &MRI = TI.regInfo();
    for (unsigned C = 0; C < MRI.getNumRegClasses(); ++C)
      if (StringRef(MRI.getRegClassName(&MRI.getRegClass(C))) == "SReg_32")
        Sgpr32 = &MRI.getRegClass(C);
    // gfx1250 spells VGPRs 256 and up as low ones under s_set_vgpr_msb:
    // read them as the registers they are (v44 under bank 1 is v300). The
    // state is carried in layout order, 0 after a call.
    std::optional<VgprMsbCodec> Codec;
    if (TI.hardware().hasHighVgprs())
      Codec.emplace(TI);
    uint8_t MsbState = 0;
    std::vector<const Instruction *> Layout;
    for (const BasicBlock &BB : F.blocks()) {
      SmallVector<const Instruction *, 64> Order;
      for (const Instruction &I : BB.instructions()) {
        if (isDelayAlu(I))
          continue;
        Steps[&I] = describe(I, Codec ? &*Codec : nullptr, MsbState);
        Order.push_back(&I);
        Layout.push_back(&I);
        if (Codec && I.mcInsts().size() == 1 &&
            I.mcInsts()[0].getOpcode() == Codec->setVgprMsbOpcode() &&
            I.mcInsts()[0].getNumOperands() && I.mcInsts()[0].getOperand(0).isImm())
          MsbState = vgprmsb::stateOfImmediate(I.mcInsts()[0].getOperand(0).getImm());
        else if (I.facts().has(IF_Call))
          MsbState = 0;
      }
      bundleAddressFixups(Order);
    }
    ignoreRelaxations(Layout);
  }

  /// LLVM places its delays before branch relaxation writes a long branch
  /// (`s_getpc_b64`, `.Lpost_getpcN:`, two adds of the target's distance,
  /// the waits between, `s_setpc_b64`): to LLVM's model the branch is the
  /// `s_branch` it replaced, or nothing where relaxation inverted a
  /// conditional branch to jump over it (the conditional branch right
  /// before stands for the original). The address sequence before each
  /// proven long branch (SALU writes of the jump's pair only, back to the
  /// `s_getpc_b64`, which reads no register, maybe in the block before)
  /// changes no state, the jump waits for no SGPR write, and after an
  /// inverted branch it changes no state either.
  void ignoreRelaxations(ArrayRef<const Instruction *> Layout) {
    for (size_t K = 0; K != Layout.size(); ++K) {
      const Instruction &Branch = *Layout[K];
      if (!isComputedBranch(Branch) || !Branch.getModifier<LabelData>())
        continue;
      // gfx1250's s_add_pc_i64 computes its target itself: no sequence.
      size_t Start = K;
      SmallVector<AluStep *, 8> Sequence;
      if (MCRegister Pair = addressPairOf(Branch, TI)) {
        SmallVector<unsigned, 8> PairUnits = RU.units(Pair);
        auto OfPair = [&](const auto &Def) { return is_contained(PairUnits, Def.first); };
        bool Head = false;
        while (Start > 0 && !Head) {
          const Instruction &Earlier = *Layout[--Start];
          SmallVector<AluStep, 1> &EarlierSteps = Steps[&Earlier];
          if (HardwareModel::roleOf(Earlier.mnemonic()) == InstRole::DepCtrWait) {
            for (AluStep &Step : EarlierSteps)
              Sequence.push_back(&Step);
            continue;
          }
          if (EarlierSteps.size() != 1)
            break;
          AluStep &Step = EarlierSteps.front();
          if (Step.Kind != AluKind::Salu || Step.Defs.empty() || !all_of(Step.Defs, OfPair))
            break;
          Sequence.push_back(&Step);
          Head = Step.Uses.empty();
        }
        if (!Head)
          continue;
      }
      const bool Inverted = Start > 0 && isConditionalBranch(*Layout[Start - 1]);
      for (AluStep *Step : Sequence)
        Step->Relaxation = true;
      for (AluStep &Step : Steps[&Branch]) {
        Step.WaitsForSgprWrites = false;
        Step.Uses.clear();
        Step.Relaxation = Inverted;
      }
    }
  }

  /// gfx12's PC-relative address sequence sign-extends the high half of
  /// s_getpc_b64's result (`s_sext_i32_i16 s1, s1`) before the adds with
  /// the symbol: LLVM emits it inside the same bundle, so it gets no delay
  /// either. Such an instruction sits between the sequence's head (an
  /// instruction that reads no register) and an add with a symbol operand,
  /// and both read what the head wrote (a branch to a label is no such add).
  void bundleAddressFixups(ArrayRef<const Instruction *> Order) {
    auto Single = [&](const Instruction *I) -> AluStep * {
      auto It = Steps.find(I);
      return It->second.size() == 1 ? &It->second.front() : nullptr;
    };
    for (size_t K = 1; K + 1 < Order.size(); ++K) {
      AluStep *Head = Single(Order[K - 1]), *Fixup = Single(Order[K]),
              *Add = Single(Order[K + 1]);
      if (!Head || !Fixup || !Add || !Add->Bundled || Fixup->Bundled || Head->Bundled ||
          !Head->Uses.empty() || Head->Defs.empty())
        continue;
      auto ReadsHead = [&](const AluStep &Reader) {
        return any_of(Reader.Uses, [&](const auto &Use) {
          return any_of(Head->Defs, [&](const auto &Def) { return Def.first == Use.first; });
        });
      };
      Fixup->Bundled = ReadsHead(*Fixup) && ReadsHead(*Add);
    }
  }

  bool isSgpr(MCRegister R) const {
    if (!Sgpr32)
      return false;
    for (MCRegister Sub : TI.regInfo().subregs_inclusive(R))
      if (Sgpr32->contains(Sub))
        return true;
    return false;
  }

  /// The cycles after which MC's scheduling model has result \p DefIndex
  /// of \p MI ready (TargetSchedModel::computeOperandLatency without a
  /// user: the def's write latency; 1 where the model names none).
  unsigned defLatency(const MCInst &MI, unsigned DefIndex) const {
    const MCSubtargetInfo &STI = TI.subtargetInfo();
    const MCSchedModel &SM = STI.getSchedModel();
    if (!SM.hasInstrSchedModel())
      return 1;
    unsigned Class = TI.instrInfo().get(MI.getOpcode()).getSchedClass();
    const MCSchedClassDesc *SC = SM.getSchedClassDesc(Class);
    while (SC && SC->isVariant()) {
      Class = STI.resolveVariantSchedClass(Class, &MI, &TI.instrInfo(), SM.getProcessorID());
      SC = Class ? SM.getSchedClassDesc(Class) : nullptr;
    }
    if (!SC || !SC->isValid() || DefIndex >= SC->NumWriteLatencyEntries)
      return 1;
    int Cycles = STI.getWriteLatencyEntry(SC, DefIndex)->Cycles;
    return Cycles >= 0 ? unsigned(Cycles) : 1000u;
  }

  /// Whether \p MI (a depctr wait) waits for every VALU result:
  /// `depctr_va_vdst(0)`, as MC prints it.
  bool waitsForAllValuResults(const MCInst &MI) const {
    std::string Printed = TI.printMC(MI);
    if (StringRef(Printed).contains("va_vdst(0)"))
      return true;
    // A raw immediate: va_vdst is bits 15:12.
    for (const MCOperand &Op : MI)
      if (Op.isImm())
        return ((Op.getImm() >> 12) & 0xf) == 0;
    return false;
  }

  AluStep describeMC(const MCInst &MI, InstRole Role, bool MatrixIsTrans) const {
    AluStep S;
    const MCInstrDesc &D = TI.instrInfo().get(MI.getOpcode());
    const uint64_t TS = D.TSFlags;
    // LLVM 22 still counts the f64 transcendentals as TRANS (newer LLVM
    // makes them VALU).
    if ((TS & TransMask) || MatrixIsTrans)
      S.Kind = AluKind::Trans;
    else if (TS & ValuMask)
      S.Kind = AluKind::Valu;
    else if (TS & SaluMask)
      S.Kind = AluKind::Salu;
    S.IsValu = TS & ValuMask;
    S.WaitsForValu = (TS & ValuWaitMask) || Role == InstRole::ReturningMessage ||
                     (Role == InstRole::DepCtrWait && waitsForAllValuResults(MI));
    bool AnyRegister = !D.implicit_uses().empty() || !D.implicit_defs().empty();
    for (const MCOperand &Op : MI) {
      AnyRegister |= Op.isReg() && Op.getReg();
      // A symbol operand (`sym@rel32@lo+4`): the add of a PC-relative
      // address after s_getpc_b64, which LLVM keeps in one bundle with it.
      S.Bundled |= Op.isExpr();
    }
    S.WaitsForSgprWrites = (TS & SmrdMask) || ((TS & SaluMask) && AnyRegister);
    if (Role == InstRole::ScalarNop && MI.getNumOperands() && MI.getOperand(0).isImm())
      S.Cycles = unsigned(MI.getOperand(0).getImm()) + 1;
    const unsigned NumDefs = std::min<unsigned>(D.getNumDefs(), MI.getNumOperands());
    for (unsigned Op = NumDefs; Op < MI.getNumOperands(); ++Op) {
      MCRegister Source = sourceRegister(TI, MI, Op);
      if (!Source)
        continue;
      // v_writelane_b32 reads its destination only to keep the other lanes.
      if (Role == InstRole::LaneWrite && Op < D.getNumOperands() &&
          D.getOperandConstraint(Op, MCOI::TIED_TO) >= 0)
        continue;
      for (unsigned U : RU.units(Source))
        S.Uses.emplace_back(U, Source);
    }
    for (unsigned Op = 0; Op < NumDefs; ++Op) {
      const MCOperand &O = MI.getOperand(Op);
      if (!O.isReg() || !O.getReg())
        continue;
      unsigned Latency = defLatency(MI, Op);
      SmallVector<unsigned, 8> Units = RU.units(O.getReg());
      for (unsigned U : Units)
        S.Defs.emplace_back(U, Latency);
      // `null` counts (SGPR_NULL is an SGPR to LLVM): a VALU whose carry
      // goes nowhere is the last SGPR write an SALU then waits for.
      if (S.IsValu && !S.FirstSgprDef && !Units.empty() && isSgpr(RU.canonical(O.getReg())))
        S.FirstSgprDef = Units.front();
    }
    return S;
  }

  SmallVector<AluStep, 1> describe(const Instruction &I, VgprMsbCodec *Codec,
                                   uint8_t MsbState) const {
    SmallVector<AluStep, 1> Out;
    if (isOpaqueInstruction(I)) {
      Out.emplace_back();
      return Out;
    }
    InstRole Role = HardwareModel::roleOf(I.mnemonic());
    const bool MatrixIsTrans = TI.hardware().delayAluMatrixIsTrans() &&
                               TI.hardware().classify(I.mnemonic()).Name == "WMMA";
    // LLVM relaxes branches after it placed the delays: the s_setpc_b64 of
    // a long branch (its target proven, LabelData) gets none, like the adds
    // before it, which have symbol operands.
    const bool LongBranch = isIndirectBranch(I) && I.getModifier<LabelData>();
    for (const MCInst &MI : I.mcInsts()) {
      MCInst Logical = MI;
      if (Codec && MsbState)
        consumeError(Codec->raise(Logical, MsbState));
      Out.push_back(describeMC(Logical, I.mcInsts().size() == 1 ? Role : InstRole::None,
                               MatrixIsTrans));
      Out.back().Bundled |= LongBranch;
    }
    return Out;
  }

  DelayState initialState() const { return DelayState(); }

  void join(DelayState &Into, const DelayState &From) const {
    for (const auto &[Unit, W] : From.Units) {
      auto [It, Inserted] = Into.Units.try_emplace(Unit, W);
      if (!Inserted)
        It->second.merge(W);
    }
  }

  void transfer(const Instruction &I, DelayState &S) const {
    if (startsLlvmBlock(I))
      S.LastSgprFromValu.reset();
    auto It = Steps.find(&I);
    if (It == Steps.end())
      return; // an s_delay_alu: LLVM places them after the model ran
    bool First = true;
    for (const AluStep &Step : It->second) {
      if (Step.Relaxation)
        continue;
      apply(I, Step, S, First);
      First = false;
    }
  }

  void apply(const Instruction &I, const AluStep &Step, DelayState &S, bool Record) const {
    if (Step.WaitsForSgprWrites && S.LastSgprFromValu) {
      auto Last = S.Units.find(*S.LastSgprFromValu);
      if (Last != S.Units.end()) {
        // Every VALU not newer than the last SGPR write is done too.
        uint8_t Count = Last->second.ValuCount;
        for (auto W = S.Units.begin(), Next = W; W != S.Units.end(); W = Next) {
          ++Next;
          if (W->second.ValuCount >= Count && W->second.ValuCycles > 0)
            S.Units.erase(W);
        }
        S.LastSgprFromValu.reset();
      }
    }
    if (Step.WaitsForValu) {
      S.Units.clear();
    } else if (Step.Kind != AluKind::Other) {
      PendingWrite Delay;
      bool Found = false;
      MCRegister Register;
      for (const auto &[Unit, Reg] : Step.Uses) {
        auto W = S.Units.find(Unit);
        if (W == S.Units.end())
          continue;
        if (!Found)
          Register = Reg;
        Found = true;
        Delay.merge(W->second);
        S.Units.erase(W);
      }
      if (Step.IsValu && Step.FirstSgprDef)
        S.LastSgprFromValu = Step.FirstSgprDef;
      if (Recording && Record && Found && !Step.Bundled)
        record(I, Delay, Register);
    }
    if (Step.Kind != AluKind::Other)
      for (const auto &[Unit, Latency] : Step.Defs)
        S.Units[Unit] = PendingWrite::written(Step.Kind, Latency, &I);
    S.advance(Step.Kind, Step.Cycles);
  }

  /// The fields LLVM's emitDelayAlu writes for \p Delay.
  void record(const Instruction &I, const PendingWrite &Delay, MCRegister Register) const {
    // The counts include the producer itself (it advanced the state too):
    // a count of 1 is the previous instruction of that pipe.
    AluDelayId First = 0, Second = 0;
    if (Delay.TransCount < TransLimit)
      First = 4 + Delay.TransCount;
    if (Delay.ValuCount < ValuLimit && Delay.ValuCount <= Delay.TransValuCount)
      (First ? Second : First) = Delay.ValuCount;
    if (Delay.SaluCycles && !Second)
      (First ? Second : First) = 8 + Delay.SaluCycles;
    if (!First)
      return;
    DelayAluDemand D;
    D.Consumer = &I;
    D.Producer = Delay.Producer;
    D.Register = Register;
    D.First = First;
    D.Second = Second;
    Recording->push_back(D);
  }

  /// The demands of \p BB, each marked with what the s_delay_alu
  /// instructions of the block ask for it.
  void collect(const BasicBlock &BB, std::vector<DelayAluDemand> &Out) {
    const size_t Begin = Out.size();
    Recording = &Out;
    DelayState S = stateIn(BB);
    for (const Instruction &I : BB.instructions())
      step(I, S);
    Recording = nullptr;
    // Which instruction each s_delay_alu field names: instid0 the next
    // one, instid1 `instskip` instructions after that.
    DenseMap<const Instruction *, Announced> Asked;
    SmallVector<std::pair<unsigned, AluDelayId>, 4> Ahead;
    SmallVector<const Instruction *, 4> Announcers;
    unsigned Ordinal = 0;
    for (const Instruction &I : BB.instructions()) {
      if (isDelayAlu(I)) {
        if (I.mcInsts().size() != 1 || !I.mcInsts()[0].getNumOperands() ||
            !I.mcInsts()[0].getOperand(0).isImm())
          continue;
        DelayAluImmediate F = DelayAluImmediate::decode(I.mcInsts()[0].getOperand(0).getImm());
        if (F.First)
          Ahead.emplace_back(Ordinal, F.First);
        if (F.Second)
          Ahead.emplace_back(Ordinal + F.Skip, F.Second);
        Announcers.push_back(&I);
        continue;
      }
      Announced &A = Asked[&I];
      for (const auto &[Target, Id] : Ahead)
        if (Target == Ordinal)
          A.Ids.push_back(Id);
      if (!Announcers.empty())
        A.Announcer = Announcers.back();
      Announcers.clear();
      ++Ordinal;
    }
    for (size_t K = Begin; K < Out.size(); ++K) {
      DelayAluDemand &D = Out[K];
      const Announced &A = Asked[D.Consumer];
      auto Covers = [&](AluDelayId Need) {
        return any_of(A.Ids, [&](AluDelayId Have) { return coveredBy(Need, Have); });
      };
      D.Covered = Covers(D.First) && (!D.Second || Covers(D.Second));
      D.Announcer = A.Announcer;
    }
  }
};

/// Whether \p TI's processor has s_delay_alu (LLVM: GFX11Insts).
bool hasDelayAlu(const TargetInfo &TI) {
  StringRef Generation = TI.hardware().generation();
  return Generation == "gfx11" || Generation == "gfx12";
}

} // namespace

bool startsLlvmBlock(const Instruction &I) {
  if (&I == &*I.parent()->instructions().begin())
    return true;
  // LLVM writes `; %bb.N:` where a block starts that needs no label.
  SmallVector<StringRef, 4> Lines;
  I.leadingText().split(Lines, '\n');
  return any_of(Lines, [](StringRef L) {
    L = L.trim();
    return L.consume_front(";") && L.trim().starts_with("%bb.") && L.contains(':');
  });
}

DelayAluImmediate DelayAluImmediate::decode(int64_t Imm) {
  DelayAluImmediate F;
  F.First = AluDelayId(Imm & 0xf);
  F.Skip = unsigned((Imm >> 4) & 0x7);
  F.Second = AluDelayId((Imm >> 7) & 0xf);
  return F;
}

StringRef aluDelayName(AluDelayId Id) {
  static constexpr StringRef Names[] = {
      "NO_DEP",        "VALU_DEP_1",    "VALU_DEP_2",        "VALU_DEP_3",
      "VALU_DEP_4",    "TRANS32_DEP_1", "TRANS32_DEP_2",     "TRANS32_DEP_3",
      "FMA_ACCUM_CYCLE_1", "SALU_CYCLE_1", "SALU_CYCLE_2",   "SALU_CYCLE_3"};
  return Id < std::size(Names) ? Names[Id] : StringRef("?");
}

DelayAluAnalysis DelayAluAnalysis::run(const Function &F) {
  DelayAluAnalysis A;
  const Module *M = F.parent();
  if (!M || !hasDelayAlu(M->target()))
    return A;
  DelayAluModel Model(F, M->target());
  // The states form a finite lattice (bounded counts and cycles over the
  // function's register units), so the solver always reaches its fixed
  // point.
  consumeError(Model.run());
  for (const BasicBlock &BB : F.blocks())
    Model.collect(BB, A.Demands);
  return A;
}

std::vector<HazardFinding> findMissingDelayAlu(const Function &F) {
  std::vector<HazardFinding> Findings;
  const Module *M = F.parent();
  // The analysis must outlive the loop: demands() refers into it.
  DelayAluAnalysis A = DelayAluAnalysis::run(F);
  for (const DelayAluDemand &D : A.demands()) {
    if (D.Covered)
      continue;
    HazardFinding H;
    H.Consumer = D.Consumer;
    H.Producer = D.Producer;
    H.Rule = "DelayAlu";
    H.Level = HazardFinding::Severity::Warning;
    std::string Fields = ("instid0(" + aluDelayName(D.First) + ")").str();
    if (D.Second)
      Fields += (" | instid1(" + aluDelayName(D.Second) + ")").str();
    H.Detail = M->target().asmName(D.Register) +
               " is read before its ALU result is ready; s_delay_alu " + Fields +
               " would let another wave issue meanwhile";
    Findings.push_back(std::move(H));
  }
  return Findings;
}

} // namespace stinkytofu
