//===- HazardGaps.cpp - What each hazard wait costs in cycles -------------===//
#include "stinkytofu/analysis/HazardGaps.h"

#include "stinkytofu/analysis/BlockCycleModel.h"
#include "stinkytofu/hw/TargetInfo.h"
#include "llvm/ADT/MapVector.h"

using namespace llvm;

namespace stinkytofu {

AnalysisKey HazardGapAnalysis::Key;

static bool isHazardWait(const Instruction &I) {
  return I.kind() == InstKind::Machine && HardwareModel::isHazardWait(I.mnemonic());
}

uint64_t HazardGaps::totalCycles() const {
  uint64_t Sum = 0;
  for (const HazardWaitCost &W : Waits)
    Sum += W.Cycles;
  return Sum;
}

HazardGaps HazardGapAnalysis::run(Function &F, AnalysisManager &) {
  HazardGaps G;
  BlockCycleModel Model(*F.parent());
  for (const BasicBlock &BB : F.blocks()) {
    std::optional<uint64_t> With;
    for (const Instruction &I : BB.instructions()) {
      if (!isHazardWait(I))
        continue;
      if (!With)
        With = Model.estimate(BB).Cycles;
      uint64_t Without = Model.estimate(BB, {&I}).Cycles;
      // Removing a wait never makes the in-order model slower, but a
      // delay it carried could land elsewhere: never report a gain.
      G.Waits.push_back({&I, &BB, *With > Without ? *With - Without : 0});
    }
  }
  return G;
}

void HazardGaps::print(const Function &F, bool Verbose, raw_ostream &OS) const {
  MapVector<StringRef, std::pair<unsigned, uint64_t>> ByMnemonic;
  for (const HazardWaitCost &W : Waits) {
    auto &[Count, Cycles] = ByMnemonic[W.Wait->mnemonic()];
    ++Count;
    Cycles += W.Cycles;
  }
  OS << "HazardGapAnalysisPass @" << F.name() << ": " << Waits.size() << " hazard waits cost "
     << totalCycles() << " cycles";
  if (!ByMnemonic.empty()) {
    OS << " (";
    bool First = true;
    for (const auto &[Mnemonic, CountCycles] : ByMnemonic) {
      OS << (First ? "" : ", ") << Mnemonic << " x" << CountCycles.first << ": "
         << CountCycles.second;
      First = false;
    }
    OS << ")";
  }
  OS << "\n";
  if (!Verbose)
    return;
  const TargetInfo &TI = F.parent()->target();
  for (const HazardWaitCost &W : Waits)
    OS << "  " << W.Block->name() << ": " << TI.printMC(W.Wait->mcInsts()[0]) << ": "
       << W.Cycles << " cycles\n";
}

} // namespace stinkytofu
