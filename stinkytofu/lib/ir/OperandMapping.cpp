//===- OperandMapping.cpp - Which MC operand an operand stands for --------===//
#include "stinkytofu/ir/OperandMapping.h"
#include "stinkytofu/hw/HardwareModel.h"
#include "stinkytofu/hw/TargetInfo.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCRegisterInfo.h"

using namespace llvm;

namespace stinkytofu {

std::optional<RegisterRange> registerRangeOf(MCRegister Reg, const TargetInfo &TI) {
  Reg = TI.canonical(Reg);
  SmallVector<MCRegister, 4> Covered = TI.covered32(Reg);
  // A true16 half (VGPR1_LO16) is not numbered: its 32-bit register is. (A
  // tuple covers numbered registers, and its super-registers, all wider than
  // 32 bits, are not numbered: they are not searched.)
  if (!TI.indexOf(Covered.front()))
    for (MCSuperRegIterator Super(Reg, &TI.regInfo()); Super.isValid(); ++Super)
      if (TI.indexOf(*Super)) {
        Covered = TI.covered32(*Super);
        break;
      }
  std::optional<unsigned> First = TI.indexOf(Covered.front());
  if (!First)
    return std::nullopt;
  RegFile File = RegFile::None;
  switch (TI.classOf(Covered.front())) {
  case RegClass::SGPR: File = RegFile::SGPR; break;
  case RegClass::VGPR: File = RegFile::VGPR; break;
  case RegClass::AGPR: File = RegFile::AGPR; break;
  case RegClass::TTMP: File = RegFile::TTMP; break;
  default: return std::nullopt;
  }
  return RegisterRange{File, *First, unsigned(Covered.size())};
}

namespace {

/// The register a special-register operand names (`vcc`, `-|exec_lo|`).
MCRegister specialRegister(StringRef Spelling, const TargetInfo &TI) {
  StringRef Name = Spelling.ltrim('-').trim('|');
  if (Name.equals_insensitive("null"))
    return TI.findRegister("SGPR_NULL");
  if (Name.equals_insensitive("flat_scratch"))
    return TI.findRegister("FLAT_SCR");
  return TI.findRegister(Name.upper());
}

/// How an MC operand slot can be written, from its operand description.
enum class Slot : uint8_t {
  Written,     ///< a register or register-class source, an immediate, a target
  TargetField, ///< a target-specific field: source modifiers, or a literal
               ///< constant (v_madak_f32's K)
};

Slot slotOf(const MCInstrDesc &Desc, unsigned Index) {
  if (Index >= Desc.getNumOperands())
    return Slot::Written; // variadic
  const MCOperandInfo &Info = Desc.operands()[Index];
  if (Info.RegClass != -1 || Info.OperandType < MCOI::OPERAND_FIRST_TARGET)
    return Slot::Written;
  return Slot::TargetField;
}

class Matcher {
public:
  Matcher(const MCInst &MI, const MCInstrDesc &Desc, const TargetInfo &TI)
      : MI(MI), Desc(Desc), TI(TI) {}

  std::optional<unsigned> match(const Operand &Op) {
    switch (Op.kind()) {
    case OperandKind::Register: {
      if (!Op.firstReg())
        return take([&](const MCOperand &M) { return isRegOf(M, Op.regFile()); });
      RegisterRange Want{Op.regFile(), *Op.firstReg(), Op.regCount()};
      // gfx1250: the IR's MC operand is the logical VGPR (v300); written in
      // the encoded form (`v44 /*v300*/`) the text names its low 8 bits,
      // which is all the encoding holds (hw/VgprMsb.h).
      bool Banked = Op.regFile() == RegFile::VGPR && TI.hardware().hasHighVgprs();
      return takeValue([&](const MCOperand &M) {
        if (!M.isReg())
          return false;
        std::optional<RegisterRange> Have = registerRangeOf(M.getReg(), TI);
        if (Have == Want)
          return true;
        return Banked && Have && Have->File == Want.File && Have->Count == Want.Count &&
               Have->First % 256 == Want.First % 256;
      });
    }
    case OperandKind::SpecialRegister: {
      MCRegister Want = specialRegister(Op.spelling(), TI);
      if (!Want.isValid())
        return std::nullopt; // `off`: no register
      Want = TI.canonical(Want);
      return takeValue([&](const MCOperand &M) {
        return M.isReg() && TI.canonical(M.getReg()) == Want;
      });
    }
    case OperandKind::Immediate: {
      int64_t V = *Op.immediate();
      return takeValue([&](const MCOperand &M) {
        return M.isImm() && (M.getImm() == V || uint32_t(M.getImm()) == uint32_t(V));
      });
    }
    case OperandKind::Modifier:
      return std::nullopt;
    case OperandKind::FloatImmediate:
    case OperandKind::Expression:
    case OperandKind::Symbol:
    case OperandKind::Function:
      return take([](const MCOperand &M) { return M.isImm() || M.isExpr() || M.isDFPImm() || M.isSFPImm(); });
    }
    return std::nullopt;
  }

private:
  bool isRegOf(const MCOperand &M, RegFile File) const {
    if (!M.isReg())
      return false;
    std::optional<RegisterRange> R = registerRangeOf(M.getReg(), TI);
    return R && R->File == File;
  }

  /// The first MC operand from the cursor that \p Fits: among written slots
  /// first, then among target fields (a literal constant such as K of
  /// v_madmk_f32 sits in one; source modifiers never match a written value
  /// a source slot after them holds).
  template <typename Pred> std::optional<unsigned> take(Pred Fits) {
    return takeBetween(Cursor, MI.getNumOperands(), Fits);
  }
  /// take() for an operand known by its value, which may also sit before
  /// the cursor: MC orders a few operands unlike the text (the `saddr` of a
  /// `global_load_dword v1, v2, s[4:5]` comes before `vaddr`).
  template <typename Pred> std::optional<unsigned> takeValue(Pred Fits) {
    if (std::optional<unsigned> J = take(Fits))
      return J;
    unsigned Before = Cursor;
    std::optional<unsigned> J = takeBetween(0, Before, Fits);
    Cursor = Before; // matching before the cursor does not move it back
    return J;
  }
  template <typename Pred>
  std::optional<unsigned> takeBetween(unsigned From, unsigned To, Pred Fits) {
    for (Slot Kind : {Slot::Written, Slot::TargetField})
      for (unsigned J = From; J < To; ++J)
        if (!Taken.test(J) && slotOf(Desc, J) == Kind && Fits(MI.getOperand(J))) {
          Taken.set(J);
          Cursor = J + 1;
          return J;
        }
    return std::nullopt;
  }

  const MCInst &MI;
  const MCInstrDesc &Desc;
  const TargetInfo &TI;
  unsigned Cursor = 0;
  llvm::BitVector Taken{MI.getNumOperands()};
};

} // namespace

SmallVector<std::optional<unsigned>, 8> mapOperandsToMC(const Instruction &I,
                                                         const TargetInfo &TI) {
  const std::vector<Operand> &Ops = I.operands();
  SmallVector<std::optional<unsigned>, 8> Map(Ops.size());
  if (I.kind() != InstKind::Machine || I.hasStaleMC() || I.mcInsts().size() != 1)
    return Map;
  const MCInst &MI = I.mcInsts().front();
  Matcher M(MI, TI.instrInfo().get(MI.getOpcode()), TI);
  for (size_t K = 0; K < Ops.size(); ++K)
    Map[K] = M.match(Ops[K]);
  return Map;
}

} // namespace stinkytofu
