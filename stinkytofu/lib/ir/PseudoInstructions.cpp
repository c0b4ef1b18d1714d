//===- PseudoInstructions.cpp - Statements a pass lowers, not MC ----------===//
#include "stinkytofu/ir/PseudoInstructions.h"
#include "stinkytofu/hw/TargetInfo.h"
#include "stinkytofu/ir/Instruction.h"
#include "llvm/ADT/StringExtras.h"

using namespace llvm;

namespace stinkytofu {

void PseudoInstructionRegistry::add(PseudoInstructionInfo Info) {
  Info.Mnemonic = StringRef(Info.Mnemonic).lower();
  for (PseudoInstructionInfo &E : Entries)
    if (E.Mnemonic == Info.Mnemonic) {
      E = std::move(Info);
      return;
    }
  Entries.push_back(std::move(Info));
}

const PseudoInstructionInfo *
PseudoInstructionRegistry::find(StringRef Mnemonic) const {
  for (const PseudoInstructionInfo &E : Entries)
    if (Mnemonic.equals_insensitive(E.Mnemonic))
      return &E;
  return nullptr;
}

const PseudoInstructionInfo *
PseudoInstructionRegistry::findStatement(StringRef Statement) const {
  if (Entries.empty())
    return nullptr;
  StringRef Word = Statement.ltrim(" \t").take_until(
      [](char C) { return isSpace(C) || C == ','; });
  return find(Word);
}

InstrFacts pseudoInstructionFacts(const Instruction &I, const TargetInfo &TI) {
  InstrFacts F;
  F.Flags = IF_SideEffects;
  for (const Operand &Op : I.operands()) {
    if (!Op.isRegister() || !Op.firstReg())
      continue;
    RegClass C = Op.regFile() == RegFile::SGPR   ? RegClass::SGPR
                 : Op.regFile() == RegFile::VGPR ? RegClass::VGPR
                 : Op.regFile() == RegFile::AGPR ? RegClass::AGPR
                 : Op.regFile() == RegFile::TTMP ? RegClass::TTMP
                                                 : RegClass::Other;
    if (C == RegClass::Other)
      continue;
    for (unsigned K = 0; K < Op.regCount(); ++K) {
      MCRegister R = TI.reg32(C, *Op.firstReg() + K);
      if (R.isValid())
        F.Uses.push_back(R);
    }
  }
  return F;
}

} // namespace stinkytofu
