//===- StirImplicitOperands.cpp - Implicit registers written in `.stir` ---===//
#include "stinkytofu/stir/StirImplicitOperands.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/MC/MCInstrInfo.h"

using namespace llvm;

namespace stinkytofu {

std::optional<SpecialRegisterOperand> parseSpecialRegister(StringRef Spelling,
                                                           const TargetInfo &TI) {
  if (Spelling.empty() || !isAlpha(Spelling.front()))
    return std::nullopt;
  auto Special = [&](StringRef MCName) {
    MCRegister R = TI.findRegister(MCName);
    return R && TI.classOf(R) == RegClass::Special ? R : MCRegister();
  };
  // MC names registers in upper case (SCC, EXEC_LO, M0); the reference adds
  // an index to the register of a one-register file: SCC0, exec_lo0,
  // vcc[0], and its tests also number them apart (SCC0, then SCC1), which
  // its reader takes as the same register.
  std::string Upper = Spelling.upper();
  StringRef Name = Upper;
  bool Indexed = Name.consume_back("[0]");
  MCRegister Reg = Special(Name);
  if (!Reg && !Indexed) {
    StringRef Base = Name.rtrim("0123456789");
    if (!Base.empty() && Base.size() < Name.size()) {
      Reg = Special(Base);
      Indexed = true;
    }
  }
  if (!Reg)
    return std::nullopt;
  return SpecialRegisterOperand{Reg, !Indexed && Spelling == TI.asmName(Reg)};
}

bool isReferenceRegisterSpelling(StringRef Spelling, const TargetInfo &TI) {
  std::optional<SpecialRegisterOperand> S = parseSpecialRegister(Spelling, TI);
  return S && !S->AsmSpelling;
}

Error checkRegisterClaim(const Instruction &I, StringRef Spelling, MCRegister Reg,
                         RegisterClaim Claim, const TargetInfo &TI) {
  if (I.kind() == InstKind::Opaque)
    return Error::success(); // assumed to read and write everything
  auto Touches = [&](ArrayRef<MCRegister> Regs) {
    return any_of(Regs, [&](MCRegister R) {
      return TI.regInfo().regsOverlap(TI.canonical(R), TI.canonical(Reg));
    });
  };
  // The descriptor's implicit uses are a superset of the facts' (gfx9 DS
  // instructions list M0 that the hardware model knows they do not read):
  // claiming one of them is no contradiction.
  SmallVector<MCRegister, 4> Listed;
  for (MCPhysReg R : TI.instrInfo().get(I.facts().Opcode).implicit_uses())
    Listed.push_back(R);
  bool Reads = Touches(I.facts().Uses) || Touches(Listed), Writes = Touches(I.facts().Defs);
  bool Holds = Claim == RegisterClaim::ImplicitDef   ? Writes
               : Claim == RegisterClaim::ImplicitUse ? Reads
                                                     : Reads || Writes;
  if (Holds)
    return Error::success();
  std::string Name = TI.asmName(Reg);
  std::string Says = !Reads && !Writes ? "neither reads nor writes " + Name
                     : Writes          ? "writes " + Name + " but does not read it"
                                       : "reads " + Name + " but does not write it";
  return createStringError(inconvertibleErrorCode(),
                           "'" + Spelling + "' contradicts MC: " + I.mnemonic() + " " + Says);
}

} // namespace stinkytofu
