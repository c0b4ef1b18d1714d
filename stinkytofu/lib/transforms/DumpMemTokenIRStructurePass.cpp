//===- DumpMemTokenIRStructurePass.cpp - The LDS skeleton of a module -----===//
#include "stinkytofu/transforms/DumpMemTokenIRStructurePass.h"

#include "stinkytofu/hw/HardwareModel.h"
#include "stinkytofu/hw/WaitCounters.h"
#include "stinkytofu/ir/Modifier.h"
#include "stinkytofu/transforms/MemTokenConsistencyCheckPass.h"
#include "stinkytofu/transforms/RewriteSupport.h"
#include "llvm/ADT/StringExtras.h"

using namespace llvm;

namespace stinkytofu {

namespace {

class DumpMemTokenIRStructurePass final : public Pass {
public:
  explicit DumpMemTokenIRStructurePass(bool ToStdout) : ToStdout(ToStdout) {}
  StringRef name() const override { return "DumpMemTokenIRStructurePass"; }

  Expected<PreservedAnalyses> run(Module &M, AnalysisManager &, const PassScope &) override {
    raw_ostream &OS = ToStdout ? outs() : context().dumpStream();
    CounterModel Counters(M.target());
    for (const Function &F : M.functions()) {
      OS << "st.func @" << F.name() << " {\n";
      for (const BasicBlock &BB : F.blocks()) {
        OS << "  ^" << BB.name() << ":\n";
        for (const Instruction &I : BB.instructions())
          if (isStructural(Counters, I)) {
            OS << "    " << I.sourceText().trim();
            if (const auto *T = I.getModifier<MemTokenData>())
              OS << "  // memtoken [" << join(map_range(T->Tokens, [](int64_t V) {
                                                return std::to_string(V);
                                              }),
                                              ", ")
                 << "]";
            OS << "\n";
          }
        if (!BB.successors().empty()) {
          OS << "    -> ";
          ListSeparator Sep;
          for (const BasicBlock *S : BB.successors())
            OS << Sep << "^" << S->name();
          OS << "\n";
        }
      }
      OS << "}\n";
    }
    OS.flush();
    return PreservedAnalyses::all();
  }

private:
  static bool isStructural(const CounterModel &Counters, const Instruction &I) {
    if (isLdsAccess(Counters, I))
      return true;
    if (I.kind() != InstKind::Machine)
      return false;
    return HardwareModel::roleOf(I.mnemonic()) == InstRole::Barrier ||
           Counters.decodeWait(I.mcInsts().front(), I.mnemonic()).has_value();
  }

  bool ToStdout;
};

} // namespace

Expected<std::unique_ptr<Pass>> createDumpMemTokenIRStructurePass(const PassArguments &Args) {
  bool Stdout = false;
  if (Error E = parseFlagArguments(Args, {{"stdout", &Stdout}}))
    return std::move(E);
  return std::make_unique<DumpMemTokenIRStructurePass>(Stdout);
}

} // namespace stinkytofu
