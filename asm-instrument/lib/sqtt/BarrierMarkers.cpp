//===- BarrierMarkers.cpp - Point markers at workgroup barriers -----------===//
#include "asm-instrument/sqtt/BarrierMarkers.h"

using namespace llvm;

namespace stinkytofu::sqtt {

BarrierKind classifyBarrier(const Instruction &I) {
  if (I.kind() != InstKind::Machine)
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
