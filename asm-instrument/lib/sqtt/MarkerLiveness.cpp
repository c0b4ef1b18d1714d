//===- MarkerLiveness.cpp - Which registers inserted code may use ---------===//
#include "asm-instrument/sqtt/MarkerLiveness.h"
#include "stinkytofu/analysis/CallingConvention.h"
#include "stinkytofu/analysis/Dataflow.h"
#include "stinkytofu/analysis/Liveness.h"
#include "stinkytofu/analysis/RegisterUsage.h"
#include "stinkytofu/hw/HardwareModel.h"
#include "stinkytofu/hw/WaitCounters.h"
#include "stinkytofu/ir/Module.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Regex.h"

using namespace llvm;

namespace stinkytofu::sqtt {

namespace {

/// Per counter, the register units a memory operation issued on it may
/// still write, or still read (the events that keep their operands busy):
/// set by the operation, cleared only by a wait of that
/// counter for 0 (a wait for N > 0 proves nothing about an out-of-order
/// counter, and keeping the set is the safe side for an in-order one).
/// Joins take the union: a unit is in flight if it is on some path. A
/// counter with nothing in flight holds an empty vector (no units, no
/// allocation): most states of a kernel have most counters idle, and each
/// block's two states were a vector per counter to allocate and free.
using InFlightState = SmallVector<BitVector, MaxWaitCounters>;

struct InFlightLoads
    : DataflowAnalysis<InFlightLoads, InFlightState, DataflowDirection::Forward> {
  const CounterModel CM;
  const RegisterUnits &RU;

  const Function &F;

  InFlightLoads(const Function &F, const RegisterUnits &RU)
      : DataflowAnalysis(F), CM(F.parent()->target()), RU(RU), F(F) {}

  InFlightState initialState() const { return InFlightState(CM.numCounters()); }
  /// A function that is not a kernel is entered with its caller's loads,
  /// LDS and scalar memory work possibly in flight into any register (the
  /// convention leaves the waits to the callee; the waitcnt verifier's entry
  /// state is the same): nothing is scratch before its first wait for 0 of
  /// those counters.
  InFlightState entryState() const {
    InFlightState S = initialState();
    if (F.isEntry())
      return S;
    for (WaitEvent E : {WaitEvent::VmemLoad, WaitEvent::Lds, WaitEvent::Smem})
      if (std::optional<unsigned> C = CM.counterOf(E))
        S[*C] = RU.all();
    return S;
  }
  /// An empty set joins as none; |= sizes an empty one to its operand.
  void join(InFlightState &Into, const InFlightState &From) const {
    for (unsigned C = 0; C < Into.size(); ++C)
      Into[C] |= From[C];
  }
  /// What an instruction does to the state, per counter (a bit each):
  /// a wait for 0 clears the counter's set, a memory operation adds its
  /// definitions (and its operands) to it.
  struct Effect {
    uint32_t Clears = 0, AddsDefs = 0, AddsUses = 0;
    bool any() const { return Clears || AddsDefs || AddsUses; }
  };
  /// Worked out once per instruction: the analysis and the walk after it
  /// both transfer every instruction.
  mutable DenseMap<const Instruction *, Effect> Effects;

  const Effect &effectOf(const Instruction &I) const {
    auto [It, New] = Effects.try_emplace(&I);
    if (!New)
      return It->second;
    Effect &Ef = It->second;
    const uint32_t AllCounters = (uint32_t(1) << CM.numCounters()) - 1;
    // An operation with no registers of a kind adds none of them (a store
    // defines nothing): it changes no state.
    const bool HasDefs = !I.facts().Defs.empty(), HasUses = !I.facts().Uses.empty();
    // A macro statement (or an expansion into several instructions) is not
    // taken apart: its waits complete nothing, and any counter may bring
    // its writes.
    if (I.kind() != InstKind::Machine || I.mcInsts().size() != 1) {
      Ef.AddsDefs = HasDefs ? AllCounters : 0;
      return Ef;
    }
    const MCInst &MI = I.mcInsts().front();
    if (std::optional<WaitCounts> W = CM.decodeWait(MI, I.mnemonic()))
      for (unsigned C = 0; C < CM.numCounters(); ++C)
        if (W->Count[C] == 0)
          Ef.Clears |= uint32_t(1) << C;
    MemoryAccess A = CM.classify(MI, I.mnemonic());
    for (unsigned E = 0; E < NumWaitEvents; ++E)
      if (A.has(WaitEvent(E)))
        if (std::optional<unsigned> C = CM.counterOf(WaitEvent(E))) {
          if (HasDefs)
            Ef.AddsDefs |= uint32_t(1) << *C;
          // The operation still reads these until its counter says so
          // (gfx1250 xcnt: a VMEM or SMEM operation's address registers;
          // an export's or a GDS operation's data VGPRs): writing one
          // there changes what it reads.
          if (HasUses && readsOperandsWhilePending(WaitEvent(E)))
            Ef.AddsUses |= uint32_t(1) << *C;
        }
    return Ef;
  }
  void transfer(const Instruction &I, InFlightState &S) const { apply(I, effectOf(I), S); }
  /// Transfers \p I, whose effect is \p Ef.
  void apply(const Instruction &I, const Effect &Ef, InFlightState &S) const {
    if (!Ef.any())
      return;
    for (unsigned C = 0; C < S.size(); ++C)
      if (Ef.Clears >> C & 1)
        S[C].clear();
    for (unsigned C = 0; C < S.size(); ++C) {
      if (!((Ef.AddsDefs | Ef.AddsUses) >> C & 1))
        continue;
      if (S[C].empty())
        S[C].resize(RU.numUnits());
      if (Ef.AddsDefs >> C & 1)
        for (MCRegister R : I.facts().Defs)
          RU.set(S[C], R);
      if (Ef.AddsUses >> C & 1)
        for (MCRegister R : I.facts().Uses)
          RU.set(S[C], R);
    }
  }
  /// Whether an effect \p Ef may change \p S: it adds registers, or it
  /// waits for 0 on a counter with something in flight.
  static bool changes(const Effect &Ef, const InFlightState &S) {
    if (Ef.AddsDefs || Ef.AddsUses)
      return true;
    for (unsigned C = 0; C < S.size(); ++C)
      if ((Ef.Clears >> C & 1) && !S[C].empty())
        return true;
    return false;
  }
  static bool readsOperandsWhilePending(WaitEvent E) {
    return E == WaitEvent::Translation || E == WaitEvent::SmemTranslation ||
           E == WaitEvent::Export || E == WaitEvent::GdsGprLock;
  }
  /// An instruction MC does not describe is live everywhere already.
  void transferOpaque(const Instruction &, InFlightState &) const {}
};

/// Sets \p Union to the units in flight on any counter; false when none
/// is (most instructions of a kernel: no set is kept for them).
bool unionOf(const InFlightState &S, BitVector &Union) {
  if (none_of(S, [](const BitVector &C) { return C.any(); }))
    return false;
  Union.clear(); // keeps its words: no allocation from one union to the next
  for (const BitVector &C : S)
    Union |= C;
  return true;
}

} // namespace

MarkerLiveness::MarkerLiveness(Function &F, bool AbiReturns, SGPRBudget B,
                               const CallerView *Callers)
    : Budget(B) {
  const TargetInfo &TI = F.parent()->target();
  RU = std::make_unique<RegisterUnits>(TI);
  All = RU->all();
  Busy = RU->none();
  if (AbiReturns) {
    Options.LiveAfterReturn = liveAfterAbiReturn(*RU);
    // A callee may write less than all it may clobber: a call ends no
    // liveness.
    Options.CallsEndLiveness = false;
  }
  // Every call is by the convention (s_swappc_b64 with the return address
  // in s[30:31]): a callee outside the module reads its inputs only.
  Options.UnknownCalleeReads = calleeInputUnits(*RU);
  if (Callers) {
    LanesAfterReturn = Callers->LanesAfterReturn;
    // Both bound what is read after a return.
    if (Options.LiveAfterReturn)
      *Options.LiveAfterReturn &= Callers->LiveAfterReturn;
    else
      Options.LiveAfterReturn = Callers->LiveAfterReturn;
  }
  // v256 and up need s_set_vgpr_msb around every access: not lane storage.
  const unsigned NamedVGPRs = namedVGPRCount(F);
  VGPRBudget = std::min(Callers ? Callers->VGPRBudget : NamedVGPRs, 256u);
  GrowVGPR = growableVGPR(F, NamedVGPRs);
  Core = std::make_unique<Liveness>(F, Options);
  // The verifier asks after the code changed: answer for the original.
  Core->computeAllInstructionSets();
  // Live somewhere = live out of a block, or read or written by one of its
  // instructions. The same registers and calls come back all over a
  // kernel: each distinct register is added once, and each call effect
  // (calls of the same callees with the same registers share one).
  DenseSet<unsigned> Accessed;
  SmallPtrSet<const CallEffect *, 8> Calls;
  for (BasicBlock &BB : F.blocks()) {
    Busy |= Core->liveIn(BB);
    Busy |= Core->liveOut(BB);
    for (Instruction &I : BB.instructions()) {
      const CallEffect *Call = Core->callEffect(I);
      if (isOpaqueInstruction(I) || (Call && Calls.insert(Call).second)) {
        Core->addAccessesOf(I, Busy);
        continue;
      }
      if (Call)
        continue;
      for (MCRegister R : I.facts().Uses)
        Accessed.insert(R.id());
      for (MCRegister R : I.facts().Defs)
        Accessed.insert(R.id());
    }
  }
  for (unsigned R : Accessed)
    RU->set(Busy, MCRegister(R));
  computeInFlight(F);
  for (unsigned S = 0; S < Budget.Limit; ++S)
    if (MCRegister R = TI.reg32(RegClass::SGPR, S); R.isValid())
      Sgprs.push_back({R, RU->units(R)});
  for (const char *Name : {"VCC_LO", "VCC_HI"})
    if (MCRegister R = RU->byName(Name); R.isValid())
      Vcc.push_back(R);
}

void MarkerLiveness::computeInFlight(Function &F) {
  size_t Instructions = 0, Blocks = 0;
  for (const BasicBlock &BB : F.blocks()) {
    Instructions += BB.instructions().size();
    ++Blocks;
  }
  InFlightLoads Flow(F, *RU);
  Flow.Effects.reserve(Instructions);
  // The lattice is finite (sets of units, only growing): no visit limit.
  cantFail(Flow.run());
  // One walk of each block with one state: only the unions are kept, not
  // the state before every instruction (blockStates), whose copies cost as
  // much as the analysis. The union is taken again only after an
  // instruction that may change the state; the points between share it.
  // At most one set per instruction and block end: room for all at once
  // (a growing vector copies every set, llvm::BitVector's move may throw).
  InFlightSets.reserve(Instructions + Blocks);
  InFlightBefore.reserve(Instructions);
  InFlightState S;
  BitVector Union;
  for (BasicBlock &BB : F.blocks()) {
    S = Flow.stateIn(BB);
    std::optional<unsigned> Current;
    bool Stale = true;
    // A union equal to the one before (a load into registers already in
    // flight, a wait for 0 on an idle counter) keeps its set.
    auto Note = [&]() -> std::optional<unsigned> {
      if (Stale) {
        Stale = false;
        if (!unionOf(S, Union)) {
          Current.reset();
        } else if (!Current || InFlightSets[*Current] != Union) {
          Current = InFlightSets.size();
          InFlightSets.push_back(Union);
        }
      }
      return Current;
    };
    for (Instruction &I : BB.instructions()) {
      if (std::optional<unsigned> U = Note())
        InFlightBefore.try_emplace(&I, *U);
      // Opaque instructions change nothing (transferOpaque); calls and the
      // rest transfer (transferCall is transfer).
      if (isOpaqueInstruction(I))
        continue;
      if (const InFlightLoads::Effect &Ef = Flow.effectOf(I); Flow.changes(Ef, S)) {
        Flow.apply(I, Ef, S);
        Stale = true;
      }
    }
    if (std::optional<unsigned> U = Note())
      InFlightAtEnd.try_emplace(&BB, *U);
  }
}

const BitVector *MarkerLiveness::inFlightAt(const InsertPoint &P) const {
  if (P.Before) {
    auto It = InFlightBefore.find(P.Before);
    return It == InFlightBefore.end() ? nullptr : &InFlightSets[It->second];
  }
  if (P.Block) {
    auto It = InFlightAtEnd.find(P.Block);
    return It == InFlightAtEnd.end() ? nullptr : &InFlightSets[It->second];
  }
  return nullptr;
}

BitVector MarkerLiveness::unusableAt(const InsertPoint &P) const {
  BitVector Out = liveAt(P);
  if (const BitVector *Pending = inFlightAt(P))
    Out |= *Pending;
  return Out;
}

bool MarkerLiveness::isInFlight(const InsertPoint &P, MCRegister R) const {
  const BitVector *Pending = inFlightAt(P);
  return Pending && RU->any(*Pending, R);
}

/// Whether any of \p Units is set in \p BV.
static bool anyOf(const BitVector &BV, ArrayRef<unsigned> Units) {
  return llvm::any_of(Units, [&](unsigned U) { return BV.test(U); });
}

MarkerLiveness::~MarkerLiveness() = default;

const BitVector &MarkerLiveness::liveBefore(const Instruction &I) const {
  return Core->liveBefore(I);
}

const BitVector &MarkerLiveness::liveAfter(const Instruction &I) const {
  return Core->liveAfter(I);
}

const BitVector &MarkerLiveness::liveIn(const BasicBlock &BB) const { return Core->liveIn(BB); }

const BitVector &MarkerLiveness::liveAt(const InsertPoint &P) const {
  if (P.Before)
    return liveBefore(*P.Before);
  if (P.Block && !P.Block->empty())
    return liveAfter(P.Block->instructions().back());
  if (P.Block)
    return Core->liveOut(*P.Block);
  return All;
}

bool MarkerLiveness::isLive(const InsertPoint &P, MCRegister R) const {
  return RU->any(liveAt(P), R);
}

bool MarkerLiveness::isLive(const InsertPoint &P, StringRef MCName) const {
  auto Known = llvm::find_if(ByName, [&](const auto &E) { return E.first == MCName; });
  if (Known == ByName.end())
    Known = ByName.insert(ByName.end(), {MCName.str(), RU->byName(MCName)});
  MCRegister R = Known->second;
  return !R.isValid() || isLive(P, R);
}

std::vector<MCRegister> MarkerLiveness::deadSGPRs(const InsertPoint &P, size_t Max) const {
  std::vector<MCRegister> Dead;
  Dead.reserve(std::min(Max, Sgprs.size()));
  // Asked for every marker group: the two sets are read where they are,
  // not united in a copy.
  const BitVector &Live = liveAt(P);
  const BitVector *Pending = inFlightAt(P);
  for (const Sgpr &S : Sgprs) {
    if (Dead.size() >= Max)
      break;
    if (!anyOf(Live, S.Units) && !(Pending && anyOf(*Pending, S.Units)))
      Dead.push_back(S.Reg);
  }
  return Dead;
}

std::vector<MCRegister> MarkerLiveness::deadVccHalves(const InsertPoint &P) const {
  std::vector<MCRegister> Dead;
  const BitVector Unusable = unusableAt(P);
  for (MCRegister R : Vcc)
    if (!RU->any(Unusable, R))
      Dead.push_back(R);
  return Dead;
}

std::vector<MCRegister> MarkerLiveness::deadVGPRs(const InsertPoint &P, size_t Max) const {
  std::vector<MCRegister> Unused, DeadHere;
  BitVector Live = P.Before ? lanes().liveBefore(*P.Before)
                   : P.Block ? lanes().liveAtEnd(*P.Block)
                             : All;
  Live |= unusableAt(P);
  const TargetInfo &TI = RU->target();
  for (unsigned V = 0; V < VGPRBudget; ++V) {
    MCRegister R = TI.reg32(RegClass::VGPR, V);
    if (!R.isValid() || RU->any(Live, R))
      continue;
    (RU->any(Busy, R) ? DeadHere : Unused).push_back(R);
  }
  llvm::append_range(Unused, DeadHere);
  // Last, one above the kernel's own, if its descriptor can grow.
  if (GrowVGPR)
    if (MCRegister R = TI.reg32(RegClass::VGPR, *GrowVGPR); R.isValid() && !RU->any(Live, R))
      Unused.push_back(R);
  if (Unused.size() > Max)
    Unused.resize(Max);
  return Unused;
}

const LaneLiveness &MarkerLiveness::lanes() const {
  if (!Lanes)
    Lanes = std::make_unique<LaneLiveness>(*Core, lanesAfterReturn());
  return *Lanes;
}

BitVector MarkerLiveness::laneLiveAfter(const Instruction &I) const {
  return lanes().liveAfter(I);
}

std::optional<MCRegister> MarkerLiveness::freeSGPR() const {
  for (const Sgpr &S : Sgprs)
    if (!anyOf(Busy, S.Units))
      return S.Reg;
  return std::nullopt;
}

/// Whether a text line of \p F's module matches \p Pattern, in which
/// `NAME` stands for F's (possibly quoted) symbol.
static bool declares(const Function &F, StringRef Pattern) {
  const Module &M = *F.parent();
  std::string P = Pattern.str();
  P.replace(P.find("NAME"), 4, "\"?" + Regex::escape(F.name()) + "\"?");
  Regex Re(P);
  for (const ModuleItem &Item : M.items()) {
    if (Item.K != ModuleItem::Kind::Text || !Item.Contents.contains(F.name()))
      continue;
    SmallVector<StringRef, 16> Lines;
    Item.Contents.split(Lines, '\n');
    for (StringRef Line : Lines)
      if (Re.match(Line))
        return true;
  }
  return false;
}

bool followsCallingConvention(const Function &F) {
  return !F.isEntry() && declares(F, "^[ \t]*\\.type[ \t]+NAME[ \t]*,[ \t]*[@%]function");
}

bool isExported(const Function &F) {
  return declares(F, "^[ \t]*\\.(globl|global|weak)[ \t]+NAME([ \t;]|$)");
}

} // namespace stinkytofu::sqtt
