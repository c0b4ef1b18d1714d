//===- MemoryMarkers.cpp - Point markers after groups of memory ops -------===//
#include "asm-instrument/sqtt/MemoryMarkers.h"
#include "stinkytofu/hw/TargetInfo.h"
#include "stinkytofu/ir/Module.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include <string_view>

using namespace llvm;

namespace stinkytofu::sqtt {

MemOpKind classifyMemoryName(StringRef Name) {
  // Called for every instruction, most of them s_ or v_: the first letter
  // rules them out.
  char First = Name.empty() ? 0 : toLower(Name.front());
  if (First != 'g' && First != 'b' && First != 'f' && First != 't')
    return MemOpKind::None;
  SmallString<64> Lower(Name);
  for (char &C : Lower)
    C = toLower(C);
  StringRef N = Lower;
  if (!(N.consume_front("global_") || N.consume_front("buffer_") || N.consume_front("flat_") ||
        N.consume_front("tbuffer_")))
    return MemOpKind::None;
  // Searched after the prefix, which holds none of these words (nor does one
  // run across its underscore), by std::string_view: it looks for a word's
  // first letter with memchr, where StringRef compares at every offset of a
  // short text and builds a table for a longer one.
  std::string_view Rest = N;
  auto Contains = [&](std::string_view Word) { return Rest.find(Word) != Rest.npos; };
  // Cache maintenance (buffer_wbinvl1, buffer_gl0_inv, global_inv, global_wb)
  // moves no data.
  if (Contains("atomic") || Contains("store"))
    return MemOpKind::Store;
  if (Contains("load"))
    return MemOpKind::Load;
  return MemOpKind::None;
}

MemOpKind classifyMemoryOp(const Instruction &I, const TargetInfo &TI) {
  switch (I.kind()) {
  case InstKind::Machine:
    // MC flags every data move to or from memory: most instructions are
    // ruled out without splitting their statement for the mnemonic.
    if (!I.facts().has(IF_MayLoad) && !I.facts().has(IF_MayStore))
      return MemOpKind::None;
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
  // One stream for all blocks, not two vectors grown anew per block.
  std::vector<Instruction *> Insts;
  std::vector<MemOpKind> Stream;
  for (BasicBlock &BB : F.blocks()) {
    Insts.clear();
    Stream.clear();
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
      Sites.push_back(std::move(S));
    }
  }
  return Sites;
}

} // namespace stinkytofu::sqtt
