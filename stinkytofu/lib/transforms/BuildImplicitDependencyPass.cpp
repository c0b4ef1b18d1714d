//===- BuildImplicitDependencyPass.cpp - LDS memory tokens as dependences -===//
#include "stinkytofu/transforms/BuildImplicitDependencyPass.h"
#include "stinkytofu/hw/HardwareModel.h"
#include "stinkytofu/hw/PrintedInstruction.h"
#include "stinkytofu/hw/TargetInfo.h"
#include "stinkytofu/hw/WaitCounters.h"
#include "stinkytofu/ir/Modifier.h"
#include "stinkytofu/ir/Module.h"
#include "stinkytofu/support/Diagnostics.h"
#include "stinkytofu/transforms/MemTokenConsistencyCheckPass.h"

using namespace llvm;

namespace stinkytofu {
namespace {

/// A split barrier of every wave (`-1`), or a barrier that is not split.
bool synchronisesAllWaves(const TargetInfo &TI, const Instruction &I) {
  if (I.mcInsts().size() != 1)
    return false;
  PrintedInstruction P(TI.printMC(I.mcInsts().front()));
  return P.Operands.empty() || P.Operands.front() == "-1";
}

class BuildImplicitDependencyPass final : public Pass {
public:
  StringRef name() const override { return "StinkyBuildImplicitDependencyPass"; }

  Expected<PreservedAnalyses> run(Module &M, AnalysisManager &, const PassScope &) override {
    if (Error E = checkMemTokensConsistent(M, name()))
      return std::move(E);
    CounterModel Counters(M.target());
    bool Changed = false;
    for (Function &F : M.functions())
      for (BasicBlock &BB : F.blocks())
        for (Instruction &I : BB.instructions()) {
          const MemTokenData *Tokens = I.getModifier<MemTokenData>();
          if (!Tokens)
            continue;
          Expected<bool> Added = addDependences(M, Counters, I, Tokens->Tokens);
          if (!Added)
            return Added.takeError();
          Changed |= *Added;
        }
    return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
  }

private:
  Expected<bool> addDependences(const Module &M, const CounterModel &Counters, Instruction &I,
                                const std::vector<int64_t> &Tokens) {
    auto Fail = [&](const Twine &Why) {
      SourceLocation L = I.location();
      return sourceError(M.fileName(), L.Line, L.Column, I.sourceText().rtrim("\r\n"),
                         name() + ": " + Why);
    };
    if (Tokens.empty())
      return Fail("'mod.memtoken' names no token");
    std::vector<int64_t> Defs, Uses;
    InstRole Role = I.kind() == InstKind::Machine ? HardwareModel::roleOf(I.mnemonic().lower())
                                                  : InstRole::None;
    if (Role == InstRole::Barrier || Role == InstRole::BarrierWait) {
      if (!synchronisesAllWaves(M.target(), I))
        return false;
      Defs = Uses = Tokens;
    } else if (I.kind() == InstKind::Machine) {
      for (const MCInst &MI : I.mcInsts()) {
        MemoryAccess A = Counters.classify(MI, I.mnemonic().lower());
        if (A.WritesLds || A.has(WaitEvent::TensorLds) || A.has(WaitEvent::LdsDma))
          Defs = Tokens;
        if (A.ReadsLds)
          Uses = Tokens;
      }
    }
    if (Defs.empty() && Uses.empty())
      return Fail("a memory token on an instruction that neither accesses LDS nor is a "
                  "barrier");
    const auto *Old = I.getModifier<LdsDependenceData>();
    if (Old && Old->Defs == Defs && Old->Uses == Uses)
      return false;
    I.setModifier(std::make_unique<LdsDependenceData>(std::move(Defs), std::move(Uses)));
    return true;
  }
};

} // namespace

Expected<std::unique_ptr<Pass>>
createStinkyBuildImplicitDependencyPass(const PassArguments &Args) {
  return createArgumentlessPass<BuildImplicitDependencyPass>(Args);
}

} // namespace stinkytofu
