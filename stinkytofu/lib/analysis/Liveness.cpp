//===- Liveness.cpp - Register liveness at instruction granularity --------===//
#include "stinkytofu/analysis/Liveness.h"
#include "stinkytofu/analysis/CallGraph.h"
#include "stinkytofu/analysis/LiveUnitsDataflow.h"
#include "stinkytofu/hw/HardwareModel.h"
#include "stinkytofu/ir/BranchVocabulary.h"
#include "stinkytofu/ir/Module.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/ErrorHandling.h"
#include <string>

using namespace llvm;

namespace stinkytofu {

AnalysisKey LivenessAnalysis::Key;

/// The backward dataflow, with the effect of each call of the function.
class Liveness::Solver : public LiveUnitsDataflow<Liveness::Solver> {
public:
  struct CallInfo {
    CallEffect Effect;
    CallTransfer Transfer;
  };

  Solver(const Function &F, const RegisterUnits &RU, LivenessOptions Options)
      : LiveUnitsDataflow(F, RU), Options(std::move(Options)) {
    // An unknown callee's reads are the option's, also inside the summaries
    // of known callees (a callee of the module calling an external one).
    CallEffectAnalyzer Callees(*F.parent(), RU, this->Options.UnknownCalleeReads);
    // Calls of the same callees with the same registers share one record:
    // a Tensile kernel makes a thousand calls to a few activation functions.
    StringMap<const CallInfo *> Shared;
    std::string Key;
    for (const BasicBlock &BB : F.blocks())
      for (const Instruction &I : BB.instructions())
        if (isTailCall(I)) {
          TailCallReads[&I] = Callees.effectOf(I).Reads;
        } else if (!isOpaqueInstruction(I) && I.facts().has(IF_Call)) {
          callKey(I, Key);
          const CallInfo *&Info = Shared[Key];
          if (!Info) {
            CallEffect E = Callees.effectOf(I);
            CallTransfer T = makeCallTransfer(RU, I, E);
            Infos.push_back(std::make_unique<CallInfo>(CallInfo{std::move(E), std::move(T)}));
            Info = Infos.back().get();
          }
          Calls[&I] = Info;
        }
  }

  /// Null when \p I is not a call of this function.
  const CallInfo *callInfo(const Instruction &I) const { return Calls.lookup(&I); }

  // Dataflow hooks.
  const CallTransfer &callTransfer(const Instruction &Call) const {
    return callInfo(Call)->Transfer;
  }
  void transferCall(const Instruction &I, BitVector &Live) const {
    const CallTransfer &T = callTransfer(I);
    if (Options.CallsEndLiveness)
      Live.reset(T.Kill);
    Live |= T.Gen;
  }
  BitVector exitState(const BasicBlock &BB) const {
    if (BB.empty())
      return RU.all();
    const Instruction &Last = BB.instructions().back();
    if (isProgramEnd(Last)) // the wave ends: nothing is read afterwards
      return RU.none();
    // A tail call: its callee reads what it reads, then returns to our
    // caller, which reads what it reads after our return.
    if (auto It = TailCallReads.find(&Last); It != TailCallReads.end()) {
      BitVector Live = Options.LiveAfterReturn ? *Options.LiveAfterReturn : RU.all();
      Live |= It->second;
      return Live;
    }
    if (Options.LiveAfterReturn && isReturn(Last))
      return *Options.LiveAfterReturn;
    return RU.all();
  }
  /// Code of another function may read anything.
  void joinOutsideEdge(const BasicBlock &, const BasicBlock &, BitVector &Live) const {
    Live.set();
  }

private:
  /// What the effect and transfer of call \p I depend on: its callees, its
  /// kind and its own registers.
  static void callKey(const Instruction &I, std::string &Key) {
    Key.clear();
    if (const auto *Targets = I.getModifier<CallTargetData>())
      for (const std::string &Callee : Targets->Callees)
        (Key += Callee) += '\n';
    Key += char('0' + unsigned(I.kind()));
    for (ArrayRef<MCRegister> Regs :
         {ArrayRef<MCRegister>(I.facts().Defs), ArrayRef<MCRegister>(I.facts().Uses)}) {
      Key += ';';
      for (MCRegister R : Regs)
        (Key += std::to_string(R.id())) += ',';
    }
  }

  LivenessOptions Options;
  std::vector<std::unique_ptr<CallInfo>> Infos;
  DenseMap<const Instruction *, const CallInfo *> Calls;
  DenseMap<const Instruction *, BitVector> TailCallReads;
};

Liveness::Liveness(Function &F, LivenessOptions Options) : Fn(&F) {
  Module *M = F.parent();
  if (!M)
    report_fatal_error("Liveness: function '" + F.name() + "' belongs to no module");
  RU = std::make_unique<RegisterUnits>(M->target());
  AllLive = RU->all(); // what an unknown instruction gets: everything live
  Flow = std::make_unique<Solver>(F, *RU, std::move(Options));
  unsigned B = 0;
  for (const BasicBlock &BB : F.blocks()) {
    unsigned Idx = 0;
    for (const Instruction &I : BB.instructions())
      InstPos[&I] = Position{B, Idx++};
    ++B;
  }
  cantFail(Flow->run()); // no visit limit: it cannot fail
}

Liveness::Liveness(Liveness &&) = default;
Liveness::~Liveness() = default;

const CallEffect *Liveness::callEffect(const Instruction &I) const {
  const Solver::CallInfo *CI = Flow->callInfo(I);
  return CI ? &CI->Effect : nullptr;
}

const std::vector<BitVector> &Liveness::points(unsigned B) const {
  return Flow->blockStates(*Flow->blocks()[B]);
}

void Liveness::computeAllInstructionSets() const {
  for (const BasicBlock *BB : Flow->blocks())
    Flow->blockStates(*BB);
}

std::optional<Liveness::Position> Liveness::positionOf(const Instruction &I) const {
  auto It = InstPos.find(&I);
  if (It == InstPos.end())
    return std::nullopt;
  return It->second;
}

const BitVector &Liveness::liveIn(const BasicBlock &BB) const {
  return Flow->contains(BB) ? Flow->stateIn(BB) : AllLive;
}

const BitVector &Liveness::liveOut(const BasicBlock &BB) const {
  return Flow->contains(BB) ? Flow->stateOut(BB) : AllLive;
}

const BitVector &Liveness::liveBefore(const Instruction &I) const {
  std::optional<Position> P = positionOf(I);
  assert(P && "instruction of another function");
  return P ? points(P->Block)[P->Index] : AllLive;
}

const BitVector &Liveness::liveAfter(const Instruction &I) const {
  std::optional<Position> P = positionOf(I);
  assert(P && "instruction of another function");
  return P ? points(P->Block)[P->Index + 1] : AllLive;
}

bool Liveness::isLiveBefore(const Instruction &I, MCRegister R) const {
  return RU->any(liveBefore(I), R);
}

bool Liveness::isLiveAfter(const Instruction &I, MCRegister R) const {
  return RU->any(liveAfter(I), R);
}

bool Liveness::isLiveBefore(const Instruction &I, StringRef MCName) const {
  MCRegister R = RU->byName(MCName);
  return !R.isValid() || isLiveBefore(I, R);
}

bool Liveness::isLiveAfter(const Instruction &I, StringRef MCName) const {
  MCRegister R = RU->byName(MCName);
  return !R.isValid() || isLiveAfter(I, R);
}

BitVector Liveness::readsOf(const Instruction &I) const {
  BitVector Reads = RU->none();
  addReadsOf(I, Reads);
  return Reads;
}

BitVector Liveness::writesOf(const Instruction &I) const {
  BitVector Writes = RU->none();
  addWritesOf(I, Writes);
  return Writes;
}

void Liveness::addReadsOf(const Instruction &I, BitVector &Into) const {
  if (isOpaqueInstruction(I))
    Into.set();
  else if (const Solver::CallInfo *CI = Flow->callInfo(I))
    Into |= CI->Transfer.Gen;
  else
    for (MCRegister R : I.facts().Uses)
      RU->set(Into, R);
}

void Liveness::addWritesOf(const Instruction &I, BitVector &Into) const {
  if (isOpaqueInstruction(I))
    Into.set();
  else if (const Solver::CallInfo *CI = Flow->callInfo(I))
    Into |= CI->Transfer.MayWrite;
  else
    for (MCRegister R : I.facts().Defs)
      RU->set(Into, R);
}

void Liveness::addAccessesOf(const Instruction &I, BitVector &Into) const {
  addReadsOf(I, Into);
  addWritesOf(I, Into);
}

std::vector<MCRegister> Liveness::deadSGPRsBefore(const Instruction &I) const {
  std::vector<MCRegister> Dead;
  const BitVector &Live = liveBefore(I);
  const TargetInfo &TI = RU->target();
  for (unsigned S = 0, E = TI.hardware().maxSGPRs(); S < E; ++S) {
    MCRegister R = TI.reg32(RegClass::SGPR, S);
    if (R.isValid() && !RU->any(Live, R))
      Dead.push_back(R);
  }
  return Dead;
}

std::optional<MCRegister> Liveness::findFreeSGPR(const Instruction &First,
                                                 const Instruction &Last,
                                                 unsigned Count, bool Aligned) const {
  std::optional<Position> From = positionOf(First), To = positionOf(Last);
  if (!From || !To || Count == 0)
    return std::nullopt;
  if (From->Block > To->Block || (From->Block == To->Block && From->Index > To->Index))
    return std::nullopt;

  // Everything live at some point of the range or written in it.
  BitVector Busy = RU->none();
  for (unsigned B = From->Block; B <= To->Block; ++B) {
    const std::vector<BitVector> &P = points(B);
    const BasicBlock &BB = *Flow->blocks()[B];
    unsigned Size = P.size() - 1;
    unsigned Lo = B == From->Block ? From->Index : 0;
    unsigned Hi = B == To->Block ? To->Index + 1 : Size; // points Lo..Hi
    for (unsigned Pt = Lo; Pt <= Hi; ++Pt)
      Busy |= P[Pt];
    auto It = BB.instructions().begin();
    std::advance(It, Lo);
    for (unsigned Idx = Lo; Idx < Hi && Idx < Size; ++Idx, ++It)
      Busy |= writesOf(*It);
  }

  const unsigned Align = !Aligned || Count == 1 ? 1 : Count == 2 ? 2 : 4;
  const unsigned Max = RU->target().hardware().maxSGPRs();
  for (unsigned S = 0; S + Count <= Max; S += Align) {
    MCRegister R = RU->sgprTuple(S, Count);
    if (R.isValid() && !RU->any(Busy, R))
      return R;
  }
  return std::nullopt;
}

void Liveness::print(raw_ostream &OS) const {
  for (const BasicBlock *BB : Flow->blocks()) {
    StringRef Name = !BB->name().empty() ? BB->name() : BB->label();
    OS << Name << ":\n  live-in:  " << RU->describe(Flow->stateIn(*BB))
       << "\n  live-out: " << RU->describe(Flow->stateOut(*BB)) << "\n";
  }
}

void addCalleeDependencies(Function &F, AnalysisManager &AM, const AnalysisKey &Key) {
  // Calls are read through their callees' bodies (CallEffects.h).
  if (Module *M = F.parent())
    for (const Function *Callee :
         AM.getModuleResult<CallGraphAnalysis>(*M).transitiveCallees(F))
      AM.addDependency(F, &Key, *Callee);
}

Expected<Liveness> computeLiveness(Function &F, AnalysisManager &AM, const AnalysisKey &Key,
                                   LivenessOptions Options) {
  if (Error E = requireValidCFG(F, "liveness"))
    return std::move(E);
  addCalleeDependencies(F, AM, Key);
  return Liveness(F, std::move(Options));
}

Expected<Liveness> LivenessAnalysis::run(Function &F, AnalysisManager &AM) {
  return computeLiveness(F, AM, Key);
}

} // namespace stinkytofu
