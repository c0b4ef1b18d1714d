//===- LoopLoadRotationPass.cpp - The next trip's loads issued in this trip -===//
#include "stinkytofu/transforms/LoopLoadRotationPass.h"
#include "stinkytofu/analysis/AddressChains.h"
#include "stinkytofu/analysis/BlockCycleModel.h"
#include "stinkytofu/analysis/InstructionEffects.h"
#include "stinkytofu/analysis/LoopInfo.h"
#include "stinkytofu/hw/HardwareModel.h"
#include "stinkytofu/hw/WaitCounters.h"
#include "stinkytofu/ir/Module.h"
#include "stinkytofu/mc/InstructionFormatter.h"
#include "stinkytofu/support/Diagnostics.h"
#include "stinkytofu/transforms/CFGBuilderPass.h"
#include "stinkytofu/transforms/RewriteSupport.h"

using namespace llvm;

namespace stinkytofu {
namespace {

std::vector<const Instruction *> instructionsOf(const BasicBlock &BB) {
  std::vector<const Instruction *> Insts;
  for (const Instruction &I : BB.instructions())
    Insts.push_back(&I);
  return Insts;
}

/// What the proof and the search for candidates read of a target.
struct RotationFacts {
  explicit RotationFacts(const TargetInfo &TI)
      : Effects(TI), Counters(TI), Exec(Effects.units().none()) {
    Effects.units().set(Exec, Effects.units().byName("EXEC"));
  }

  /// A vector-memory load, one address per lane: with EXEC empty it reads
  /// no memory and writes no register (LLVM, too, lets such a load run
  /// with EXEC empty: SIInstrInfo::hasUnwantedEffectsWhenEXECEmpty). Not an
  /// atomic, a store, a load into LDS or a generic flat access (which may
  /// reach LDS).
  bool isLaneLoad(const Instruction &I) const {
    if (I.kind() != InstKind::Machine || I.mcInsts().size() != 1 ||
        !I.facts().has(IF_MayLoad) || I.facts().has(IF_MayStore))
      return false;
    MemoryAccess A = Counters.classify(I.mcInsts().front(), I.mnemonic());
    uint32_t Allowed = eventBit(WaitEvent::VmemLoad) | eventBit(WaitEvent::Translation);
    return A.has(WaitEvent::VmemLoad) && !(A.Events & ~Allowed) && !A.Atomic &&
           !A.GenericFlat && !A.ReadsLds && !A.WritesLds;
  }

  bool writesExec(const Instruction &I) const {
    return Effects.effectsOf(I).Writes.anyCommon(Exec);
  }

  /// A conditional branch taken when EXEC is not zero that reads nothing
  /// else: falling through, the loop leaves with no lane active.
  bool isExecNonZeroBranch(const Instruction &I) const {
    if (I.kind() != InstKind::Machine || !I.facts().has(IF_ConditionalBranch) ||
        HardwareModel::roleOf(I.mnemonic().lower()) != InstRole::BranchIfNonZero)
      return false;
    BitVector Reads = Effects.effectsOf(I).Reads;
    if (!Reads.anyCommon(Exec))
      return false;
    Reads.reset(Exec);
    return Reads.none();
  }

  EffectModel Effects;
  CounterModel Counters;
  BitVector Exec;
};

bool sameStatement(const Instruction &A, const Instruction &B) {
  return A.kind() == B.kind() && A.mnemonic() == B.mnemonic() && A.operands() == B.operands();
}

Error notProven(const Twine &Why) { return createStringError(inconvertibleErrorCode(), Why); }

std::string quoted(const Instruction &I) {
  return "'" + I.mnemonic().str() + " " + formatOperands(I) + "'";
}

} // namespace

Error proveLoadRotation(ArrayRef<const Instruction *> OldPreheader,
                        ArrayRef<const Instruction *> OldBody, const BasicBlock &Preheader,
                        const BasicBlock &Body, const StringSet<> &AddressTaken,
                        const TargetInfo &TI) {
  RotationFacts Facts(TI);
  std::vector<const Instruction *> Pre = instructionsOf(Preheader), Trip = instructionsOf(Body);
  // The CFG: the preheader falls into the loop and is its only entry.
  if (Preheader.successors().size() != 1 || Preheader.successors()[0] != &Body ||
      Preheader.successorKinds()[0] != EdgeKind::FallThrough)
    return notProven("the preheader does not fall through into the loop alone");
  for (const BasicBlock *Pred : Body.predecessors())
    if (Pred != &Preheader && Pred != &Body)
      return notProven("the loop has another entry, " + Pred->name());
  // A jump through a register is an entry the CFG does not hold.
  if (Body.hasLabel() && AddressTaken.contains(Body.label()))
    return notProven("the address of " + Body.label() +
                     " is computed: the loop may be entered through a register");
  for (const BlockItem &Item : Body.items())
    if (!isa<Instruction>(Item))
      return notProven("the loop body holds a directive");
  if (Trip.size() != OldBody.size() || Pre.size() <= OldPreheader.size() ||
      Trip.back() != OldBody.back())
    return notProven("the blocks are not the old ones with loads moved");
  const size_t Moved = Pre.size() - OldPreheader.size(), Rest = Trip.size() - 1 - Moved;
  // The extra trip's loads run with no lane active.
  const Instruction &Branch = *Trip.back();
  if (!Facts.isExecNonZeroBranch(Branch))
    return notProven(quoted(Branch) + " does not leave the loop on an empty EXEC alone");
  size_t LastExecWrite = Trip.size();
  for (size_t K = 0; K + 1 < Trip.size(); ++K)
    if (Facts.writesExec(*Trip[K]))
      LastExecWrite = K;
  if (LastExecWrite == Trip.size())
    return notProven("nothing in the loop writes EXEC");
  for (size_t K = Rest; K + 1 < Trip.size(); ++K) {
    if (!Facts.isLaneLoad(*Trip[K]))
      return notProven(quoted(*Trip[K]) + " is not a per-lane vector load");
    if (K <= LastExecWrite)
      return notProven(quoted(*Trip[K]) + " of the next trip issues before the last EXEC write " +
                       quoted(*Trip[LastExecWrite]) + ": lanes that leave would load");
  }
  // The sequence: the old preheader, then the loads; the old body without
  // its loads, the loads again, its branch.
  for (size_t K = 0; K != OldPreheader.size(); ++K)
    if (Pre[K] != OldPreheader[K])
      return notProven("the preheader's own instructions changed");
  for (size_t K = 0; K != Moved; ++K)
    if (!sameStatement(*Pre[OldPreheader.size() + K], *OldBody[K]) ||
        !sameStatement(*Trip[Rest + K], *OldBody[K]))
      return notProven(quoted(*OldBody[K]) + " is not the load moved to both places");
  for (size_t K = 0; K != Rest; ++K)
    if (Trip[K] != OldBody[Moved + K])
      return notProven(quoted(*Trip[K]) + " is not where the old trip had it");
  return Error::success();
}

namespace {

class LoopLoadRotationPass final : public Pass {
public:
  StringRef name() const override { return "LoopLoadRotationPass"; }

  Expected<PreservedAnalyses> run(Module &M, AnalysisManager &AM,
                                  const PassScope &Scope) override {
    RotationFacts Facts(M.target());
    BlockCycleModel Timing(M);
    // A loop whose label's address is computed may be entered through a
    // register, past the preheader's loads.
    StringSet<> AddressTaken = addressTakenLabels(M);
    unsigned Rotated = 0, Loads = 0;
    uint64_t Saved = 0;
    for (Function &F : M.functions()) {
      if (!F.hasValidCFG()) {
        buildCFG(F);
        AM.invalidate(F, PreservedAnalyses::none());
      }
      Expected<LoopInfo &> Loops = AM.getResult<LoopAnalysis>(F);
      if (!Loops)
        return Loops.takeError();
      std::vector<std::pair<BasicBlock *, BasicBlock *>> Candidates;
      auto InScope = [&](const BasicBlock &BB) {
        return all_of(BB.instructions(),
                      [&](const Instruction &I) { return inScope(M, Scope, I); });
      };
      for (Loop *L : Loops->loopsInPreorder())
        if (L->size() == 1 && L->preheader() && InScope(*L->preheader()) &&
            InScope(*L->header()) &&
            !(L->header()->hasLabel() && AddressTaken.contains(L->header()->label())))
          Candidates.push_back({L->preheader(), L->header()});
      bool Changed = false;
      for (auto [Pre, Body] : Candidates) {
        Expected<unsigned> Moved = rotate(*Pre, *Body, Facts, Timing, AddressTaken, Saved, M);
        if (!Moved)
          return Moved.takeError();
        if (*Moved) {
          ++Rotated;
          Loads += *Moved;
          Changed = true;
        }
      }
      if (Changed)
        AM.invalidate(F, PreservedAnalyses::none());
    }
    if (Stats)
      context().statsStream() << "LoopLoadRotationPass: " << Rotated << " loops rotated, "
                              << Loads << " loads moved, " << Saved
                              << " estimated cycles saved per trip\n";
    // The functions it changed had their analyses invalidated above; the
    // others' stay valid (the wait analyses' cache of a large kernel).
    return PreservedAnalyses::all();
  }

  bool Stats = false;
  /// Tests only: put the next trip's loads before the body's last EXEC
  /// write, a transform the proof must refuse.
  bool Misplace = false;

private:
  /// The loads moved (0 when the loop is not a candidate or its steady
  /// state does not get faster).
  Expected<unsigned> rotate(BasicBlock &Pre, BasicBlock &Body, const RotationFacts &Facts,
                            const BlockCycleModel &Timing, const StringSet<> &AddressTaken,
                            uint64_t &Saved, const Module &M) const {
    std::vector<const Instruction *> OldPre = instructionsOf(Pre), OldBody = instructionsOf(Body);
    if (OldBody.size() < 2 || !Facts.isExecNonZeroBranch(*OldBody.back()) ||
        Pre.successorKinds().size() != 1 || Pre.successorKinds()[0] != EdgeKind::FallThrough ||
        (!OldPre.empty() && OldPre.back()->facts().has(IF_Branch)) ||
        any_of(Body.items(), [](const BlockItem &Item) { return !isa<Instruction>(Item); }))
      return 0;
    unsigned Moved = 0;
    while (Moved + 1 < OldBody.size() && Facts.isLaneLoad(*OldBody[Moved]))
      ++Moved;
    if (!Moved || Moved + 1 == OldBody.size())
      return 0;
    uint64_t Before = Timing.estimateSecondTrip(Body).Cycles;
    Instruction &Branch = const_cast<Instruction &>(*OldBody.back());
    Instruction *Anchor = &Branch;
    if (Misplace)
      for (size_t K = OldBody.size() - 1; K-- > Moved;)
        if (Facts.writesExec(*OldBody[K])) {
          Anchor = const_cast<Instruction *>(OldBody[K]);
          break;
        }
    std::vector<std::unique_ptr<Instruction>> Originals;
    std::vector<Instruction *> Copies;
    for (unsigned K = 0; K != Moved; ++K) {
      Copies.push_back(&Pre.append(OldBody[K]->clone()));
      Copies.push_back(&Body.insert(Anchor->getIterator(), OldBody[K]->clone()));
      Originals.push_back(const_cast<Instruction *>(OldBody[K])->removeFromParent());
    }
    if (Error E = proveLoadRotation(OldPre, OldBody, Pre, Body, AddressTaken, M.target())) {
      undo(Body, Copies, Originals);
      SourceLocation L = Branch.location();
      return sourceError(M.fileName(), L.Line, L.Column, Branch.sourceText().rtrim("\r\n"),
                         name() + ": rotation not proven: " + toString(std::move(E)));
    }
    uint64_t After = Timing.estimateSecondTrip(Body).Cycles;
    if (After >= Before) {
      undo(Body, Copies, Originals);
      return 0;
    }
    Saved += Before - After;
    return Moved;
  }

  /// Puts \p Originals back at the body's start and erases the copies.
  static void undo(BasicBlock &Body, ArrayRef<Instruction *> Copies,
                   std::vector<std::unique_ptr<Instruction>> &Originals) {
    for (Instruction *Copy : Copies)
      Copy->removeFromParent();
    auto Front = Body.instructions().begin();
    for (std::unique_ptr<Instruction> &I : Originals)
      Body.insert(Front, std::move(I));
  }
};

} // namespace

Expected<std::unique_ptr<Pass>> createLoopLoadRotationPass(const PassArguments &Args) {
  auto P = std::make_unique<LoopLoadRotationPass>();
  if (Error E = parseFlagArguments(Args, {{"stats", &P->Stats}, {"misplace", &P->Misplace}}))
    return std::move(E);
  return std::move(P);
}

} // namespace stinkytofu
