//===- HazardModel.cpp - The hazard rules of a processor ------------------===//
#include "stinkytofu/hw/HazardModel.h"
#include "stinkytofu/hw/HardwareModel.h"
#include "stinkytofu/hw/InstrFacts.h"
#include "stinkytofu/hw/TargetInfo.h"
#include "stinkytofu/support/CheapOnce.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/MC/MCSchedule.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/Support/ErrorHandling.h"
#include <algorithm>
#include <memory>
#include <mutex>
#include <optional>
#include <regex>

using namespace llvm;

namespace stinkytofu {
namespace hazgen {
struct RoleEntry {
  StringRef Mnemonic, Role;
};
struct MatrixKindEntry {
  StringRef Kind, Pattern;
};
struct RuleEntry {
  StringRef Name, Producer, Consumer, Relation;
  unsigned WaitStates;
  uint8_t ByPasses[4];
  bool HasByPasses, CountsValus;
};
struct ProcessorEntry {
  StringRef Name;
  const RuleEntry *Rules;
  unsigned NumRules;
  bool SoftClauses, VmemSoftClauses, SplitsXdl;
  unsigned MaxNopStates;
};
} // namespace hazgen
} // namespace stinkytofu

#include "stinkytofu/hw/HazardRules.inc"

namespace stinkytofu {

namespace {

// In HazardClass order; the generator checks the .td against the same names.
constexpr StringRef HazardClassNames[] = {
    "Any", "VALU", "SALU", "VMEM", "SMEM", "DS", "EXP", "DPP", "TRANS", "GDS", "LdsDma",
    "MFMA", "MFMA2Pass", "XDL", "NonXdl", "SMFMA", "DGEMM", "DGEMM4x4", "DGEMM16x16",
    "AccVgprRead", "AccVgprWrite", "DOT", "WMMA", "VALUNotMFMA", "VALUNotMFMANotDOT",
    "VALUNotTRANS", "WideStore", "WideStoreUnlessSgprSoffset", "DstSelForwarding",
    "DenseWMMA", "SWMMAC", "VALUNotWMMA", "DivFmas", "ReadLane",
    "WriteLane", "SetReg", "GetReg", "Fma64", "M0Reader"};
static_assert(std::size(HazardClassNames) == unsigned(HazardClass::NumClasses));

constexpr StringRef RelationNames[] = {
    "ScalarRead", "ExplicitScalarRead", "VgprRead", "ExplicitRead", "VccWrite", "VccRead",
    "ExecWrite", "M0Write", "LaneSelect", "Src0Read", "SameHwReg", "StoreDataWrite",
    "SrcCFull", "SrcCOverlap", "SrcCRead", "SrcABOverlap", "SrcCOverwrite", "AgprOverlap",
    "MatrixResultRead", "MatrixResultWrite", "MatrixSourceOverlap", "DotRead",
    "DotOverwrite", "Always", "SrcABRead", "AnyOperand", "MatrixOperandWrite",
    "ExplicitSourceWrite"};
static_assert(std::size(RelationNames) == unsigned(HazardRelation::ExplicitSourceWrite) + 1);

HazardClass classNamed(StringRef Name) {
  for (unsigned C = 0; C < std::size(HazardClassNames); ++C)
    if (HazardClassNames[C] == Name)
      return HazardClass(C);
  report_fatal_error(Twine("HazardRules.td names an unknown class ") + Name);
}

HazardClassSet classSet(StringRef Text) {
  SmallVector<StringRef, 4> Parts;
  Text.split(Parts, '|');
  HazardClassSet Set = 0;
  for (StringRef P : Parts)
    Set |= classBit(classNamed(P));
  return Set;
}

HazardRelation relationNamed(StringRef Name) {
  for (unsigned R = 0; R < std::size(RelationNames); ++R)
    if (RelationNames[R] == Name)
      return HazardRelation(R);
  report_fatal_error(Twine("HazardRules.td names an unknown relation ") + Name);
}

/// The .td's MatrixKind patterns, each compiled once, when its kind is first
/// asked for: most targets ask for one kind only, and the three patterns a
/// gfx90a never asks for cost 0.6 M instructions to compile.
bool isMatrixKind(StringRef Kind, StringRef Mnemonic) {
  struct Compiled {
    CheapOnce Once;
    std::optional<std::regex> Pattern;
  };
  static Compiled Patterns[std::size(hazgen::MatrixKinds)];
  std::string Text = Mnemonic.str();
  for (size_t K = 0; K < std::size(hazgen::MatrixKinds); ++K) {
    const hazgen::MatrixKindEntry &E = hazgen::MatrixKinds[K];
    if (E.Kind != Kind)
      continue;
    Compiled &C = Patterns[K];
    C.Once([&] { C.Pattern.emplace(E.Pattern.str()); });
    if (std::regex_search(Text, *C.Pattern, std::regex_constants::match_continuous))
      return true;
  }
  return false;
}

StringRef roleOf(StringRef Mnemonic) {
  auto It = partition_point(hazgen::Roles, [&](const hazgen::RoleEntry &E) {
    return E.Mnemonic < Mnemonic;
  });
  if (It != std::end(hazgen::Roles) && It->Mnemonic == Mnemonic)
    return It->Role;
  return "";
}

uint64_t tsFlag(StringRef Name) {
  std::optional<unsigned> Bit = HardwareModel::tsFlagBit(Name);
  if (!Bit)
    report_fatal_error(Twine("HardwareModel.td declares no TSFlags bit ") + Name);
  return uint64_t(1) << *Bit;
}

/// The TSFlags masks the classes are made of.
struct ClassMasks {
  uint64_t Salu = tsFlag("SALU"), Valu = tsFlag("VALU"), Dpp = tsFlag("DPP"),
           Trans = tsFlag("TRANS"), Mubuf = tsFlag("MUBUF"), Mtbuf = tsFlag("MTBUF"),
           Smrd = tsFlag("SMRD"),
           Image = tsFlag("MIMG") | tsFlag("VIMAGE") | tsFlag("VSAMPLE"),
           Flat = tsFlag("FLAT"), Ds = tsFlag("DS"), Exp = tsFlag("EXP"), Mai = tsFlag("IsMAI"),
           Dot = tsFlag("IsDOT"), Wmma = tsFlag("IsWMMA") | tsFlag("IsSWMMAC"),
           Swmmac = tsFlag("IsSWMMAC");
};

const ClassMasks &masks() {
  static const ClassMasks M;
  return M;
}

/// MC's pass count of a matrix instruction: its first write resource's
/// ReleaseAtCycle, as LLVM's hazard recognizer reads it.
unsigned matrixPasses(const TargetInfo &TI, const MCInst &Inst) {
  const MCSubtargetInfo &STI = TI.subtargetInfo();
  const MCSchedModel &SM = STI.getSchedModel();
  if (!SM.hasInstrSchedModel())
    return 0;
  unsigned SC = TI.instrInfo().get(Inst.getOpcode()).getSchedClass();
  const MCSchedClassDesc *D = SM.getSchedClassDesc(SC);
  while (D && D->isVariant()) {
    SC = STI.resolveVariantSchedClass(SC, &Inst, &TI.instrInfo(), SM.getProcessorID());
    D = SC ? SM.getSchedClassDesc(SC) : nullptr;
  }
  if (!D || !D->isValid() || D->NumWriteProcResEntries == 0)
    return 0;
  return STI.getWriteProcResBegin(D)->ReleaseAtCycle;
}

} // namespace

unsigned HazardRule::waitStatesAfter(unsigned Passes) const {
  if (!HasByPasses)
    return WaitStates;
  unsigned Index = Passes <= 2 ? 0 : Passes <= 4 ? 1 : Passes <= 8 ? 2 : 3;
  return ByPasses[Index];
}

unsigned HazardRule::maxWaitStates() const {
  if (!HasByPasses)
    return WaitStates;
  return *std::max_element(ByPasses.begin(), ByPasses.end());
}

HazardModel::HazardModel(const TargetInfo &TI) : TI(&TI) {
  for (const hazgen::ProcessorEntry &P : hazgen::Processors) {
    if (P.Name != TI.processor())
      continue;
    for (unsigned R = 0; R < P.NumRules; ++R) {
      const hazgen::RuleEntry &E = P.Rules[R];
      HazardRule Rule;
      Rule.Name = E.Name;
      Rule.Producer = classSet(E.Producer);
      Rule.Consumer = classSet(E.Consumer);
      Rule.Relation = relationNamed(E.Relation);
      Rule.WaitStates = E.WaitStates;
      std::copy(std::begin(E.ByPasses), std::end(E.ByPasses), Rule.ByPasses.begin());
      Rule.HasByPasses = E.HasByPasses;
      Rule.CountsValus = E.CountsValus;
      Rules.push_back(Rule);
    }
    // XNACK replay is on unless the target id turns it off (`xnack-`).
    bool XnackOff = TI.features().contains("-xnack");
    SoftClauses = P.SoftClauses && !XnackOff;
    VmemSoftClauses = P.VmemSoftClauses && !XnackOff;
    SplitsXdl = P.SplitsXdl;
    MaxNopStates = P.MaxNopStates;
  }
  Vcc = TI.findRegister("VCC");
  Exec = TI.findRegister("EXEC");
  M0 = TI.canonical(TI.findRegister("M0"));
}

bool HazardModel::overlap(MCRegister A, MCRegister B) const {
  if (!A.isValid() || !B.isValid())
    return false;
  return TI->regInfo().regsOverlap(TI->canonical(A), TI->canonical(B));
}

bool HazardModel::isVector(MCRegister R) const {
  RegClass C = TI->classOf(R);
  return C == RegClass::VGPR || C == RegClass::AGPR;
}

HazardTraits HazardModel::traits(const MCInst &Inst, StringRef Mnemonic) const {
  return traits(Inst, Mnemonic, InstrFacts::compute(*TI, Inst));
}

HazardTraits HazardModel::traits(const MCInst &Inst, StringRef Mnemonic,
                                 const InstrFacts &Facts) const {
  const ClassMasks &K = masks();
  const MCInstrDesc &Desc = TI->instrInfo().get(Inst.getOpcode());
  const uint64_t TS = Desc.TSFlags;
  HazardTraits T;
  T.Opcode = Inst.getOpcode();
  for (MCRegister R : Facts.Defs)
    T.Defs.push_back(TI->canonical(R));
  for (MCRegister R : Facts.Uses)
    T.Uses.push_back(TI->canonical(R));

  // Sources are the operand slots MC gives a register class (an inline
  // constant may fill one: an MFMA's C of 0); modifier and control fields
  // in between have none.
  unsigned NumDefs = Desc.getNumDefs();
  int64_t Src0Modifiers = 0;
  for (unsigned I = 0; I < Inst.getNumOperands(); ++I) {
    const MCOperand &Op = Inst.getOperand(I);
    MCRegister R = Op.isReg() && Op.getReg() ? TI->canonical(Op.getReg()) : MCRegister();
    if (I < NumDefs) {
      if (I == 0)
        T.Dst = R;
      continue;
    }
    if (R.isValid())
      T.ExplicitUses.push_back(R);
    bool RegisterSlot = I < Desc.getNumOperands() ? Desc.operands()[I].RegClass != -1
                                                  : R.isValid();
    if (RegisterSlot)
      T.Sources.push_back(R);
    // A VOP3/VOP3P's first operand after its results is src0's modifiers,
    // whose op_sel bit 3 is the destination's (SISrcMods::DST_OP_SEL).
    if (I == NumDefs && !RegisterSlot && Op.isImm())
      Src0Modifiers = Op.getImm();
  }
  if (!T.Sources.empty())
    T.Src0 = T.Sources[0];
  if (T.Sources.size() > 1)
    T.Src1 = T.Sources[1];

  auto Set = [&](HazardClass C, bool On = true) {
    if (On)
      T.Classes |= classBit(C);
  };
  Set(HazardClass::Any);
  const bool Vmem = TS & (K.Mubuf | K.Mtbuf | K.Image | K.Flat);
  const bool Buffer = TS & (K.Mubuf | K.Mtbuf);
  // LDS DMA (buffer/global loads into LDS) carries the VALU flag as well.
  const bool LdsDma = (TS & K.Valu) && (TS & (K.Mubuf | K.Flat));
  const bool Valu = (TS & K.Valu) && !Vmem && !(TS & K.Ds);
  Set(HazardClass::VALU, Valu);
  Set(HazardClass::SALU, TS & K.Salu);
  Set(HazardClass::VMEM, Vmem);
  Set(HazardClass::SMEM, TS & K.Smrd);
  Set(HazardClass::DS, TS & K.Ds);
  Set(HazardClass::EXP, TS & K.Exp);
  Set(HazardClass::DPP, TS & K.Dpp);
  Set(HazardClass::TRANS, TS & K.Trans);
  Set(HazardClass::LdsDma, LdsDma);
  Set(HazardClass::DOT, TS & K.Dot);
  Set(HazardClass::WMMA, TS & K.Wmma);
  Set(HazardClass::SWMMAC, TS & K.Swmmac);
  Set(HazardClass::DenseWMMA,
      (TS & K.Wmma) && !(TS & K.Swmmac) && !isMatrixKind("NonXdlWMMA", Mnemonic));
  Set(HazardClass::VALUNotWMMA, Valu && !(TS & K.Wmma));
  // Writes the high half of its destination: the result is forwarded late.
  Set(HazardClass::DstSelForwarding, Valu && (Src0Modifiers & 8));
  // A DS instruction's last operand is its gds bit.
  if ((TS & K.Ds) && Inst.getNumOperands() > 0) {
    const MCOperand &Last = Inst.getOperand(Inst.getNumOperands() - 1);
    Set(HazardClass::GDS, Last.isImm() && Last.getImm() != 0);
  }

  // Matrix instructions: MFMA (three sources), v_accvgpr_read/write/mov.
  if (TS & K.Mai) {
    bool Mfma = T.Sources.size() >= 3;
    bool DstIsAgpr = TI->classOf(T.Dst) == RegClass::AGPR;
    Set(HazardClass::MFMA, Mfma);
    Set(HazardClass::AccVgprRead, !Mfma && !DstIsAgpr);
    Set(HazardClass::AccVgprWrite, !Mfma && DstIsAgpr);
    if (Mfma) {
      T.Passes = matrixPasses(*TI, Inst);
      bool Dgemm = isMatrixKind("DGEMM", Mnemonic);
      bool Xdl = !Dgemm && !(SplitsXdl && isMatrixKind("NonXdl940", Mnemonic));
      Set(HazardClass::DGEMM, Dgemm);
      Set(HazardClass::DGEMM4x4, Dgemm && T.Passes == 4);
      Set(HazardClass::DGEMM16x16, Dgemm && T.Passes >= 8);
      Set(HazardClass::XDL, Xdl);
      Set(HazardClass::NonXdl, !Xdl);
      Set(HazardClass::SMFMA, !Xdl && !Dgemm);
      Set(HazardClass::MFMA2Pass, T.Passes == 2);
    }
  }
  if (TS & K.Wmma)
    T.Passes = matrixPasses(*TI, Inst);
  T.ValuSlots = (TS & K.Wmma) ? std::max(T.Passes, 1u) : Valu ? 1 : 0;
  const bool Mfma = T.is(HazardClass::MFMA);
  Set(HazardClass::VALUNotMFMA, Valu && !Mfma);
  Set(HazardClass::VALUNotMFMANotDOT, Valu && !Mfma && !(TS & K.Dot));
  Set(HazardClass::VALUNotTRANS, Valu && !(TS & K.Trans));

  // Stores holding more than 64 bits of data VGPRs; a buffer store with an
  // SGPR soffset holds them one state less on gfx940 (and not at all
  // before).
  if (Desc.mayStore() && (Buffer || (TS & K.Flat))) {
    bool SgprSoffset = false;
    for (MCRegister R : T.ExplicitUses) {
      if (isVector(R) && TI->covered32(R).size() > 2)
        T.StoreData = R;
      if (TI->classOf(R) == RegClass::SGPR && TI->covered32(R).size() == 1)
        SgprSoffset = true;
    }
    Set(HazardClass::WideStore, T.StoreData.isValid());
    Set(HazardClass::WideStoreUnlessSgprSoffset,
        T.StoreData.isValid() && !(Buffer && SgprSoffset));
  }

  StringRef Role = roleOf(Mnemonic);
  if (!Role.empty())
    Set(classNamed(Role));
  if (T.is(HazardClass::SetReg) || T.is(HazardClass::GetReg))
    for (const MCOperand &Op : Inst)
      if (Op.isImm()) {
        T.HwReg = unsigned(Op.getImm()) & 0x3f; // hwreg id: bits 5:0
        break;
      }
  if (HardwareModel::roleOf(Mnemonic) == InstRole::ScalarNop && Inst.getNumOperands() &&
      Inst.getOperand(0).isImm())
    T.WaitStates = unsigned(Inst.getOperand(0).getImm()) + 1;
  return T;
}

SmallVector<MCRegister, 4> HazardModel::consumerRegisters(const HazardRule &Rule,
                                                          const HazardTraits &C) const {
  SmallVector<MCRegister, 4> Regs;
  auto Source = [&](unsigned I) {
    if (I < C.Sources.size())
      Regs.push_back(C.Sources[I]);
  };
  switch (Rule.Relation) {
  case HazardRelation::ScalarRead:
    for (MCRegister R : C.Uses)
      if (!isVector(R))
        Regs.push_back(R);
    break;
  case HazardRelation::ExplicitScalarRead:
    for (MCRegister R : C.ExplicitUses)
      if (TI->classOf(R) == RegClass::SGPR)
        Regs.push_back(R);
    break;
  case HazardRelation::VgprRead:
    for (MCRegister R : C.Uses)
      if (TI->classOf(R) == RegClass::VGPR)
        Regs.push_back(R);
    break;
  case HazardRelation::ExplicitRead:
  case HazardRelation::MatrixResultRead:
  case HazardRelation::DotRead:
    Regs.append(C.ExplicitUses.begin(), C.ExplicitUses.end());
    break;
  case HazardRelation::VccWrite:
    Regs.push_back(Vcc);
    break;
  case HazardRelation::VccRead:
    if (any_of(C.Uses, [&](MCRegister R) { return overlap(R, Vcc); }))
      Regs.push_back(Vcc);
    break;
  case HazardRelation::ExecWrite:
    Regs.push_back(Exec);
    break;
  case HazardRelation::M0Write:
    Regs.push_back(M0);
    break;
  case HazardRelation::LaneSelect:
    if (TI->classOf(C.Src1) == RegClass::SGPR)
      Regs.push_back(C.Src1);
    break;
  case HazardRelation::Src0Read:
    if (isVector(C.Src0))
      Regs.push_back(C.Src0);
    break;
  case HazardRelation::StoreDataWrite:
  case HazardRelation::SrcCOverwrite:
  case HazardRelation::MatrixResultWrite:
  case HazardRelation::DotOverwrite:
  case HazardRelation::ExplicitSourceWrite:
    for (MCRegister R : C.Defs)
      if (isVector(R))
        Regs.push_back(R);
    break;
  case HazardRelation::SrcCFull:
  case HazardRelation::SrcCOverlap:
  case HazardRelation::SrcCRead:
    Source(2);
    break;
  case HazardRelation::AnyOperand:
    Regs.append(C.Defs.begin(), C.Defs.end());
    Regs.append(C.Uses.begin(), C.Uses.end());
    break;
  case HazardRelation::MatrixOperandWrite:
    Regs.append(C.Defs.begin(), C.Defs.end());
    break;
  case HazardRelation::SrcABRead:
  case HazardRelation::SrcABOverlap:
    Source(0);
    Source(1);
    break;
  case HazardRelation::MatrixSourceOverlap:
    Source(0);
    Source(1);
    Source(3); // SWMMAC's index
    break;
  case HazardRelation::AgprOverlap:
    if (TI->classOf(C.Dst) == RegClass::AGPR)
      Regs.push_back(C.Dst);
    for (MCRegister R : C.ExplicitUses)
      if (TI->classOf(R) == RegClass::AGPR)
        Regs.push_back(R);
    break;
  case HazardRelation::SameHwReg:
  case HazardRelation::Always:
    Regs.push_back(MCRegister());
    break;
  }
  return Regs;
}

bool RegisterOverlaps::operator()(MCRegister A, MCRegister B) const {
  if (!A.isValid() || !B.isValid())
    return false;
  if (A == B)
    return true;
  auto [It, New] = Known.try_emplace(uint64_t(A.id()) << 32 | B.id(), false);
  if (New)
    It->second = Model->overlap(A, B);
  return It->second;
}

bool HazardModel::relates(const HazardRule &Rule, const HazardTraits &P, const HazardTraits &C,
                          MCRegister Reg, const RegisterOverlaps &Overlaps) const {
  auto Writes = [&](MCRegister R) {
    return any_of(P.Defs, [&](MCRegister D) { return Overlaps(D, R); });
  };
  auto Source = [&](unsigned I) {
    return I < P.Sources.size() ? P.Sources[I] : MCRegister();
  };
  switch (Rule.Relation) {
  case HazardRelation::ScalarRead:
  case HazardRelation::ExplicitScalarRead:
  case HazardRelation::VgprRead:
  case HazardRelation::ExplicitRead:
  case HazardRelation::VccWrite:
  case HazardRelation::VccRead:
  case HazardRelation::ExecWrite:
  case HazardRelation::M0Write:
  case HazardRelation::LaneSelect:
  case HazardRelation::Src0Read:
  case HazardRelation::SrcCRead:
  case HazardRelation::SrcABRead:
    return Writes(Reg);
  case HazardRelation::AnyOperand:
    return Overlaps(P.Dst, Reg);
  case HazardRelation::ExplicitSourceWrite:
    return any_of(P.ExplicitUses, [&](MCRegister U) { return Overlaps(U, Reg); });
  case HazardRelation::MatrixOperandWrite:
    return Overlaps(P.Dst, Reg) || Overlaps(Source(0), Reg) || Overlaps(Source(1), Reg) ||
           Overlaps(Source(3), Reg);
  case HazardRelation::SameHwReg:
    return P.HwReg && P.HwReg == C.HwReg;
  case HazardRelation::StoreDataWrite:
    return Overlaps(P.StoreData, Reg);
  case HazardRelation::SrcCFull:
    return P.Dst == Reg;
  case HazardRelation::SrcCOverlap:
  case HazardRelation::AgprOverlap:
    return P.Dst != Reg && Overlaps(P.Dst, Reg);
  case HazardRelation::SrcABOverlap:
  case HazardRelation::MatrixResultRead:
  case HazardRelation::MatrixResultWrite:
  case HazardRelation::MatrixSourceOverlap:
    return Overlaps(P.Dst, Reg);
  case HazardRelation::SrcCOverwrite:
    return Overlaps(Source(2), Reg);
  case HazardRelation::DotRead:
    // The same DOT opcode accumulates into C without a hazard.
    if (P.Opcode == C.Opcode && C.Sources.size() > 2 && C.Sources[2] == Reg)
      return false;
    return Overlaps(P.Dst, Reg);
  case HazardRelation::DotOverwrite:
    return P.Opcode != C.Opcode && Overlaps(P.Dst, Reg);
  case HazardRelation::Always:
    return true;
  }
  llvm_unreachable("unknown hazard relation");
}

bool HazardRule::seesNearestMatrixWriterOnly() const {
  switch (Relation) {
  case HazardRelation::SrcCFull:
  case HazardRelation::SrcCOverlap:
  case HazardRelation::SrcABOverlap:
  case HazardRelation::MatrixResultRead:
  case HazardRelation::MatrixResultWrite:
    return true;
  default:
    return false;
  }
}

const HazardModel &HazardModel::of(const TargetInfo &TI) {
  static std::mutex Lock;
  static DenseMap<const TargetInfo *, std::unique_ptr<HazardModel>> Models;
  std::lock_guard<std::mutex> Guard(Lock);
  std::unique_ptr<HazardModel> &M = Models[&TI];
  if (!M)
    M = std::make_unique<HazardModel>(TI);
  return *M;
}

} // namespace stinkytofu
