//===- VgprMsb.cpp - VGPRs 256..1023 and s_set_vgpr_msb -------------------===//
#include "stinkytofu/hw/VgprMsb.h"
#include "stinkytofu/hw/TargetInfo.h"
#include "stinkytofu/hw/VgprSpelling.h"
#include "llvm/ADT/Twine.h"
#include "llvm/MC/MCCodeEmitter.h"
#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCInstPrinter.h"
#include "llvm/MC/MCInstrAnalysis.h"
#include "llvm/MC/MCFixup.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/TargetSelect.h"
#include <mutex>

using namespace llvm;

namespace stinkytofu {

std::string vgprmsb::describeState(uint8_t State) {
  return ("msbs: dst=" + Twine(bankOf(State, Dst)) + " src0=" + Twine(bankOf(State, Src0)) +
          " src1=" + Twine(bankOf(State, Src1)) + " src2=" + Twine(bankOf(State, Src2)))
      .str();
}

static Error codecError(const Twine &Message) {
  return createStringError(inconvertibleErrorCode(), Message);
}

VgprMsbCodec::VgprMsbCodec(const TargetInfo &Target)
    : Target(Target),
      Ctx(std::make_unique<MCContext>(Target.triple(), &Target.asmInfo(), &Target.regInfo(),
                                      &Target.subtargetInfo(), nullptr,
                                      &Target.targetOptions())),
      Emitter(Target.target().createMCCodeEmitter(Target.instrInfo(), *Ctx)) {
  Analysis.reset(Target.target().createMCInstrAnalysis(&Target.instrInfo()));
  Printer.reset(Target.target().createMCInstPrinter(Target.triple(), 0, Target.asmInfo(),
                                                    Target.instrInfo(), Target.regInfo()));
  if (Printer)
    Printer->setMCInstrAnalysis(Analysis.get());
  const MCInstrInfo &MII = Target.instrInfo();
  // The subtarget's own s_set_vgpr_msb: the one whose encoding the code
  // emitter accepts for this processor.
  for (unsigned Opc = 0, N = MII.getNumOpcodes(); Opc < N && !SetMsbOpcode; ++Opc) {
    if (!StringRef(MII.getName(Opc)).starts_with("S_SET_VGPR_MSB_"))
      continue;
    MCInst Probe;
    Probe.setOpcode(Opc);
    Probe.addOperand(MCOperand::createImm(0));
    SmallVector<char, 8> Bytes;
    if (encode(Probe, Bytes))
      continue;
    SetMsbOpcode = Opc;
  }
}

VgprMsbCodec::~VgprMsbCodec() = default;

Error VgprMsbCodec::encode(const MCInst &Inst, SmallVectorImpl<char> &Bytes) {
  Bytes.clear();
  SmallVector<MCFixup, 2> Fixups;
  // The emitter reports an instruction it cannot encode on this subtarget
  // through the context, and writes nothing.
  Emitter->encodeInstruction(Inst, Bytes, Fixups, Target.subtargetInfo());
  if (Bytes.empty() || Ctx->hadError())
    return codecError("cannot encode");
  return Error::success();
}

std::optional<unsigned> VgprMsbCodec::vgprIndex(MCRegister Reg) const {
  if (!Reg.isValid())
    return std::nullopt;
  if (!Target.indexOf(Reg)) {
    // A true16 half is numbered by its 32-bit register.
    for (MCSuperRegIterator Super(Reg, &Target.regInfo()); Super.isValid(); ++Super)
      if (Target.indexOf(*Super) && Target.classOf(*Super) == RegClass::VGPR)
        return Target.indexOf(*Super);
  }
  SmallVector<MCRegister, 4> Covered = Target.covered32(Reg);
  if (Target.classOf(Covered.front()) != RegClass::VGPR)
    return std::nullopt;
  return Target.indexOf(Covered.front());
}

unsigned VgprMsbCodec::vgprCount(MCRegister Reg) const {
  return Target.covered32(Reg).size(); // a 16-bit half covers itself only
}

Error VgprMsbCodec::raiseWritten(MCInst &Inst, StringRef Text) {
  SmallVector<int, 8> Operands = operandsOfTokens(Inst, Text, /*Low=*/true);
  SmallVector<bool, 8> Moved(Inst.getNumOperands(), false);
  size_t K = 0;
  Error Err = Error::success();
  forEachVgprToken(Text, [&](const VgprToken &T) {
    int J = Operands[K++];
    if (T.First < vgprmsb::VgprsPerBank || Err)
      return;
    MCRegister High = J < 0 ? MCRegister()
                            : rebase(Inst.getOperand(J).getReg(),
                                     int(T.First - T.First % vgprmsb::VgprsPerBank));
    if (!High.isValid()) {
      Err = createStringError(inconvertibleErrorCode(),
                              "'" + Text.slice(T.Begin, T.End) +
                                  "' is not a register MC can hold there");
      return;
    }
    Inst.getOperand(J).setReg(High);
    Moved[J] = true;
  });
  if (Err)
    return Err;
  const MCInstrDesc &Desc = Target.instrInfo().get(Inst.getOpcode());
  for (unsigned J = 0; J < Inst.getNumOperands() && J < Desc.getNumOperands(); ++J) {
    int Tied = Desc.getOperandConstraint(J, MCOI::TIED_TO);
    if (Tied >= 0 && unsigned(Tied) < Inst.getNumOperands() && Moved[Tied] &&
        Inst.getOperand(J).isReg())
      Inst.getOperand(J).setReg(Inst.getOperand(Tied).getReg());
  }
  return Error::success();
}

MCRegister VgprMsbCodec::rebase(MCRegister Reg, int Delta) const {
  const MCRegisterInfo &MRI = Target.regInfo();
  if (Delta == 0)
    return Reg;
  if (Target.indexOf(Reg)) {
    std::optional<unsigned> I = Target.indexOf(Reg);
    if (int(*I) + Delta < 0)
      return MCRegister();
    return Target.reg32(Target.classOf(Reg), unsigned(int(*I) + Delta));
  }
  // A 16-bit half: move its 32-bit register and take the same half.
  for (MCSuperRegIterator Super(Reg, &MRI); Super.isValid(); ++Super)
    if (Target.indexOf(*Super)) {
      MCRegister Moved = rebase(*Super, Delta);
      unsigned Idx = MRI.getSubRegIndex(*Super, Reg);
      return Moved.isValid() && Idx ? MRI.getSubReg(Moved, Idx) : MCRegister();
    }
  // A tuple: the register of one of its classes that starts Delta later.
  SmallVector<MCRegister, 4> Covered = Target.covered32(Reg);
  MCRegister First = rebase(Covered.front(), Delta);
  unsigned Sub0 = MRI.getSubRegIndex(Reg, Covered.front());
  if (!First.isValid() || !Sub0)
    return MCRegister();
  for (const MCRegisterClass &RC : MRI.regclasses()) {
    if (!RC.contains(Reg))
      continue;
    if (MCRegister Super = MRI.getMatchingSuperReg(First, Sub0, &RC))
      return Super;
  }
  return MCRegister();
}

Expected<const VgprMsbCodec::Probed &> VgprMsbCodec::probe(const MCInst &Inst) {
  // By opcode and which operands are VGPRs: an operand that may be a
  // register or a constant (src0 of VOPD) has a slot only as a register.
  uint64_t Key = uint64_t(Inst.getOpcode()) << 32;
  for (unsigned J = 0; J < Inst.getNumOperands() && J < 32; ++J)
    if (Inst.getOperand(J).isReg() && vgprIndex(Inst.getOperand(J).getReg()))
      Key |= 1u << J;
  auto Found = SlotsByOpcode.find(Key);
  if (Found != SlotsByOpcode.end())
    return Found->second;
  auto Fail = [&](const Twine &Why) {
    return codecError("cannot tell the VGPR MSB slots of " +
                      StringRef(Target.instrInfo().getName(Inst.getOpcode())) + ": " + Why);
  };
  if (!SetMsbOpcode || !Printer || !Analysis)
    return Fail("the target has no s_set_vgpr_msb");
  // Each VGPR operand gets a register of its own (v0, v16, v32, ...; a
  // tied operand its tie's), so that the printed text tells them apart.
  MCInst Probe = Inst;
  const MCInstrDesc &Desc = Target.instrInfo().get(Inst.getOpcode());
  SmallVector<int, 8> OperandOf(Inst.getNumOperands(), -1); // by low index / 16
  unsigned Next = 0;
  for (unsigned J = 0; J < Probe.getNumOperands(); ++J) {
    MCOperand &Op = Probe.getOperand(J);
    std::optional<unsigned> Index = Op.isReg() ? vgprIndex(Op.getReg()) : std::nullopt;
    if (!Index)
      continue;
    int Tied = J < Desc.getNumOperands() ? Desc.getOperandConstraint(J, MCOI::TIED_TO) : -1;
    if (Tied >= 0 && unsigned(Tied) < J) {
      Op.setReg(Probe.getOperand(Tied).getReg());
      continue;
    }
    if (Next * 16 + vgprCount(Op.getReg()) > vgprmsb::VgprsPerBank)
      return Fail("too many VGPR operands");
    MCRegister Moved = rebase(Op.getReg(), int(Next * 16) - int(*Index));
    if (!Moved.isValid())
      return Fail("no register to probe it with");
    Op.setReg(Moved);
    ++Next;
  }
  Probed P;
  SmallVector<int8_t, 8> &Slots = P.Slots;
  Slots.assign(Inst.getNumOperands(), -1);
  for (unsigned S = 0; S < vgprmsb::NumSlots; ++S) {
    // The printer asks the instruction analysis for the state the last
    // s_set_vgpr_msb set, and notes each VGPR it moves: `v16 /*v272*/`.
    MCInst Set;
    Set.setOpcode(SetMsbOpcode);
    Set.addOperand(MCOperand::createImm(1 << (2 * S)));
    Analysis->resetState();
    Analysis->updateState(Set, 0);
    std::string Text;
    raw_string_ostream OS(Text);
    Printer->printInst(&Probe, 0, "", Target.subtargetInfo(), OS);
    forEachVgprToken(Text, [&](const VgprToken &T) {
      if (T.First % 16)
        return;
      bool First = true;
      for (unsigned J = 0; J < Probe.getNumOperands(); ++J) {
        const MCOperand &Op = Probe.getOperand(J);
        if (!Op.isReg() || vgprIndex(Op.getReg()) != T.First)
          continue;
        if (T.NoteFirst)
          Slots[J] = int8_t(S);
        if (S == 0 && First)
          P.Order.push_back(uint8_t(J));
        First = false;
      }
    });
  }
  Analysis->resetState();
  auto [It, Inserted] = SlotsByOpcode.try_emplace(Key, std::move(P));
  return It->second;
}

Expected<ArrayRef<int8_t>> VgprMsbCodec::slots(const MCInst &Inst) {
  Expected<const Probed &> P = probe(Inst);
  if (!P)
    return P.takeError();
  return ArrayRef<int8_t>(P->Slots);
}

Expected<ArrayRef<uint8_t>> VgprMsbCodec::writtenOrder(const MCInst &Inst) {
  Expected<const Probed &> P = probe(Inst);
  if (!P)
    return P.takeError();
  return ArrayRef<uint8_t>(P->Order);
}

SmallVector<int, 8> VgprMsbCodec::operandsOfTokens(const MCInst &Inst, StringRef Text,
                                                   bool Low) {
  SmallVector<VgprToken, 8> Tokens;
  forEachVgprToken(Text, [&](const VgprToken &T) { Tokens.push_back(T); });
  SmallVector<int, 8> Out(Tokens.size(), -1);
  auto Names = [&](unsigned J, const VgprToken &T) {
    const MCOperand &Op = Inst.getOperand(J);
    if (!Op.isReg() || !vgprIndex(Op.getReg()) || vgprCount(Op.getReg()) != T.Count)
      return false;
    unsigned I = *vgprIndex(Op.getReg());
    return Low ? I % vgprmsb::VgprsPerBank == T.First % vgprmsb::VgprsPerBank : I == T.First;
  };
  Expected<ArrayRef<uint8_t>> Order = writtenOrder(Inst);
  if (Order && Order->size() == Tokens.size() &&
      all_of(seq(Tokens.size()), [&](size_t K) { return Names((*Order)[K], Tokens[K]); })) {
    for (size_t K = 0; K < Tokens.size(); ++K)
      Out[K] = (*Order)[K];
    return Out;
  }
  if (!Order)
    consumeError(Order.takeError());
  SmallVector<bool, 8> Used(Inst.getNumOperands(), false);
  for (size_t K = 0; K < Tokens.size(); ++K)
    for (unsigned J = 0; J < Inst.getNumOperands(); ++J)
      if (!Used[J] && Names(J, Tokens[K])) {
        Used[J] = true;
        Out[K] = int(J);
        break;
      }
  return Out;
}

Error VgprMsbCodec::raise(MCInst &Inst, uint8_t State) {
  if (State == 0)
    return Error::success();
  Expected<ArrayRef<int8_t>> Slots = slots(Inst);
  if (!Slots)
    return Slots.takeError();
  for (unsigned J = 0; J < Inst.getNumOperands(); ++J) {
    MCOperand &Op = Inst.getOperand(J);
    if ((*Slots)[J] < 0 || !Op.isReg())
      continue;
    unsigned Bank = vgprmsb::bankOf(State, unsigned((*Slots)[J]));
    std::optional<unsigned> Index = vgprIndex(Op.getReg());
    if (!Bank || !Index || *Index >= vgprmsb::VgprsPerBank)
      continue;
    MCRegister High = rebase(Op.getReg(), int(Bank * vgprmsb::VgprsPerBank));
    if (!High.isValid())
      return codecError("no register " + Twine(*Index + Bank * vgprmsb::VgprsPerBank) +
                        " for " + Target.asmName(Op.getReg()) + " in bank " + Twine(Bank));
    Op.setReg(High);
  }
  return Error::success();
}

bool VgprMsbCodec::hasHighVgpr(const MCInst &Inst) const {
  for (const MCOperand &Op : Inst)
    if (Op.isReg())
      if (std::optional<unsigned> I = vgprIndex(Op.getReg()); I && *I >= vgprmsb::VgprsPerBank)
        return true;
  return false;
}

Expected<VgprMsbNeed> VgprMsbCodec::need(const MCInst &Inst) {
  VgprMsbNeed N;
  bool AnyVgpr = false;
  for (const MCOperand &Op : Inst)
    AnyVgpr |= Op.isReg() && vgprIndex(Op.getReg()).has_value();
  if (!AnyVgpr)
    return N;
  Expected<ArrayRef<int8_t>> Slots = slots(Inst);
  if (!Slots)
    return Slots.takeError();
  for (unsigned J = 0; J < Inst.getNumOperands(); ++J) {
    const MCOperand &Op = Inst.getOperand(J);
    std::optional<unsigned> Index = Op.isReg() ? vgprIndex(Op.getReg()) : std::nullopt;
    if (!Index)
      continue;
    unsigned Bank = *Index / vgprmsb::VgprsPerBank;
    int8_t S = (*Slots)[J];
    if (S < 0) {
      if (Bank)
        return codecError(Target.asmName(Op.getReg()) +
                          " is in an operand that no VGPR MSB slot extends");
      continue;
    }
    uint8_t Bits = uint8_t(3u << (2 * S));
    if ((N.Mask & Bits) && vgprmsb::bankOf(N.Value, S) != Bank)
      return codecError(Target.asmName(Op.getReg()) + " needs bank " + Twine(Bank) +
                        " where another operand of the same slot needs bank " +
                        Twine(vgprmsb::bankOf(N.Value, S)));
    N.Mask |= Bits;
    N.Value = vgprmsb::withBank(N.Value, S, Bank);
  }
  return N;
}

} // namespace stinkytofu
