//===- WaitStaircase.cpp - One wait or a run of partial ones --------------===//
#include "WaitStaircase.h"

#include "stinkytofu/ir/BasicBlock.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

using namespace llvm;

namespace stinkytofu {

namespace {

/// How many operations each counter may have started since a point.
using Started = std::array<int, MaxWaitCounters>;

/// Adds what \p I starts to \p Count; false when its memory events are
/// unknown (no MC instruction), which ends the fold.
bool countStarted(const Instruction &I, const CounterModel &CM, Started &Count) {
  if (I.mcInsts().empty())
    return false;
  for (const MCInst &Inst : I.mcInsts()) {
    uint32_t Events = CM.classify(Inst, I.mnemonic()).Events;
    std::array<bool, MaxWaitCounters> Counters{};
    for (unsigned E = 0; E != NumWaitEvents; ++E)
      if (Events & eventBit(WaitEvent(E)))
        if (std::optional<unsigned> C = CM.counterOf(WaitEvent(E)))
          Counters[*C] = true;
    for (unsigned C = 0; C != MaxWaitCounters; ++C)
      Count[C] += Counters[C];
  }
  return true;
}

/// The single wait of \p I, if it is one.
std::optional<WaitCounts> singleWait(const Instruction &I, const CounterModel &CM) {
  if (I.mcInsts().size() != 1)
    return std::nullopt;
  return CM.decodeWait(I.mcInsts()[0], I.mnemonic());
}

} // namespace

Error foldWaitStaircases(ArrayRef<Instruction *> Inserted, const CounterModel &CM,
                         const BlockCycleModel &Cycles, WaitMaker Make) {
  // Each estimate simulates the block: a bounded run of candidates keeps
  // the fold linear in the block's waits.
  constexpr unsigned MaxCandidates = 16;
  DenseSet<const Instruction *> Pending(Inserted.begin(), Inserted.end());
  for (Instruction *First : Inserted) {
    if (!Pending.erase(First))
      continue; // folded into an earlier one
    std::optional<WaitCounts> Counts = singleWait(*First, CM);
    if (!Counts)
      continue;
    BasicBlock &BB = *First->parent();
    Instruction *Anchor = First;
    // The block's estimate starts with nothing in flight: a stronger wait
    // for operations of earlier blocks (a loop's previous trip) would look
    // free. Only operations started in the block before the first wait
    // are seen; the fold must wait for one of them on every counter it
    // tightens.
    Started Seen{};
    bool Known = true;
    for (auto It = BB.instructions().begin(); Known && &*It != First; ++It)
      Known = countStarted(*It, CM, Seen);
    if (!Known)
      continue;
    Started Count{};
    unsigned Tried = 0;
    for (auto It = std::next(First->getIterator()); It != BB.instructions().end();) {
      Instruction &I = *It++;
      std::optional<WaitCounts> Later;
      if (Pending.contains(&I))
        Later = singleWait(I, CM);
      if (!Later) {
        if (!countStarted(I, CM, Count))
          break;
        continue;
      }
      if (++Tried > MaxCandidates)
        break;
      WaitCounts Folded = *Counts;
      bool Implied = true;
      for (unsigned C = 0; C != CM.numCounters(); ++C)
        if (Later->waits(C)) {
          int N = Later->Count[C] - Count[C];
          bool Tightens = !Counts->waits(C) || N < Counts->Count[C];
          Implied &= N >= 0 && (!Tightens || Seen[C] > N);
          Folded.require(C, N);
        }
      if (!Implied || CM.spellWaits(Folded).size() != 1)
        continue;
      Expected<Instruction *> Stronger = Make(*Anchor, Folded);
      if (!Stronger)
        return Stronger.takeError();
      uint64_t Run = Cycles.estimate(BB, {*Stronger}).Cycles;
      uint64_t One = Cycles.estimate(BB, {Anchor, &I}).Cycles;
      if (One > Run) {
        (*Stronger)->eraseFromParent();
        continue;
      }
      // Folded: the stronger wait replaces the first, the later one goes
      // (the scan already stands after it).
      Pending.erase(&I);
      I.eraseFromParent();
      (*Stronger)->setLeadingText(Anchor->leadingText());
      (*Stronger)->setTrailingComment(Anchor->trailingComment().str());
      Anchor->setLeadingText("");
      Anchor->eraseFromParent();
      Anchor = *Stronger;
      Counts = Folded;
    }
  }
  return Error::success();
}

} // namespace stinkytofu
