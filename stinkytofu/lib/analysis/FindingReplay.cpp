//===- FindingReplay.cpp - A wait finding replayed along one path ---------===//
#include "stinkytofu/analysis/FindingReplay.h"

#include "stinkytofu/hw/TargetInfo.h"
#include "stinkytofu/ir/BasicBlock.h"
#include "llvm/ADT/STLExtras.h"
#include <array>

using namespace llvm;

namespace stinkytofu {

namespace {

/// The operations in flight, per counter, oldest first.
class CounterQueues {
public:
  CounterQueues(const CounterModel &CM, const Instruction &Producer, unsigned Counter)
      : CM(CM), Producer(&Producer), Counter(Counter) {}

  /// Issues \p I; true when it changed a queue.
  bool issue(const Instruction &I) {
    bool Changed = false;
    if (&I == Producer) // the newest instance is the one the finding waits for
      for (Entry &E : Queues[Counter])
        E.IsProducer = false;
    for (const MCInst &Inst : I.mcInsts()) {
      if (std::optional<WaitCounts> W = CM.decodeWait(Inst, I.mnemonic())) {
        for (unsigned C = 0; C != CM.numCounters(); ++C)
          if (W->waits(C))
            Changed |= retire(C, unsigned(W->Count[C]));
        continue;
      }
      uint32_t Events = CM.classify(Inst, I.mnemonic()).Events;
      for (unsigned E = 0; E != NumWaitEvents; ++E)
        if (Events & eventBit(WaitEvent(E)))
          if (std::optional<unsigned> C = CM.counterOf(WaitEvent(E))) {
            Queues[*C].push_back({WaitEvent(E), &I == Producer && *C == Counter});
            Changed = true;
          }
    }
    // The callee waits at entry and before returning: stores may remain.
    if (I.facts().has(IF_Call))
      for (auto &Q : Queues) {
        size_t Before = Q.size();
        erase_if(Q, [](const Entry &E) { return E.Event != WaitEvent::VmemStore; });
        Changed |= Q.size() != Before;
      }
    // Several operations of the producer on its counter: the last stands for it.
    auto &Q = Queues[Counter];
    if (&I == Producer)
      for (Entry &E : drop_end(Q))
        E.IsProducer = false;
    return Changed;
  }

  void snapshot(ReplayStep &S) const {
    for (unsigned C = 0; C != CM.numCounters(); ++C)
      S.InFlight.push_back(Queues[C].size());
    S.ProducerYounger = producerYounger();
  }

  /// Operations younger than the producer on its counter; -1 when it is
  /// not in flight.
  int producerYounger() const {
    const auto &Q = Queues[Counter];
    auto It = find_if(Q, [](const Entry &E) { return E.IsProducer; });
    return It == Q.end() ? -1 : int(Q.end() - It - 1);
  }

  /// Whether the queue of \p C retires in issue order.
  bool inOrder(unsigned C) const {
    const auto &Q = Queues[C];
    return all_of(Q, [&](const Entry &E) { return E.Event == Q.front().Event && CM.inOrder(E.Event); });
  }

private:
  struct Entry {
    WaitEvent Event;
    bool IsProducer;
  };

  /// A wait leaving at most \p N operations of counter \p C in flight.
  bool retire(unsigned C, unsigned N) {
    auto &Q = Queues[C];
    if (Q.size() <= N)
      return false;
    if (N == 0 || inOrder(C)) {
      Q.erase(Q.begin(), Q.end() - N);
      return true;
    }
    // Out of order: any N may stay; the producer is assumed among them.
    size_t Drop = Q.size() - N;
    erase_if(Q, [&](const Entry &E) { return !E.IsProducer && Drop && Drop--; });
    return true;
  }

  const CounterModel &CM;
  const Instruction *Producer;
  unsigned Counter;
  std::array<SmallVector<Entry, 16>, MaxWaitCounters> Queues;
};

} // namespace

std::optional<FindingReplay> replayFinding(const BranchConditions &BC, const CounterModel &CM,
                                           const Function &F, const Instruction &Producer,
                                           const Instruction &Consumer, unsigned Counter) {
  std::optional<FeasiblePath> Path =
      findPathFromEntry(BC, F, Producer, Consumer, PendingOperation{&CM, Counter});
  if (!Path)
    return std::nullopt;
  FindingReplay R;
  R.Producer = &Producer;
  R.Consumer = &Consumer;
  R.Counter = Counter;
  CounterQueues Queues(CM, Producer, Counter);
  // The search ends at the first consumer after the producer's last issue
  // on the path; the replay stops at the same one.
  bool Issued = false;
  for (auto [K, BB] : enumerate(Path->Blocks)) {
    ReplayStep Entered;
    Entered.Block = BB;
    Entered.Taken = Path->Taken[K];
    Queues.snapshot(Entered);
    R.Steps.push_back(std::move(Entered));
    for (const Instruction &I : BB->instructions()) {
      if (Issued && &I == &Consumer && K + 1 == Path->Blocks.size()) {
        ReplayStep At;
        At.Inst = &I;
        Queues.snapshot(At);
        R.Real = At.ProducerYounger >= 0;
        R.Needed = R.Real && Queues.inOrder(Counter)
                       ? std::min(unsigned(At.ProducerYounger), CM.counterMax(Counter) - 1)
                       : 0;
        R.Steps.push_back(std::move(At));
        R.Path = std::move(*Path);
        return R;
      }
      Issued |= &I == &Producer;
      if (Queues.issue(I)) {
        ReplayStep S;
        S.Inst = &I;
        Queues.snapshot(S);
        R.Steps.push_back(std::move(S));
      }
    }
  }
  R.Path = std::move(*Path);
  return R; // the consumer not reached: not real
}

/// `line 12: s_waitcnt vmcnt(0)`
static std::string instructionLine(const TargetInfo &TI, const Instruction &I) {
  std::string Where = I.location().isValid() ? "line " + std::to_string(I.location().Line)
                                             : std::string("inserted");
  StringRef Source = I.sourceText().rtrim();
  if (StringRef Comment = I.trailingComment().trim(); !Comment.empty())
    Source = Source.take_front(Source.rfind(Comment));
  std::string Text = Source.trim().str();
  if (Text.empty() || I.isModified())
    for (const MCInst &Inst : I.mcInsts())
      Text += (Text.empty() ? "" : "; ") + StringRef(TI.printMC(Inst)).trim().str();
  return Where + ": " + Text;
}

void printReplay(raw_ostream &OS, const BranchConditions &BC, const CounterModel &CM,
                 const FindingReplay &R) {
  auto State = [&](const ReplayStep &S) {
    std::string Text;
    for (unsigned C = 0; C != S.InFlight.size(); ++C) {
      if (!S.InFlight[C])
        continue;
      Text += (Text.empty() ? "" : ", ") + CM.counterName(C).str() + " " +
              std::to_string(S.InFlight[C]);
      if (C == R.Counter && S.ProducerYounger >= 0)
        Text += " (producer, " + std::to_string(S.ProducerYounger) + " younger)";
    }
    return "[" + (Text.empty() ? std::string("idle") : Text) + "]";
  };
  const TargetInfo &TI = CM.target();
  OS << "  path " << describePath(BC, R.Path) << "\n";
  for (const ReplayStep &S : R.Steps) {
    if (S.Block) {
      OS << "  " << blockName(*S.Block);
      if (S.Taken)
        OS << " (" << BC.describe(*S.Taken) << ")";
      OS << " " << State(S) << "\n";
    } else {
      OS << (&S == &R.Steps.back() && S.Inst == R.Consumer ? "  > " : "    ") << instructionLine(TI, *S.Inst) << "  "
         << State(S) << "\n";
    }
  }
  std::string Counter = CM.counterName(R.Counter).str();
  std::string What = instructionLine(TI, *R.Producer);
  if (R.Real)
    OS << "  real: " << What << " is in flight at the consumer; " << Counter << "("
       << R.Needed << ") would be enough\n";
  else
    OS << "  not real: " << What << " has completed at the consumer\n";
}

} // namespace stinkytofu
