//===- MemoryMarkers.cpp - Point markers after groups of memory ops -------===//
#include "asm-instrument/sqtt/MemoryMarkers.h"
#include "stinkytofu/hw/TargetInfo.h"
#include "stinkytofu/ir/Module.h"

using namespace llvm;

namespace stinkytofu::sqtt {

MemOpKind classifyMemoryName(StringRef Name) {
  std::string Lower = Name.lower();
  StringRef N = Lower;
  if (!(N.starts_with("global_") || N.starts_with("buffer_") || N.starts_with("flat_") ||
        N.starts_with("tbuffer_")))
    return MemOpKind::None;
  // Cache maintenance (buffer_wbinvl1, buffer_gl0_inv, global_inv, global_wb)
  // moves no data.
  if (N.contains("atomic") || N.contains("store"))
    return MemOpKind::Store;
  if (N.contains("load"))
    return MemOpKind::Load;
  return MemOpKind::None;
}

MemOpKind classifyMemoryOp(const Instruction &I, const TargetInfo &TI) {
  switch (I.kind()) {
  case InstKind::Machine:
    return classifyMemoryName(I.mnemonic());
  case InstKind::MacroCall: {
    MemOpKind K = MemOpKind::None;
    for (const MCInst &MI : I.mcInsts()) {
      MemOpKind Op = classifyMemoryName(TI.instrInfo().getName(MI.getOpcode()));
      if (Op == MemOpKind::Store)
        return MemOpKind::Store;
      if (Op == MemOpKind::Load)
        K = MemOpKind::Load;
    }
    return K;
  }
  default:
    return MemOpKind::None;
  }
}

std::vector<MemoryGroup> groupMemoryOps(ArrayRef<MemOpKind> Stream, unsigned Chunk,
                                        unsigned MaxGap) {
  std::vector<MemoryGroup> Groups;
  MemOpKind RunKind = MemOpKind::None;
  std::optional<size_t> LastOp;
  unsigned RunSize = 0, Gap = 0;
  auto Flush = [&] {
    if (RunSize)
      Groups.push_back({*LastOp, RunKind});
    RunSize = 0;
  };
  for (size_t I = 0; I < Stream.size(); ++I) {
    MemOpKind K = Stream[I];
    if (K == MemOpKind::None) {
      Gap += LastOp.has_value();
      continue;
    }
    if (K != RunKind || Gap > MaxGap)
      Flush();
    RunKind = K;
    LastOp = I;
    Gap = 0;
    if (++RunSize == Chunk)
      Flush();
  }
  Flush();
  return Groups;
}

std::vector<MarkerSite> memorySites(Function &F, unsigned Chunk, unsigned MaxGap) {
  const TargetInfo &TI = F.parent()->target();
  std::vector<MarkerSite> Sites;
  for (BasicBlock &BB : F.blocks()) {
    std::vector<Instruction *> Insts;
    std::vector<MemOpKind> Stream;
    for (Instruction &I : BB.instructions()) {
      if (I.kind() == InstKind::Pseudo)
        continue; // not an instruction of the program
      Insts.push_back(&I);
      Stream.push_back(classifyMemoryOp(I, TI));
    }
    for (const MemoryGroup &G : groupMemoryOps(Stream, Chunk, MaxGap)) {
      MarkerSite S;
      S.Kind = SiteKind::Memory;
      S.Rank = SiteRank::AfterPrevious;
      S.Point = InsertPoint::after(*Insts[G.Last]);
      S.Source = MarkerSite::IdSource::System;
      S.System = G.Kind == MemOpKind::Load ? SystemMarker::VmemLoad : SystemMarker::VmemStore;
      S.Origin = Insts[G.Last];
      S.What = G.Kind == MemOpKind::Load ? "memory load group" : "memory store group";
      Sites.push_back(S);
    }
  }
  return Sites;
}

} // namespace stinkytofu::sqtt
