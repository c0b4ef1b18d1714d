//===- VgprMsb.cpp - VGPRs 256..1023 and s_set_vgpr_msb -------------------===//
#include "stinkytofu/hw/VgprMsb.h"
#include "stinkytofu/hw/TargetInfo.h"
#include "llvm/ADT/Twine.h"
#include "llvm/MC/MCCodeEmitter.h"
#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCDisassembler/MCDisassembler.h"
#include "llvm/MC/MCFixup.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/TargetSelect.h"
#include <mutex>

extern "C" void LLVMInitializeAMDGPUDisassembler();

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
  static std::once_flag Once;
  std::call_once(Once, [] { LLVMInitializeAMDGPUDisassembler(); });
  Disassembler.reset(Target.target().createMCDisassembler(Target.subtargetInfo(), *Ctx));
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
  if (!SetMsbOpcode || !Disassembler)
    return;
  for (unsigned K = 0; K <= vgprmsb::NumSlots; ++K) {
    MCInst Set;
    Set.setOpcode(SetMsbOpcode);
    Set.addOperand(MCOperand::createImm(K == 0 ? 0 : 1 << (2 * (K - 1))));
    SmallVector<char, 8> Bytes;
    cantFail(encode(Set, Bytes));
    Probes[K].assign(Bytes.begin(), Bytes.end());
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

std::optional<MCInst> VgprMsbCodec::decode(ArrayRef<uint8_t> Prefix, ArrayRef<uint8_t> Bytes) {
  uint64_t Size = 0;
  MCInst Ignored, Out;
  // The disassembler keeps the state s_set_vgpr_msb sets for the next
  // instruction it decodes.
  if (Disassembler->getInstruction(Ignored, Size, Prefix, 0, nulls()) !=
      MCDisassembler::Success)
    return std::nullopt;
  if (Disassembler->getInstruction(Out, Size, Bytes, 0, nulls()) != MCDisassembler::Success ||
      Size != Bytes.size())
    return std::nullopt;
  return Out;
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

Expected<ArrayRef<int8_t>> VgprMsbCodec::slots(const MCInst &Inst) {
  auto Found = SlotsByOpcode.find(Inst.getOpcode());
  if (Found != SlotsByOpcode.end())
    return ArrayRef<int8_t>(Found->second);
  auto Fail = [&](const Twine &Why) {
    return codecError("cannot tell the VGPR MSB slots of " +
                      StringRef(Target.instrInfo().getName(Inst.getOpcode())) + ": " + Why);
  };
  if (!SetMsbOpcode)
    return Fail("the target has no s_set_vgpr_msb");
  SmallVector<char, 16> Chars;
  if (encode(Inst, Chars))
    return Fail("MC cannot encode it");
  ArrayRef<uint8_t> Bytes(reinterpret_cast<const uint8_t *>(Chars.data()), Chars.size());
  std::optional<MCInst> Base = decode(Probes[0], Bytes);
  if (!Base || Base->getNumOperands() != Inst.getNumOperands())
    return Fail("MC does not decode it back to its operands");
  SmallVector<int8_t, 8> Slots(Inst.getNumOperands(), -1);
  for (unsigned S = 0; S < vgprmsb::NumSlots; ++S) {
    std::optional<MCInst> Moved = decode(Probes[S + 1], Bytes);
    if (!Moved || Moved->getNumOperands() != Base->getNumOperands())
      return Fail("MC does not decode it back to its operands");
    for (unsigned J = 0; J < Base->getNumOperands(); ++J) {
      const MCOperand &A = Base->getOperand(J), &B = Moved->getOperand(J);
      if (A.isReg() && B.isReg() && A.getReg() != B.getReg() && vgprIndex(A.getReg()))
        Slots[J] = int8_t(S);
    }
  }
  auto [It, Inserted] = SlotsByOpcode.try_emplace(Inst.getOpcode(), std::move(Slots));
  return ArrayRef<int8_t>(It->second);
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
