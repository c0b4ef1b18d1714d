//===- InstructionFactory.cpp - New instructions, assembled once ----------===//
#include "asm-instrument/sqtt/InstructionFactory.h"
#include "stinkytofu/parse/AsmReader.h"
#include "stinkytofu/parse/AssemblerState.h"
#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCExpr.h"

using namespace llvm;

namespace stinkytofu::sqtt {

/// The label branch prototypes are assembled with; never defined, never
/// printed (each copy names its own label).
static constexpr StringLiteral PrototypeLabel = ".Lsqtt_branch_prototype";

Expected<const InstructionFactory::Prototype *> InstructionFactory::prototype(StringRef Text) {
  auto It = Cache.find(Text);
  if (It == Cache.end()) {
    Expected<Instruction> I = createInstruction(M, Text);
    if (!I)
      return createStringError(inconvertibleErrorCode(),
                               "cannot assemble '" + Text + "': " + toString(I.takeError()));
    Prototype P{I->kind(),
                I->mnemonic().str(),
                I->operands(),
                SmallVector<MCInst, 1>(I->mcInsts().begin(), I->mcInsts().end()),
                I->facts(),
                Sizes.bytes(I->mcInsts())};
    It = Cache.try_emplace(Text, std::move(P)).first;
  }
  return &It->second;
}

Expected<const InstructionFactory::Prototype *>
InstructionFactory::branchPrototype(StringRef Mnemonic) {
  return prototype((Mnemonic + " " + PrototypeLabel).str());
}

Expected<Instruction> InstructionFactory::make(StringRef Text) {
  Expected<const Prototype *> P = prototype(Text);
  if (!P)
    return P.takeError();
  Instruction I((*P)->Kind, (*P)->Mnemonic, (*P)->Operands);
  I.setMC((*P)->Insts, (*P)->Facts);
  return I;
}

Expected<Instruction> InstructionFactory::makeBranch(StringRef Mnemonic, StringRef Label) {
  Expected<const Prototype *> POrErr = branchPrototype(Mnemonic);
  if (!POrErr)
    return POrErr.takeError();
  const Prototype &P = **POrErr;
  if (P.Insts.size() != 1 || P.Operands.size() != 1 || !P.Operands[0].isSymbol())
    return make((Mnemonic + " " + Label).str()); // not a plain label branch
  MCContext &Ctx = M.assembler().context();
  MCInst Inst = P.Insts[0];
  for (MCOperand &Op : Inst)
    if (Op.isExpr())
      Op = MCOperand::createExpr(MCSymbolRefExpr::create(Ctx.getOrCreateSymbol(Label), Ctx));
  Instruction I(P.Kind, P.Mnemonic, {Operand(OperandKind::Symbol, Label.str())});
  I.setMC({Inst}, P.Facts);
  return I;
}

Expected<unsigned> InstructionFactory::encodedSize(StringRef Text, bool Branch) {
  Expected<const Prototype *> P = Branch ? branchPrototype(Text) : prototype(Text);
  if (!P)
    return P.takeError();
  return (*P)->Size;
}

} // namespace stinkytofu::sqtt
