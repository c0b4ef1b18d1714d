//===- VgprMsbSupport.cpp - What both VGPR MSB passes share ---------------===//
#include "VgprMsbSupport.h"
#include "stinkytofu/hw/HardwareModel.h"
#include "stinkytofu/pass/Pass.h"
#include "stinkytofu/transforms/VgprMsbPasses.h"
#include "llvm/ADT/STLExtras.h"
#include "stinkytofu/support/Diagnostics.h"

using namespace llvm;

namespace stinkytofu {

VgprMsbMode VgprMsbOptions::modeFor(const TargetInfo &TI) const {
  VgprMsbMode Target = TI.hardware().vgprMsbMode();
  // A target without high VGPRs has no s_set_vgpr_msb to write.
  if (Target == VgprMsbMode::None)
    return VgprMsbMode::None;
  return Mode.value_or(Target);
}

Expected<VgprMsbOptions> parseVgprMsbOptions(const PassArguments &Args, StringRef PassName) {
  VgprMsbOptions O;
  for (const auto &[Key, Value] : Args) {
    if (Key == "mode") {
      O.Mode = parseVgprMsbMode(Value);
      if (!O.Mode)
        return createStringError(inconvertibleErrorCode(),
                                 PassName + ": mode must be none, msb8 or msb16, not '" +
                                     Value + "'");
    } else if (Key == "stats" && Value.empty()) {
      O.Stats = true;
    } else {
      return createStringError(inconvertibleErrorCode(),
                               PassName + ": unknown argument '" + Key +
                                   "' (takes mode=none|msb8|msb16, stats)");
    }
  }
  return O;
}

bool isSetVgprMsb(const Instruction &I, const VgprMsbCodec &Codec, int64_t *Imm) {
  if (I.kind() != InstKind::Machine || !Codec.setVgprMsbOpcode())
    return false;
  ArrayRef<MCInst> MC = I.mcInsts();
  if (MC.size() != 1 || MC[0].getOpcode() != Codec.setVgprMsbOpcode() ||
      MC[0].getNumOperands() != 1 || !MC[0].getOperand(0).isImm())
    return false;
  if (Imm)
    *Imm = MC[0].getOperand(0).getImm();
  return true;
}

void respellVgprs(Module &M, Instruction &I, MCInst Inst, bool WithNote,
                  function_ref<std::optional<std::string>(const VgprToken &)> Fn) {
  const TargetInfo &TI = M.target();
  if (!I.isModified() && M.hasAssembler()) {
    std::string New = rewriteVgprTokens(I.sourceText(), WithNote, Fn);
    if (New != I.sourceText())
      I.setLazyStatement(M.save(New), &M.assembler());
    I.setMC({std::move(Inst)}, TI);
    return;
  }
  std::vector<Operand> Ops = I.operands();
  bool Changed = false;
  for (Operand &Op : Ops) {
    if (!Op.isRegister() || Op.regFile() != RegFile::VGPR)
      continue;
    std::string New = rewriteVgprTokens(Op.spelling(), WithNote, Fn);
    if (New == Op.spelling())
      continue;
    // The typed register is the logical one the token now names or named.
    std::optional<unsigned> First = Op.firstReg();
    forEachVgprToken(New, [&](const VgprToken &T) {
      First = T.NoteFirst ? *T.NoteFirst : T.First;
    });
    Operand Respelled(Op.kind(), New);
    Respelled.setRegister(Op.regFile(), First, Op.regCount(), Op.isSymbolicRegister());
    Respelled.setSourceModifiers(Op.sourceModifiers(), Op.half());
    if (Op.immediate())
      Respelled.setImmediate(*Op.immediate());
    Op = std::move(Respelled);
    Changed = true;
  }
  if (Changed)
    I.setOperands(std::move(Ops));
  I.setMC({std::move(Inst)}, TI);
}

Error withLogicalVgprs(Module &M, AnalysisManager &AM, StinkyTofuContext &Ctx,
                       function_ref<Error()> Work) {
  if (!M.target().hardware().hasHighVgprs())
    return Work();
  VgprMsbCodec Codec(M.target());
  bool Encoded = any_of(M.functions(), [&](const Function &F) {
    return any_of(F.blocks(), [&](const BasicBlock &BB) {
      return any_of(BB.instructions(),
                    [&](const Instruction &I) { return isSetVgprMsb(I, Codec); });
    });
  });
  if (!Encoded)
    return Work();
  auto RunPass = [&](Expected<std::unique_ptr<Pass>> P) -> Error {
    if (!P)
      return P.takeError();
    (*P)->setContext(Ctx);
    Expected<PreservedAnalyses> PA = (*P)->run(M, AM, PassScope());
    if (!PA)
      return PA.takeError();
    for (Function &F : M.functions())
      AM.invalidate(F, *PA);
    return Error::success();
  };
  if (Error E = RunPass(createRaiseVgprMsbPass({})))
    return E;
  if (Error E = Work())
    return E;
  return RunPass(createInsertVgprMsbPass({}));
}

Error errorAt(const Module &M, const Instruction &I, const Twine &Message) {
  return sourceError(M.fileName(), I.location().Line, I.location().Column,
                     I.sourceText().rtrim("\r\n"), Message);
}

} // namespace stinkytofu
