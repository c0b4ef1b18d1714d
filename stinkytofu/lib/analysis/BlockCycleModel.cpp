//===- BlockCycleModel.cpp - In-order issue model of one basic block ------===//
#include "stinkytofu/analysis/BlockCycleModel.h"

#include "stinkytofu/analysis/DepCtrHazards.h"
#include "stinkytofu/hw/TargetInfo.h"
#include "stinkytofu/ir/BasicBlock.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Allocator.h"
#include <algorithm>
#include <deque>

using namespace llvm;

namespace stinkytofu {

StringRef stallCauseName(StallCause C) {
  static constexpr StringRef Names[NumStallCauses] = {"dependency", "memory-wait",
                                                      "hazard-wait", "matrix-pipe"};
  return Names[unsigned(C)];
}

uint64_t BlockCycles::stalls() const {
  uint64_t Sum = 0;
  for (uint64_t S : Stalls)
    Sum += S;
  return Sum;
}

struct BlockCycleModel::Described {
  InstTimes T;
  /// Whether the rest is there: the dependence graph asks only for T.
  bool Complete = false;
  InstRole Role{};
  /// Whether it has MC instructions the model reads; the rest only for
  /// those.
  bool HasMC = false;
  /// The wait it is.
  std::optional<WaitCounts> Wait;
  /// The counters its memory access counts on, each once.
  SmallVector<unsigned, 3> Bumped;
  /// The register units of the registers it reads and writes, register by
  /// register.
  SmallVector<unsigned, 8> UseUnits, DefUnits;
  /// Whether it writes an SGPR or VCC, and VCC.
  bool WritesSgpr = false, WritesVcc = false;
  /// Whether its class issues to the VALU (matrix products included), is
  /// TRANS, is SALU.
  bool Valu = false, Trans = false, Salu = false;
};

struct BlockCycleModel::DescriptionCache {
  SpecificBumpPtrAllocator<Described> Descriptions;
  DenseMap<uint64_t, Described *> ByStamp;
};

BlockCycleModel::BlockCycleModel(const Module &M)
    : Timing(M.target()), Counters(std::make_unique<CounterModel>(M.target())),
      Vcc(M.target().findRegister("VCC")), Cache(std::make_unique<DescriptionCache>()) {}
BlockCycleModel::~BlockCycleModel() = default;

InstTimes BlockCycleModel::timesOf(const Instruction &I) const { return entryOf(I).T; }

BlockCycleModel::Described &BlockCycleModel::entryOf(const Instruction &I) const {
  Described *&Slot = Cache->ByStamp[I.stamp()];
  if (Slot)
    return *Slot;
  Slot = new (Cache->Descriptions.Allocate()) Described();
  Described &D = *Slot;
  D.T = Timing.times(I.mcInsts(), I.mnemonic());
  if (unsigned Issue = I.issueCyclesOverride())
    D.T.Issue = Issue;
  if (unsigned Latency = I.latencyCyclesOverride())
    D.T.Latency = Latency;
  return D;
}

const BlockCycleModel::Described &BlockCycleModel::describe(const Instruction &I) const {
  Described &D = entryOf(I);
  if (D.Complete)
    return D;
  D.Complete = true;
  D.Role = HardwareModel::roleOf(I.mnemonic());
  D.HasMC = !I.mcInsts().empty() && D.T.Class && I.kind() != InstKind::Opaque;
  if (!D.HasMC)
    return D;
  StringRef Class = D.T.Class->Name;
  D.Valu = Class == "VALU" || Class == "TRANS" || Class == "MFMA" || Class == "WMMA";
  D.Trans = Class == "TRANS";
  D.Salu = Class == "SALU";
  const MCInst &First = I.mcInsts()[0];
  D.Wait = Counters->decodeWait(First, I.mnemonic());
  MemoryAccess Access = Counters->classify(First, I.mnemonic());
  for (unsigned E = 0; E < NumWaitEvents; ++E)
    if (Access.has(WaitEvent(E)))
      if (std::optional<unsigned> C = Counters->counterOf(WaitEvent(E)))
        if (!is_contained(D.Bumped, *C))
          D.Bumped.push_back(*C);
  const TargetInfo &TI = target();
  const InstrFacts &Facts = I.facts();
  for (MCRegister Reg : Facts.Uses)
    for (MCRegUnit Unit : TI.regInfo().regunits(Reg))
      D.UseUnits.push_back(unsigned(Unit));
  for (MCRegister Reg : Facts.Defs) {
    for (MCRegUnit Unit : TI.regInfo().regunits(Reg))
      D.DefUnits.push_back(unsigned(Unit));
    D.WritesSgpr |= TI.classOf(Reg) == RegClass::SGPR;
    D.WritesVcc |= Vcc && TI.regInfo().regsOverlap(Reg, Vcc);
  }
  return D;
}

namespace {

/// `name(value)` operands of an instruction as MC prints it
/// (`s_delay_alu instid0(VALU_DEP_1) | instskip(NEXT) | instid1(SALU_CYCLE_2)`).
std::optional<StringRef> printedCall(StringRef Printed, StringRef Name) {
  size_t At = Printed.find((Name + "(").str());
  if (At == StringRef::npos)
    return std::nullopt;
  StringRef Rest = Printed.drop_front(At + Name.size() + 1);
  return Rest.take_until([](char C) { return C == ')'; });
}

/// A dependency an `s_delay_alu` names (`VALU_DEP_2`): the kind and the
/// distance or cycle count.
struct AluDelay {
  /// What the printed id names (VALU_DEP_n, TRANS32_DEP_n, SALU_CYCLE_n); an
  /// enum, as the printed text does not outlive the instruction's issue.
  enum class KindT : uint8_t { ValuDep, TransDep, SaluCycle } Kind = KindT::ValuDep;
  unsigned N = 0;
  /// Instructions still to go before the one it delays (1: the next).
  unsigned Countdown = 1;
};

std::optional<AluDelay> parseDelay(StringRef Id, unsigned Countdown) {
  auto [Kind, Number] = Id.rsplit('_');
  AluDelay D;
  if (Number.getAsInteger(10, D.N) || D.N == 0)
    return std::nullopt; // NO_DEP
  if (Kind == "VALU_DEP")
    D.Kind = AluDelay::KindT::ValuDep;
  else if (Kind == "TRANS32_DEP")
    D.Kind = AluDelay::KindT::TransDep;
  else if (Kind == "SALU_CYCLE")
    D.Kind = AluDelay::KindT::SaluCycle;
  else
    return std::nullopt;
  D.Countdown = Countdown;
  return D;
}

/// The delay an `s_delay_alu` field encodes (0 none, 1-4 VALU_DEP_n, 5-7
/// TRANS32_DEP_n, 9-11 SALU_CYCLE_n), for the next instruction.
std::optional<AluDelay> delayOfId(uint8_t Id) {
  AluDelay D;
  if (Id >= 1 && Id <= 4)
    D = {AluDelay::KindT::ValuDep, Id, 1};
  else if (Id >= 5 && Id <= 7)
    D = {AluDelay::KindT::TransDep, unsigned(Id - 4), 1};
  else if (Id >= 9 && Id <= 11)
    D = {AluDelay::KindT::SaluCycle, unsigned(Id - 8), 1};
  else
    return std::nullopt;
  return D;
}

} // namespace

/// The state of one wave while a block issues.
struct BlockCycleModel::Simulation {
  struct AluWrite {
    uint64_t Done;
    bool Sgpr, Vcc;
  };

  Simulation(const BlockCycleModel &Model)
      : Model(Model), TI(Model.target()), HW(TI.hardware()),
        Pending(Model.Counters->numCounters()), Counted(Pending.size()),
        Drained(Pending.size()) {}

  /// What issuing \p I needs: its description and when each cause lets it
  /// go.
  struct Needs {
    explicit Needs(const Described &D) : D(D) {}
    const Described &D;
    uint64_t Ready[NumStallCauses] = {};
    /// The wait the inserter will put in front of it (ExpectReaderWaits).
    std::optional<WaitCounts> ReaderWait;
  };
  Needs needsOf(const Instruction &I) const;
  void issue(const Instruction &I);
  /// The waits \p Waits expects in front of \p I, which are not in the block.
  void issueExpected(const Instruction &I, const ExpectedWaits &Waits);

  const BlockCycleModel &Model;
  const TargetInfo &TI;
  const HardwareModel &HW;
  BlockCycles Result;
  uint64_t Now = 0;
  /// Per register unit, when its value is ready (0: not written in the
  /// block), up to the highest unit written so far: tables by unit, as a
  /// hash map's look-ups of every unit an instruction reads were most of a
  /// list scheduler's questions.
  std::vector<uint64_t> UnitReady;
  uint64_t readyOf(unsigned Unit) const {
    return Unit < UnitReady.size() ? UnitReady[Unit] : 0;
  }
  /// The VALU (and TRANS) writes in issue order, the newest last; only the
  /// newest few matter to a delay or a depctr wait.
  std::deque<AluWrite> Valu, Trans;
  uint64_t SaluDone = 0, SaluIssued = 0;
  /// Per memory counter, when each pending operation is done, oldest first.
  std::vector<std::deque<uint64_t>> Pending;
  uint64_t MatrixFree = 0;
  /// Whether a reader of a memory result no wait has drained yet gets the
  /// wait the inserter will put in front of it (IssueState): one issue
  /// cycle, and the counter drained in order down to that operation, so an
  /// order of loads other than the one their readers need costs what it
  /// will cost. Per counter, how many operations were counted and drained;
  /// per register unit, the counter and number of the access that wrote it.
  bool ExpectReaderWaits = false;
  std::vector<uint64_t> Counted, Drained;
  static constexpr unsigned NoAccess = ~0u;
  std::vector<std::pair<unsigned, uint64_t>> UnitAccess; ///< NoAccess: none
  const std::pair<unsigned, uint64_t> *accessOf(unsigned Unit) const {
    return Unit < UnitAccess.size() && UnitAccess[Unit].first != NoAccess ? &UnitAccess[Unit]
                                                                         : nullptr;
  }
  SmallVector<AluDelay, 4> Delays;

private:
  uint64_t delayedUntil(const AluDelay &D) const;
  uint64_t depCtrWaitUntil(const MCInst &Wait) const;
  /// When at most Allowed(Field) of the writes each field counts are in
  /// flight (no wait on a field Allowed leaves empty).
  uint64_t depCtrUntil(function_ref<std::optional<unsigned>(StringRef)> Allowed) const;
  /// When the operations \p Counts waits for are done, and dropping them.
  uint64_t drainTime(const WaitCounts &Counts) const;
  void drain(const WaitCounts &Counts);
  void record(const Described &D, uint64_t At);
};

uint64_t BlockCycleModel::Simulation::delayedUntil(const AluDelay &D) const {
  auto NthNewest = [&](const std::deque<AluWrite> &Q) -> uint64_t {
    return D.N <= Q.size() ? Q[Q.size() - D.N].Done : 0;
  };
  switch (D.Kind) {
  case AluDelay::KindT::ValuDep:
    return NthNewest(Valu);
  case AluDelay::KindT::TransDep:
    return NthNewest(Trans);
  case AluDelay::KindT::SaluCycle:
    return SaluIssued + D.N;
  }
  return 0;
}

uint64_t BlockCycleModel::Simulation::depCtrWaitUntil(const MCInst &Wait) const {
  if (!Wait.getNumOperands() || !Wait.getOperand(0).isImm())
    return 0;
  uint32_t Imm = uint32_t(Wait.getOperand(0).getImm());
  return depCtrUntil([&](StringRef Field) -> std::optional<unsigned> {
    const DepCtrField *F = HW.depCtrField(Field);
    if (!F || F->decode(Imm) == F->max())
      return std::nullopt;
    return F->decode(Imm);
  });
}

uint64_t BlockCycleModel::Simulation::depCtrUntil(
    function_ref<std::optional<unsigned>(StringRef)> Allowed) const {
  auto Drain = [&](StringRef Field, auto Keep) -> uint64_t {
    std::optional<unsigned> Max = Allowed(Field);
    if (!Max)
      return 0;
    unsigned Seen = 0;
    uint64_t Until = 0;
    for (auto It = Valu.rbegin(); It != Valu.rend(); ++It)
      if (Keep(*It) && ++Seen > *Max)
        Until = std::max(Until, It->Done);
    return Until;
  };
  uint64_t Until = std::max({Drain("va_vdst", [](const AluWrite &) { return true; }),
                             Drain("va_sdst", [](const AluWrite &W) { return W.Sgpr; }),
                             Drain("va_vcc", [](const AluWrite &W) { return W.Vcc; })});
  if (Allowed("sa_sdst") == 0u)
    Until = std::max(Until, SaluDone);
  return Until;
}

uint64_t BlockCycleModel::Simulation::drainTime(const WaitCounts &Counts) const {
  uint64_t Until = 0;
  for (unsigned C = 0; C < Pending.size(); ++C) {
    if (!Counts.waits(C))
      continue;
    const std::deque<uint64_t> &Q = Pending[C];
    size_t Allowed = size_t(std::max(Counts.Count[C], 0));
    for (size_t At = 0; At + Allowed < Q.size(); ++At)
      Until = std::max(Until, Q[At]);
  }
  return Until;
}

void BlockCycleModel::Simulation::drain(const WaitCounts &Counts) {
  for (unsigned C = 0; C < Pending.size(); ++C) {
    if (!Counts.waits(C))
      continue;
    std::deque<uint64_t> &Q = Pending[C];
    size_t Allowed = size_t(std::max(Counts.Count[C], 0));
    while (Q.size() > Allowed) {
      Q.pop_front();
      ++Drained[C];
    }
  }
}

void BlockCycleModel::Simulation::record(const Described &D, uint64_t At) {
  const InstTimes &T = D.T;
  for (unsigned C : D.Bumped) {
    Pending[C].push_back(At + T.Latency);
    ++Counted[C];
  }

  for (unsigned Unit : D.DefUnits) {
    if (Unit >= UnitReady.size())
      UnitReady.resize(Unit + 1, 0);
    UnitReady[Unit] = At + T.Latency;
    if (!ExpectReaderWaits)
      continue;
    if (Unit >= UnitAccess.size())
      UnitAccess.resize(Unit + 1, {NoAccess, 0});
    UnitAccess[Unit] = D.Bumped.empty() ? std::pair<unsigned, uint64_t>{NoAccess, 0}
                                        : std::pair<unsigned, uint64_t>{
                                              D.Bumped.front(), Counted[D.Bumped.front()] - 1};
  }
  const size_t History = 16; // s_delay_alu and depctr fields reach no further
  auto Push = [&](std::deque<AluWrite> &Q) {
    Q.push_back({At + T.Latency, D.WritesSgpr || D.WritesVcc, D.WritesVcc});
    if (Q.size() > History)
      Q.pop_front();
  };
  if (D.Valu)
    Push(Valu);
  if (D.Trans)
    Push(Trans);
  if (D.Salu) {
    SaluIssued = At + T.Issue;
    SaluDone = At + T.Latency;
  }
  if (T.MatrixPipe)
    MatrixFree = At + T.MatrixPipe;
}

BlockCycleModel::Simulation::Needs
BlockCycleModel::Simulation::needsOf(const Instruction &I) const {
  Needs N(Model.describe(I));
  const Described &D = N.D;
  auto Need = [&](StallCause C, uint64_t At) {
    N.Ready[unsigned(C)] = std::max(N.Ready[unsigned(C)], At);
  };
  // The delays whose countdown ends at this instruction.
  if (D.Role != InstRole::DelayAlu)
    for (const AluDelay &Delay : Delays)
      if (Delay.Countdown == 1)
        Need(StallCause::HazardWait, delayedUntil(Delay));
  if (D.HasMC) {
    for (unsigned Unit : D.UseUnits) {
      Need(StallCause::Dependency, readyOf(Unit));
      if (!ExpectReaderWaits)
        continue;
      const std::pair<unsigned, uint64_t> *Access = accessOf(Unit);
      if (!Access || Access->second < Drained[Access->first])
        continue;
      auto [C, Number] = *Access;
      if (!N.ReaderWait)
        N.ReaderWait.emplace();
      N.ReaderWait->require(C, int(Counted[C] - Number - 1));
    }
    if (N.ReaderWait)
      Need(StallCause::MemoryWait, std::max(Now, drainTime(*N.ReaderWait)) + 1);
    if (D.Wait)
      Need(StallCause::MemoryWait, drainTime(*D.Wait));
    if (D.Role == InstRole::DepCtrWait)
      Need(StallCause::HazardWait, depCtrWaitUntil(I.mcInsts()[0]));
    if (D.T.MatrixPipe)
      Need(StallCause::MatrixPipe, MatrixFree);
  }
  return N;
}

void BlockCycleModel::Simulation::issue(const Instruction &I) {
  const Needs N = needsOf(I);
  const Described &D = N.D;
  const InstTimes &T = D.T;
  if (D.Role != InstRole::DelayAlu)
    Delays.erase(remove_if(Delays, [](AluDelay &D) { return --D.Countdown == 0; }), Delays.end());
  if (D.Wait)
    drain(*D.Wait);
  if (N.ReaderWait) {
    drain(*N.ReaderWait);
    Result.Issue += 1;
  }

  // The stall goes to the cause that held the instruction longest.
  uint64_t At = Now;
  unsigned Cause = 0;
  for (unsigned C = 0; C < NumStallCauses; ++C)
    if (N.Ready[C] > At) {
      At = N.Ready[C];
      Cause = C;
    }
  Result.Stalls[Cause] += At - Now;
  Result.Issue += T.Issue;
  Now = At + T.Issue;

  if (!D.HasMC)
    return;
  if (D.Role == InstRole::DelayAlu) {
    std::string Printed = TI.printMC(I.mcInsts()[0]);
    StringRef P(Printed);
    // instskip: SAME (0), NEXT (1), SKIP_k (k + 1 instructions after the next).
    StringRef SkipName = printedCall(P, "instskip").value_or("SAME");
    unsigned Skip = SkipName == "NEXT" ? 1 : 0;
    if (unsigned K; SkipName.consume_front("SKIP_") && !SkipName.getAsInteger(10, K))
      Skip = K + 1;
    for (auto [Field, Countdown] : {std::pair<StringRef, unsigned>{"instid0", 1},
                                    std::pair<StringRef, unsigned>{"instid1", 1 + Skip}})
      if (std::optional<StringRef> Id = printedCall(P, Field))
        if (std::optional<AluDelay> Delay = parseDelay(*Id, Countdown))
          Delays.push_back(*Delay);
    return;
  }
  record(D, At);
}

void BlockCycleModel::Simulation::issueExpected(const Instruction &I, const ExpectedWaits &Waits) {
  if (auto It = Waits.Memory.find(&I); It != Waits.Memory.end()) {
    uint64_t At = std::max(Now, drainTime(It->second));
    drain(It->second);
    Result.Stalls[unsigned(StallCause::MemoryWait)] += At - Now;
    Result.Issue += 1;
    Now = At + 1;
  }
  if (auto It = Waits.DepCtrs.find(&I); It != Waits.DepCtrs.end()) {
    std::vector<StringRef> Zeroed = depCtrFieldNames(It->second);
    uint64_t At = std::max(Now, depCtrUntil([&](StringRef Field) -> std::optional<unsigned> {
      return is_contained(Zeroed, Field) ? std::optional<unsigned>(0) : std::nullopt;
    }));
    Result.Stalls[unsigned(StallCause::HazardWait)] += At - Now;
    Result.Issue += 1;
    Now = At + 1;
  }
  if (auto It = Waits.AluDelays.find(&I); It != Waits.AluDelays.end()) {
    for (uint8_t Id : {It->second.first, It->second.second})
      if (std::optional<AluDelay> D = delayOfId(Id))
        Delays.push_back(*D);
    Result.Issue += 1;
    Now += 1;
  }
}

BlockCycles BlockCycleModel::estimate(const BasicBlock &BB, const ExpectedWaits &Waits) const {
  Simulation S(*this);
  for (const Instruction &I : BB.instructions()) {
    S.issueExpected(I, Waits);
    S.issue(I);
  }
  S.Result.Cycles = S.Now;
  return S.Result;
}

BlockCycles BlockCycleModel::estimate(const BasicBlock &BB,
                                      ArrayRef<const Instruction *> Without) const {
  Simulation S(*this);
  for (const Instruction &I : BB.instructions())
    if (!is_contained(Without, &I))
      S.issue(I);
  S.Result.Cycles = S.Now;
  return S.Result;
}

BlockCycles BlockCycleModel::estimateSecondTrip(const BasicBlock &BB,
                                                ArrayRef<const Instruction *> Without) const {
  const BasicBlock *Trip[] = {&BB};
  return estimateSecondTrip(Trip, Without);
}

BlockCycles BlockCycleModel::estimateSecondTrip(ArrayRef<const BasicBlock *> Trip,
                                                ArrayRef<const Instruction *> Without) const {
  Simulation S(*this);
  for (int Pass = 0; Pass != 2; ++Pass) {
    uint64_t Start = S.Now;
    S.Result = BlockCycles();
    for (const BasicBlock *BB : Trip)
      for (const Instruction &I : BB->instructions())
        if (!is_contained(Without, &I))
          S.issue(I);
    S.Result.Cycles = S.Now - Start;
  }
  return S.Result;
}

IssueState::IssueState(const BlockCycleModel &Model)
    : S(std::make_unique<BlockCycleModel::Simulation>(Model)) {
  S->ExpectReaderWaits = true;
}
IssueState::IssueState(const IssueState &Other)
    : S(std::make_unique<BlockCycleModel::Simulation>(*Other.S)) {}
IssueState &IssueState::operator=(const IssueState &Other) {
  S = std::make_unique<BlockCycleModel::Simulation>(*Other.S);
  return *this;
}
IssueState::IssueState(IssueState &&) noexcept = default;
IssueState &IssueState::operator=(IssueState &&) noexcept = default;
IssueState::~IssueState() = default;

uint64_t IssueState::readyAt(const Instruction &I) const {
  BlockCycleModel::Simulation::Needs N = S->needsOf(I);
  N.Ready[unsigned(StallCause::MatrixPipe)] = 0;
  return *std::max_element(std::begin(N.Ready), std::end(N.Ready));
}
uint64_t IssueState::matrixFree() const { return S->MatrixFree; }
uint64_t IssueState::cycles() const { return S->Now; }
void IssueState::issue(const Instruction &I) { S->issue(I); }

} // namespace stinkytofu
