//===- HighVgprInput.cpp - Reading VGPRs 256 and up -----------------------===//
#include "HighVgprInput.h"
#include "stinkytofu/hw/HardwareModel.h"
#include "stinkytofu/hw/TargetInfo.h"
#include "stinkytofu/hw/VgprMsb.h"
#include "stinkytofu/hw/VgprSpelling.h"
#include "stinkytofu/ir/Module.h"
#include "stinkytofu/support/Diagnostics.h"

using namespace llvm;

namespace stinkytofu {

std::optional<std::string> textForAssembler(StringRef Text, const TargetInfo &TI) {
  if (!TI.hardware().hasHighVgprs())
    return std::nullopt;
  return padHighVgprsToLow(Text);
}

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
        if (Error E = Codec->raiseWritten(Inst, Own))
          return Fail(toString(std::move(E)));
        I.setMC({Inst}, TI);
      }
  return Error::success();
}

} // namespace stinkytofu
