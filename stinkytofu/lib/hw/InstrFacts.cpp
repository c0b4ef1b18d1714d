//===- InstrFacts.cpp - What LLVM MC says about one instruction ----------===//
#include "stinkytofu/hw/InstrFacts.h"
#include "stinkytofu/hw/HardwareModel.h"
#include "stinkytofu/hw/TargetInfo.h"
#include "llvm/MC/MCInstrDesc.h"

using namespace llvm;

namespace stinkytofu {

static void addUnique(SmallVectorImpl<MCRegister> &Regs, MCRegister R) {
  if (R.isValid() && !llvm::is_contained(Regs, R))
    Regs.push_back(R);
}

MCRegister sourceRegister(const TargetInfo &TI, const MCInst &Inst, unsigned Op) {
  const MCOperand &O = Inst.getOperand(Op);
  if (O.isReg())
    return O.getReg();
  // Only an immediate in a plain register operand is a placeholder; the
  // source operands (SSrc_b32 and the like) take literals.
  const MCInstrDesc &Desc = TI.instrInfo().get(Inst.getOpcode());
  if (!O.isImm() || Op >= Desc.getNumOperands() ||
      Desc.operands()[Op].OperandType != MCOI::OPERAND_REGISTER)
    return MCRegister();
  int Tied = TI.tiedDef(Inst.getOpcode(), Op);
  if (Tied < 0 || unsigned(Tied) >= Inst.getNumOperands() || !Inst.getOperand(Tied).isReg())
    return MCRegister();
  return Inst.getOperand(Tied).getReg();
}

InstrFacts InstrFacts::compute(const TargetInfo &TI, const MCInst &Inst) {
  const MCInstrDesc &Desc = TI.instrInfo().get(Inst.getOpcode());
  InstrFacts F;
  F.Opcode = Inst.getOpcode();
  auto Set = [&](bool Cond, InstrFlag Flag) {
    if (Cond)
      F.Flags |= Flag;
  };
  Set(Desc.isBranch(), IF_Branch);
  Set(Desc.isConditionalBranch(), IF_ConditionalBranch);
  Set(Desc.isCall(), IF_Call);
  Set(Desc.isReturn(), IF_Return);
  Set(Desc.isTerminator(), IF_Terminator);
  Set(Desc.isBarrier(), IF_Barrier);
  Set(Desc.mayLoad(), IF_MayLoad);
  Set(Desc.mayStore(), IF_MayStore);
  Set(Desc.hasUnmodeledSideEffects(), IF_SideEffects);

  unsigned NumDefs = Desc.getNumDefs();
  bool HasPCRelTarget = false, HasExprOperand = false;
  for (unsigned I = 0, E = Inst.getNumOperands(); I != E; ++I) {
    const MCOperand &Op = Inst.getOperand(I);
    if (I < Desc.getNumOperands() &&
        Desc.operands()[I].OperandType == MCOI::OPERAND_PCREL)
      HasPCRelTarget = true;
    HasExprOperand |= Op.isExpr();
    if (!Op.isReg()) {
      if (MCRegister Tied = sourceRegister(TI, Inst, I); Tied.isValid())
        addUnique(F.Uses, TI.canonical(Tied));
      continue;
    }
    if (!Op.getReg().isValid())
      continue;
    // Tied sources (a def that is also read, as in s_addk_i32) are uses.
    bool IsDef = I < NumDefs;
    bool IsTiedUse = I < Desc.getNumOperands() &&
                     Desc.getOperandConstraint(I, MCOI::TIED_TO) != -1;
    MCRegister Reg = TI.canonical(Op.getReg());
    if (IsDef)
      addUnique(F.Defs, Reg);
    if (!IsDef || IsTiedUse)
      addUnique(F.Uses, Reg);
  }
  // A branch to a register is indirect; one to an expression added to the
  // PC (gfx1250's `s_add_pc_i64 label-.-12`) still names its label.
  if (HasExprOperand)
    F.Flags |= IF_ExprOperand;
  if (Desc.isBranch() && !HasPCRelTarget) {
    F.Flags |= IF_ComputedTarget;
    if (!HasExprOperand)
      F.Flags |= IF_IndirectBranch;
  }
  for (MCPhysReg R : Desc.implicit_defs())
    addUnique(F.Defs, TI.canonical(R));
  // A DS instruction's last operand is its gds bit.
  static const std::optional<unsigned> DSBit = HardwareModel::tsFlagBit("DS");
  bool IsDS = DSBit && (Desc.TSFlags >> *DSBit & 1);
  for (MCPhysReg R : Desc.implicit_uses()) {
    MCRegister Reg = TI.canonical(R);
    if (IsDS && Reg == TI.findRegister("M0") && Inst.getNumOperands() &&
        Inst.getOperand(Inst.getNumOperands() - 1).isImm() &&
        !TI.dsReadsM0(Inst.getOpcode(),
                      Inst.getOperand(Inst.getNumOperands() - 1).getImm() != 0))
      continue;
    addUnique(F.Uses, Reg);
  }
  return F;
}

InstrFacts InstrFacts::compose(const TargetInfo &TI, ArrayRef<MCInst> Insts) {
  if (Insts.size() == 1)
    return compute(TI, Insts.front());
  InstrFacts All;
  const MCRegisterInfo &MRI = TI.regInfo();
  auto DefinedEarlier = [&](MCRegister R) {
    return llvm::any_of(All.Defs, [&](MCRegister D) { return MRI.isSubRegisterEq(D, R); });
  };
  for (const MCInst &I : Insts) {
    InstrFacts One = compute(TI, I);
    if (!All.Opcode)
      All.Opcode = One.Opcode;
    All.Flags |= One.Flags;
    for (MCRegister U : One.Uses)
      if (!DefinedEarlier(U))
        addUnique(All.Uses, U);
    for (MCRegister D : One.Defs)
      addUnique(All.Defs, D);
  }
  return All;
}

InstrFacts InstrFacts::opaque() {
  InstrFacts F;
  F.Flags = IF_Opaque | IF_SideEffects | IF_MayLoad | IF_MayStore;
  return F;
}

} // namespace stinkytofu
