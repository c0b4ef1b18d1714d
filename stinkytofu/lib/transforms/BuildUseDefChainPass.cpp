//===- BuildUseDefChainPass.cpp - Print use-def chains --------------------===//
#include "stinkytofu/transforms/BuildUseDefChainPass.h"
#include "stinkytofu/analysis/ReachingDefs.h"
#include "stinkytofu/hw/TargetInfo.h"
#include "stinkytofu/transforms/CFGBuilderPass.h"
#include "stinkytofu/transforms/RewriteSupport.h"

using namespace llvm;

namespace stinkytofu {

static void printWhere(const Instruction &I, raw_ostream &OS) {
  if (I.location().Line)
    OS << "line " << I.location().Line;
  else
    OS << "new " << I.mnemonic();
}

void printUseDefChains(const Function &F, raw_ostream &OS) {
  const TargetInfo &TI = F.parent()->target();
  ReachingDefs RD(TI, {});
  OS << "use-def chains of @" << F.name() << ":\n";
  for (const BasicBlock &BB : F.blocks())
    for (const Instruction &I : BB.instructions()) {
      if (I.facts().Uses.empty())
        continue;
      OS << "  ";
      printWhere(I, OS);
      OS << ": " << I.mnemonic() << "\n";
      for (MCRegister Use : I.facts().Uses)
        for (MCRegister R : TI.covered32(Use)) {
          ReachingDefs::Result Defs = RD.before(I, R);
          OS << "    " << TI.asmName(R) << " <-";
          for (const Instruction *D : Defs.Defs) {
            OS << ' ';
            printWhere(*D, OS);
          }
          if (Defs.FromOutside)
            OS << " entry";
          OS << "\n";
        }
    }
}

namespace {

class BuildUseDefChainPass final : public Pass {
public:
  StringRef name() const override { return "BuildUseDefChainPass"; }
  Expected<PreservedAnalyses> run(Module &M, AnalysisManager &, const PassScope &) override {
    for (Function &F : M.functions()) {
      if (!F.hasValidCFG())
        buildCFG(F);
      printUseDefChains(F, context().dumpStream());
    }
    // Building a CFG changes no instruction; analyses over the old (absent)
    // edges were refused anyway.
    return PreservedAnalyses::all();
  }
};

} // namespace

Expected<std::unique_ptr<Pass>> createBuildUseDefChainPass(const PassArguments &Args) {
  bool IncludePseudo = false, NoClearExisting = false;
  if (Error E = parseFlagArguments(
          Args, {{"includePseudo", &IncludePseudo}, {"noClearExisting", &NoClearExisting}}))
    return std::move(E);
  return std::make_unique<BuildUseDefChainPass>();
}

} // namespace stinkytofu
