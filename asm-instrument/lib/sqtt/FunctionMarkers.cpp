//===- FunctionMarkers.cpp - Entry and exit markers of functions ----------===//
#include "asm-instrument/sqtt/FunctionMarkers.h"
#include "asm-instrument/sqtt/MarkerEncoding.h"
#include "stinkytofu/hw/HardwareModel.h"
#include "stinkytofu/hw/InstTiming.h"
#include "stinkytofu/hw/WaitCounters.h"
#include "stinkytofu/ir/BranchVocabulary.h"
#include "stinkytofu/ir/Module.h"

using namespace llvm;

namespace stinkytofu::sqtt {

uint64_t functionSize(const Function &F, CostMode Mode) {
  const TargetInfo &TI = F.parent()->target();
  // The weight of an instruction is its class's, the class MC's flags give.
  InstTiming Timing(TI);
  const bool Weighted = Mode == CostMode::WeightedCost;
  uint64_t Size = 0;
  for (const BasicBlock &BB : F.blocks())
    for (const Instruction &I : BB.instructions()) {
      switch (I.kind()) {
      case InstKind::Pseudo:
        continue;
      case InstKind::Opaque:
        Size += 1;
        continue;
      case InstKind::Machine:
      case InstKind::MacroCall:
        // A machine instruction whose MC is stale still weighs its mnemonic.
        if (I.kind() == InstKind::Machine && I.mcInsts().empty()) {
          Size += Weighted ? TI.hardware().classify(I.mnemonic()).CostWeight : 1;
          continue;
        }
        for (const MCInst &MI : I.mcInsts())
          Size += Weighted ? Timing.classOf(MI.getOpcode()).CostWeight : 1;
        continue;
      }
    }
  return Size;
}

InsertPoint functionEntryPoint(Function &F) {
  BasicBlock &Entry = F.blocks().front();
  InsertPoint P = InsertPoint::atStart(Entry);
  if (F.isEntry())
    return P;
  CounterModel CM(F.parent()->target());
  for (Instruction &I : Entry.instructions()) {
    if (I.kind() == InstKind::Pseudo)
      continue;
    if (I.kind() != InstKind::Machine || I.mcInsts().size() != 1 ||
        !CM.decodeWait(I.mcInsts().front(), I.mnemonic()))
      break;
    P = InsertPoint::after(I);
  }
  return P;
}

std::vector<MarkerSite> functionSites(Function &F, unsigned Handle) {
  std::vector<MarkerSite> Sites;
  if (F.blocks().empty())
    return Sites;
  std::string Name = F.name().str();
  BasicBlock &Entry = F.blocks().front();
  MarkerSite In;
  In.Kind = SiteKind::FunctionEntry;
  In.Rank = SiteRank::FunctionEntry;
  In.Point = functionEntryPoint(F);
  In.Source = MarkerSite::IdSource::Ledger;
  In.Handle = Handle;
  In.Flags = FlagEnter;
  In.Origin = Entry.empty() ? nullptr : &Entry.instructions().front();
  In.What = "entry of function '" + Name + "'";
  In.AllOrNothing = true;
  Sites.push_back(In);
  for (BasicBlock &BB : F.blocks())
    for (Instruction &I : BB.instructions()) {
      if (!isReturn(I))
        continue;
      MarkerSite Out;
      Out.Kind = SiteKind::FunctionExit;
      Out.Rank = SiteRank::FunctionExit;
      Out.Point = InsertPoint::before(I);
      Out.Source = MarkerSite::IdSource::None;
      Out.Handle = Handle;
      Out.CountsTowardHandle = true;
      Out.Flags = FlagExitPrev;
      Out.Origin = &I;
      Out.What = "exit of function '" + Name + "'";
      Out.AllOrNothing = true;
      Sites.push_back(Out);
    }
  return Sites;
}

} // namespace stinkytofu::sqtt
