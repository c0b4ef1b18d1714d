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

/// The counters of vector memory operations and transfers into LDS. The
/// estimate prices them at LLVM's scheduling latency, a cache hit's (80
/// cycles on gfx90a), so a stronger wait for them looks free where a miss
/// would stall the work in between for hundreds of cycles: a fold
/// tightens them only across readers in a row, one right after each wait,
/// where at most those readers wait longer.
std::array<bool, MaxWaitCounters> vectorMemoryCounters(const CounterModel &CM) {
  std::array<bool, MaxWaitCounters> Counters{};
  for (WaitEvent E : {WaitEvent::VmemLoad, WaitEvent::VmemStore, WaitEvent::LdsDma,
                      WaitEvent::TensorLds, WaitEvent::AsyncLds})
    if (std::optional<unsigned> C = CM.counterOf(E))
      Counters[*C] = true;
  return Counters;
}

} // namespace

Error foldWaitStaircases(ArrayRef<Instruction *> Inserted, const CounterModel &CM,
                         const BlockCycleModel &Cycles, WaitMaker Make) {
  // Each estimate simulates the block: a bounded run of candidates keeps
  // the fold linear in the block's waits.
  constexpr unsigned MaxCandidates = 16;
  DenseSet<const Instruction *> Pending(Inserted.begin(), Inserted.end());
  const std::array<bool, MaxWaitCounters> VectorMemory = vectorMemoryCounters(CM);
  for (Instruction *First : Inserted) {
    if (!Pending.erase(First))
      continue; // folded into an earlier one
    std::optional<WaitCounts> Counts = singleWait(*First, CM);
    if (!Counts)
      continue;
    BasicBlock &BB = *First->parent();
    Instruction *Anchor = First;
    // The block's estimate starts with nothing in flight: a stronger wait
    // for operations of earlier blocks would look free. A block that
    // branches back to itself (a loop's body) is estimated on its second
    // trip, with the operations of the first in flight. Only operations
    // the estimate sees, started in the block before the first wait (or
    // on the previous trip), count; the fold must wait for one of them on
    // every counter it tightens.
    const bool Loops = is_contained(BB.successors(), &BB);
    Started Seen{};
    bool Known = true;
    for (auto It = BB.instructions().begin(); Known && &*It != First; ++It)
      Known = countStarted(*It, CM, Seen);
    for (auto It = BB.instructions().begin(); Loops && Known && It != BB.instructions().end(); ++It)
      Known = countStarted(*It, CM, Seen);
    if (!Known)
      continue;
    auto Estimate = [&](ArrayRef<const Instruction *> Without) {
      return Loops ? Cycles.estimateSecondTrip(BB, Without).Cycles
                   : Cycles.estimate(BB, Without).Cycles;
    };
    Started Count{};
    unsigned Tried = 0;
    // Whether each instruction since the first wait is a wait of the run
    // or the one right after it.
    bool InARow = true;
    unsigned SinceWait = 0;
    for (auto It = std::next(First->getIterator()); It != BB.instructions().end();) {
      Instruction &I = *It++;
      std::optional<WaitCounts> Later;
      if (Pending.contains(&I))
        Later = singleWait(I, CM);
      if (!Later) {
        if (!countStarted(I, CM, Count))
          break;
        InARow &= ++SinceWait <= 1;
        continue;
      }
      SinceWait = 0;
      if (++Tried > MaxCandidates)
        break;
      WaitCounts Folded = *Counts;
      bool Implied = true;
      for (unsigned C = 0; C != CM.numCounters(); ++C)
        if (Later->waits(C)) {
          int N = Later->Count[C] - Count[C];
          bool Tightens = !Counts->waits(C) || N < Counts->Count[C];
          Implied &= N >= 0 && (!Tightens || (Seen[C] > N && (InARow || !VectorMemory[C])));
          Folded.require(C, N);
        }
      if (!Implied || CM.spellWaits(Folded).size() != 1)
        continue;
      Expected<Instruction *> Stronger = Make(*Anchor, Folded);
      if (!Stronger)
        return Stronger.takeError();
      uint64_t Run = Estimate({*Stronger});
      uint64_t One = Estimate({Anchor, &I});
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
