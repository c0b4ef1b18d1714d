//===- MemTokenConsistencyCheckPass.cpp - Memory tokens all or none -------===//
#include "stinkytofu/transforms/MemTokenConsistencyCheckPass.h"

#include "stinkytofu/hw/WaitCounters.h"
#include "stinkytofu/ir/Modifier.h"
#include "stinkytofu/support/Diagnostics.h"

using namespace llvm;

namespace stinkytofu {

bool isLdsAccess(const CounterModel &Counters, const Instruction &I) {
  if (I.kind() != InstKind::Machine && I.kind() != InstKind::MacroCall)
    return false;
  for (const MCInst &MI : I.mcInsts()) {
    MemoryAccess A = Counters.classify(MI, I.mnemonic());
    if ((A.has(WaitEvent::Lds) && (A.ReadsLds || A.WritesLds)) || A.has(WaitEvent::TensorLds))
      return true;
  }
  return false;
}

Error checkMemTokensConsistent(const Module &M, StringRef PassName) {
  CounterModel Counters(M.target());
  for (const Function &F : M.functions())
    for (const BasicBlock &BB : F.blocks()) {
      const Instruction *Tagged = nullptr, *Untagged = nullptr;
      for (const Instruction &I : BB.instructions()) {
        if (!isLdsAccess(Counters, I))
          continue;
        const Instruction *&First = I.getModifier<MemTokenData>() ? Tagged : Untagged;
        if (!First)
          First = &I;
      }
      if (Tagged && Untagged) {
        SourceLocation L = Untagged->location();
        return sourceError(M.fileName(), L.Line, L.Column, Untagged->sourceText().rtrim("\r\n"),
                           PassName + ": block '" + BB.name() +
                               "' has LDS accesses with a memory token ('" +
                               Tagged->sourceText().trim() +
                               "') and without one (this one): tag all or none");
      }
    }
  return Error::success();
}

namespace {

class MemTokenConsistencyCheckPass final : public Pass {
public:
  StringRef name() const override { return "MemTokenConsistencyCheckPass"; }

  Expected<PreservedAnalyses> run(Module &M, AnalysisManager &, const PassScope &) override {
    if (Error E = checkMemTokensConsistent(M, name()))
      return std::move(E);
    return PreservedAnalyses::all();
  }
};

} // namespace

Expected<std::unique_ptr<Pass>> createMemTokenConsistencyCheckPass(const PassArguments &Args) {
  return createArgumentlessPass<MemTokenConsistencyCheckPass>(Args);
}

} // namespace stinkytofu
