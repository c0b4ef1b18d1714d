//===- HighVgprInput.cpp - Reading VGPRs 256 and up -----------------------===//
#include "HighVgprInput.h"
#include "stinkytofu/hw/HardwareModel.h"
#include "stinkytofu/hw/TargetInfo.h"
#include "stinkytofu/hw/VgprMsb.h"
#include "stinkytofu/ir/Module.h"
#include "stinkytofu/hw/VgprSpelling.h"
#include "stinkytofu/support/Diagnostics.h"
#include "llvm/MC/MCInstrInfo.h"

using namespace llvm;

namespace stinkytofu {

std::optional<std::string> textForAssembler(StringRef Text, const TargetInfo &TI) {
  if (!TI.hardware().hasHighVgprs())
    return std::nullopt;
  return padHighVgprsToLow(Text);
}

namespace {

/// Moves the MC operands of \p Inst that \p Text writes as VGPRs of 256 and
/// above to those registers (a tied operand with the one it is tied to).
Error raiseWrittenVgprs(StringRef Text, MCInst &Inst, VgprMsbCodec &Codec,
                        const TargetInfo &TI) {
  SmallVector<int, 8> Operands = Codec.operandsOfTokens(Inst, Text, /*Low=*/true);
  SmallVector<bool, 8> Moved(Inst.getNumOperands(), false);
  size_t K = 0;
  Error Err = Error::success();
  forEachVgprToken(Text, [&](const VgprToken &T) {
    int J = Operands[K++];
    if (T.First < vgprmsb::VgprsPerBank || Err)
      return;
    MCRegister High = J < 0 ? MCRegister()
                            : Codec.rebase(Inst.getOperand(J).getReg(),
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
  const MCInstrDesc &Desc = TI.instrInfo().get(Inst.getOpcode());
  for (unsigned J = 0; J < Inst.getNumOperands() && J < Desc.getNumOperands(); ++J) {
    int Tied = Desc.getOperandConstraint(J, MCOI::TIED_TO);
    if (Tied >= 0 && unsigned(Tied) < Inst.getNumOperands() && Moved[Tied] &&
        Inst.getOperand(J).isReg())
      Inst.getOperand(J).setReg(Inst.getOperand(Tied).getReg());
  }
  return Error::success();
}

} // namespace

Error restoreHighVgprs(Module &M, StringRef Original, StringRef ForMC) {
  const TargetInfo &TI = M.target();
  std::optional<VgprMsbCodec> Codec;
  for (Function &F : M.functions())
    for (BasicBlock &BB : F.blocks())
      for (Instruction &I : BB.instructions()) {
        StringRef Src = I.sourceText();
        if (Src.data() < ForMC.begin() || Src.data() + Src.size() > ForMC.end())
          continue;
        StringRef Own = Original.substr(Src.data() - ForMC.begin(), Src.size());
        if (Own == Src)
          continue;
        auto Fail = [&](const Twine &Message) {
          StringRef Line = Own.rtrim("\r\n");
          return sourceError(M.fileName(), I.location().Line, I.location().Column, Line,
                             Message);
        };
        if (I.kind() != InstKind::Machine || I.mcInsts().size() != 1)
          return Fail("VGPRs 256 and up are read in plain instructions only, not in a "
                      "macro invocation");
        I.setLazyStatement(M.save(Own), &M.assembler());
        if (!Codec)
          Codec.emplace(TI);
        MCInst Inst = I.mcInsts().front();
        if (Error E = raiseWrittenVgprs(Own, Inst, *Codec, TI))
          return Fail(toString(std::move(E)));
        I.setMC({Inst}, TI);
      }
  return Error::success();
}

} // namespace stinkytofu
