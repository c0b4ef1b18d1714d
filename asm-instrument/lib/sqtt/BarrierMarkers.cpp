//===- BarrierMarkers.cpp - Point markers at workgroup barriers -----------===//
#include "asm-instrument/sqtt/BarrierMarkers.h"
#include "stinkytofu/hw/TargetInfo.h"
#include "stinkytofu/ir/Module.h"

using namespace llvm;

namespace stinkytofu::sqtt {

static bool isBarrierOpcode(const Instruction &I) {
  const Function *F = I.parent() ? I.parent()->parent() : nullptr;
  if (!F || !F->parent())
    return true; // no target to ask: let the mnemonic decide
  return F->parent()->target().instrInfo().getName(I.facts().Opcode).starts_with("S_BARRIER");
}

BarrierKind classifyBarrier(const Instruction &I) {
  // Barriers are MC's S_BARRIER* opcodes: the rest need no mnemonic.
  if (I.kind() != InstKind::Machine || !isBarrierOpcode(I))
    return BarrierKind::None;
  StringRef M = I.mnemonic();
  if (M == "s_barrier")
    return BarrierKind::Full;
  if (M.starts_with("s_barrier_signal"))
    return BarrierKind::Signal;
  if (M == "s_barrier_wait")
    return BarrierKind::Wait;
  return BarrierKind::None;
}

static MarkerSite site(InsertPoint P, SiteRank Rank, SystemMarker S, const Instruction &Origin,
                       StringRef What) {
  MarkerSite M;
  M.Kind = SiteKind::Barrier;
  M.Rank = Rank;
  M.Point = P;
  M.Source = MarkerSite::IdSource::System;
  M.System = S;
  M.Origin = &Origin;
  M.What = What.str();
  return M;
}

std::vector<MarkerSite> barrierSites(Function &F) {
  std::vector<MarkerSite> Sites;
  for (BasicBlock &BB : F.blocks()) {
    Instruction *Signal = nullptr;
    auto FlushSignal = [&] {
      if (Signal)
        Sites.push_back(site(InsertPoint::after(*Signal), SiteRank::AfterPrevious,
                             SystemMarker::BarrierSignal, *Signal, "barrier signal"));
      Signal = nullptr;
    };
    for (Instruction &I : BB.instructions()) {
      BarrierKind K = classifyBarrier(I);
      if (Signal && K == BarrierKind::Wait) {
        // signal + wait back to back: one barrier marker between them.
        Sites.push_back(site(InsertPoint::before(I), SiteRank::BeforeNext,
                             SystemMarker::Barrier, I, "barrier signal+wait"));
        Signal = nullptr;
        continue;
      }
      FlushSignal();
      if (K == BarrierKind::Signal)
        Signal = &I;
      else if (K == BarrierKind::Wait)
        Sites.push_back(site(InsertPoint::before(I), SiteRank::BeforeNext,
                             SystemMarker::BarrierWait, I, "barrier wait"));
      else if (K == BarrierKind::Full)
        Sites.push_back(site(InsertPoint::before(I), SiteRank::BeforeNext,
                             SystemMarker::Barrier, I, "barrier"));
    }
    FlushSignal();
  }
  return Sites;
}

} // namespace stinkytofu::sqtt
