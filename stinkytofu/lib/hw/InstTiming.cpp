//===- InstTiming.cpp - Issue and latency cycles of an MC instruction -----===//
#include "stinkytofu/hw/InstTiming.h"

#include "stinkytofu/hw/TargetInfo.h"
#include "llvm/ADT/Twine.h"
#include "llvm/MC/MCInstrDesc.h"
#include "llvm/MC/MCSchedule.h"
#include "llvm/Support/ErrorHandling.h"
#include <cmath>

using namespace llvm;

namespace stinkytofu {

static uint64_t flagMask(std::initializer_list<StringRef> Names) {
  uint64_t Mask = 0;
  for (StringRef Name : Names) {
    std::optional<unsigned> Bit = HardwareModel::tsFlagBit(Name);
    if (!Bit)
      report_fatal_error(Twine("HardwareModel.td declares no TSFlags bit ") + Name);
    Mask |= uint64_t(1) << *Bit;
  }
  return Mask;
}

static constexpr StringRef TimingClassNames[] = {"SMEM",    "BRANCH", "WMMA",   "MFMA",  "LDS",
                                                 "SCRATCH", "VMEM",   "EXPORT", "TRANS", "VALU",
                                                 "CONTROL", "SALU",   "OTHER"};

InstTiming::InstTiming(const TargetInfo &TI) : TI(&TI) {
  static_assert(std::size(TimingClassNames) == NumClassKinds);
  // A class the model lacks stays unresolved: classNamed reports it when an
  // instruction of it comes.
  for (unsigned K = 0; K < NumClassKinds; ++K)
    for (const InstClass &C : TI.hardware().instClasses())
      if (C.Name == TimingClassNames[K]) {
        Classes[K] = &C;
        break;
      }
  SaluMask = flagMask({"SALU"});
  SoppMask = flagMask({"SOPP"});
  ValuMask = flagMask({"VALU"});
  TransMask = flagMask({"TRANS"});
  MaiMask = flagMask({"IsMAI"});
  WmmaMask = flagMask({"IsWMMA", "IsSWMMAC"});
  SmrdMask = flagMask({"SMRD"});
  // LDS direct and parameter loads read LDS too, in their own format.
  DsMask = flagMask({"DS", "LDSDIR"});
  ScratchMask = flagMask({"FlatScratch"});
  VmemMask = flagMask({"MUBUF", "MTBUF", "MIMG", "VIMAGE", "VSAMPLE", "FLAT"});
  ExpMask = flagMask({"EXP"});
}

const InstClass &InstTiming::classNamed(StringRef Name) const {
  ArrayRef<InstClass> Classes = TI->hardware().instClasses();
  for (const InstClass &C : Classes)
    if (C.Name == Name)
      return C;
  report_fatal_error(Twine("HardwareModel.td has no instruction class ") + Name);
}

const InstClass &InstTiming::classOfKind(ClassKind Kind) const {
  return Classes[Kind] ? *Classes[Kind] : classNamed(TimingClassNames[Kind]);
}

const InstClass &InstTiming::classOf(unsigned Opcode) const {
  const MCInstrDesc &D = TI->instrInfo().get(Opcode);
  const uint64_t TS = D.TSFlags;
  if (TS & SmrdMask)
    return classOfKind(Smem);
  if (D.isBranch() || D.isCall() || D.isReturn())
    return classOfKind(Branch);
  if (TS & WmmaMask)
    return classOfKind(Wmma);
  // IsMAI also marks the accumulator moves (v_accvgpr_read/write/mov), which
  // take one source; a matrix product takes three (A, B, C). LLVM's isMFMA
  // makes the same split by opcode.
  if ((TS & MaiMask) && D.getNumOperands() - D.getNumDefs() >= 3)
    return classOfKind(Mfma);
  if (TS & DsMask)
    return classOfKind(Lds);
  if (TS & ScratchMask)
    return classOfKind(Scratch);
  if (TS & VmemMask)
    return classOfKind(Vmem);
  if (TS & ExpMask)
    return classOfKind(Export);
  if (TS & ValuMask)
    return classOfKind(TS & TransMask ? Trans : Valu);
  if (TS & SaluMask)
    return classOfKind(TS & SoppMask ? Control : Salu);
  return classOfKind(Other);
}

InstTimes InstTiming::times(const MCInst &Inst) const {
  InstTimes T;
  T.Class = &classOf(Inst.getOpcode());
  T.Issue = std::max(T.Class->IssueCycles, 1u);
  T.Latency = std::max(T.Class->LatencyCycles, 1u);
  bool Matrix = T.Class->Name == "MFMA" || T.Class->Name == "WMMA";
  const MCSubtargetInfo &STI = TI->subtargetInfo();
  const MCSchedModel &SM = STI.getSchedModel();
  if (!SM.hasInstrSchedModel())
    return T;
  // LLVM's figures win where its scheduling model has them. The class is
  // resolved here: MCSchedModel's MCInst overload of computeInstrLatency
  // gives up on every class that is not a variant.
  unsigned Class = TI->instrInfo().get(Inst.getOpcode()).getSchedClass();
  const MCSchedClassDesc *SC = SM.getSchedClassDesc(Class);
  for (unsigned Guard = 0; SC && SC->isValid() && SC->isVariant() && Guard < 8; ++Guard) {
    Class = STI.resolveVariantSchedClass(Class, &Inst, &TI->instrInfo(), SM.getProcessorID());
    SC = Class ? SM.getSchedClassDesc(Class) : nullptr;
  }
  if (!SC || !SC->isValid() || SC->isVariant())
    return T;
  int Latency = MCSchedModel::computeInstrLatency(STI, *SC);
  if (Latency > 0)
    T.Latency = unsigned(Latency);
  if (Matrix) {
    double Throughput = MCSchedModel::getReciprocalThroughput(STI, *SC);
    if (Throughput > 0 && std::isfinite(Throughput))
      T.MatrixPipe = unsigned(std::ceil(Throughput));
  }
  return T;
}

InstTimes InstTiming::times(ArrayRef<MCInst> Insts, StringRef Mnemonic) const {
  if (Insts.empty())
    return InstTimes();
  InstTimes T = times(Insts.front());
  for (const MCInst &Inst : Insts.drop_front()) {
    InstTimes Next = times(Inst);
    T.Issue += Next.Issue;
    T.Latency = std::max(T.Latency, Next.Latency);
    T.MatrixPipe = std::max(T.MatrixPipe, Next.MatrixPipe);
  }
  const MCInst &First = Insts.front();
  if (Insts.size() == 1 && HardwareModel::roleOf(Mnemonic) == InstRole::ScalarNop &&
      First.getNumOperands() && First.getOperand(0).isImm())
    T.Issue = unsigned(First.getOperand(0).getImm()) + 1;
  return T;
}

} // namespace stinkytofu
