//===- TDMInflightGuardPass.cpp - A cap on a wave's tensor ops in flight ---===//
#include "stinkytofu/transforms/TDMInflightGuardPass.h"

#include "stinkytofu/analysis/CallGraph.h"
#include "stinkytofu/analysis/Dataflow.h"
#include "stinkytofu/hw/TargetInfo.h"
#include "stinkytofu/hw/WaitCounters.h"
#include "stinkytofu/ir/BranchVocabulary.h"
#include "stinkytofu/ir/Module.h"
#include "stinkytofu/mc/InstInserter.h"
#include "stinkytofu/transforms/CFGBuilderPass.h"
#include "stinkytofu/transforms/RewriteSupport.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringExtras.h"

using namespace llvm;

namespace stinkytofu {
namespace {

class TDMInflightGuardPass final : public Pass {
public:
  explicit TDMInflightGuardPass(unsigned Limit) : Limit(Limit) {}
  StringRef name() const override { return "TDMInflightGuardPass"; }

  Expected<PreservedAnalyses> run(Module &M, AnalysisManager &, const PassScope &Scope) override {
    CounterModel Counters(M.target());
    std::optional<unsigned> TensorCounter = Counters.counterOf(WaitEvent::TensorLds);
    if (!TensorCounter)
      return moduleError(M, name() + ": " + M.target().processor() +
                                " has no tensor counter (the pass is for gfx1250)");
    // The bound holds on every path only when every function is seen.
    if (Limit == 0 || !coversWholeModule(Scope))
      return PreservedAnalyses::all();
    Guard G{Counters, *TensorCounter, Counters.counterMax(*TensorCounter) + 1, Limit, {}, {}};
    G.findQuietCallees(M);
    for (Function &F : M.functions()) {
      if (!F.hasValidCFG())
        buildCFG(F);
      G.analyze(F);
    }
    InstBuilder Builder(M);
    for (Instruction *Issue : G.Guarded) {
      InstInserter At(Builder);
      At.setInsertPointBefore(*Issue);
      Expected<Instruction &> Wait =
          At.build("s_wait_tensorcnt", {BuildOperand::imm(int64_t(Limit) - 1)});
      if (!Wait)
        return createStringError(inconvertibleErrorCode(),
                                 name() + ": " + toString(Wait.takeError()));
      Wait->setModifier(std::make_unique<CommentData>(
          "at most " + std::to_string(Limit) + " tensor operations in flight per wave"));
    }
    return G.Guarded.empty() ? PreservedAnalyses::all() : PreservedAnalyses::none();
  }

private:
  struct Guard {
    const CounterModel &Counters;
    unsigned TensorCounter;
    /// A bound the counter cannot reach: nothing is known.
    unsigned Unknown;
    unsigned Limit;
    /// The tensor operations that get a wait, in program order.
    std::vector<Instruction *> Guarded;
    /// Functions of the module a call may run without changing the bound:
    /// they and everything they call issue no tensor operation and hold
    /// nothing MC does not know.
    DenseSet<const Function *> Quiet;

    bool issuesTensorOp(const Instruction &I) const {
      return any_of(I.mcInsts(), [&](const MCInst &Inst) {
        return Counters.classify(Inst, I.mnemonic()).has(WaitEvent::TensorLds);
      });
    }

    /// Whether every callee of \p Call is a quiet function of \p M.
    bool callsQuietOnly(const Module &M, const Instruction &Call) const {
      std::vector<std::string> Callees = getCallTargets(Call);
      return !Callees.empty() && all_of(Callees, [&](const std::string &Name) {
        const Function *F = findCallee(M, Name);
        return F && Quiet.count(F);
      });
    }

    void findQuietCallees(const Module &M) {
      // A function is loud when it issues a tensor operation, holds an
      // opaque statement or calls something unknown; quiet when neither it
      // nor any function it may run is loud.
      auto IsLoud = [&](const Instruction &I) {
        if (I.kind() == InstKind::Opaque)
          return true;
        if (I.kind() == InstKind::Pseudo)
          return false;
        if (issuesTensorOp(I))
          return true;
        if (!I.facts().has(IF_Call))
          return false;
        std::vector<std::string> Callees = getCallTargets(I);
        return Callees.empty() ||
               any_of(Callees, [&](const std::string &Name) { return !findCallee(M, Name); });
      };
      DenseSet<const Function *> Loud;
      for (const Function &F : M.functions())
        for (const BasicBlock &BB : F.blocks())
          if (any_of(BB.instructions(), IsLoud))
            Loud.insert(&F);
      CallGraph CG(M);
      for (const Function &F : M.functions())
        if (!Loud.count(&F) && none_of(CG.transitiveCallees(F), [&](const Function *C) {
              return Loud.count(C);
            }))
          Quiet.insert(&F);
    }

    /// The bound after \p I, given \p Bound before it; \p Guard is called
    /// for a tensor operation issued with \p Limit or more in flight.
    template <typename GuardFn>
    unsigned step(const Module &M, const Instruction &I, unsigned Bound, GuardFn Guard) const {
      if (I.kind() == InstKind::Opaque)
        return Unknown;
      if (I.kind() == InstKind::Pseudo)
        return Bound;
      if (I.facts().has(IF_Call))
        return callsQuietOnly(M, I) ? Bound : Unknown;
      bool Guarded = false;
      for (const MCInst &Inst : I.mcInsts()) {
        if (std::optional<WaitCounts> Counts = Counters.decodeWait(Inst, I.mnemonic());
            Counts && Counts->waits(TensorCounter))
          Bound = std::min<unsigned>(Bound, Counts->Count[TensorCounter]);
        if (!Counters.classify(Inst, I.mnemonic()).has(WaitEvent::TensorLds))
          continue;
        // Only the first operation of a macro can get a wait in front.
        if (Bound >= Limit && !Guarded) {
          Guard();
          Guarded = true;
          Bound = Limit - 1;
        }
        Bound = std::min(Bound + 1, Unknown);
      }
      return Bound;
    }

    /// The largest bound at the start of each reachable block (InFlightBounds),
    /// then the tensor operations that need a wait.
    void analyze(Function &F) {
      if (F.blocks().empty())
        return;
      InFlightBounds Bounds(F, *this);
      cantFail(Bounds.run());
      for (BasicBlock &BB : F.blocks()) {
        InFlight In = Bounds.stateIn(BB);
        if (!In.Reached)
          continue;
        for (Instruction &I : BB.instructions())
          In.Bound = step(*F.parent(), I, In.Bound, [&] { Guarded.push_back(&I); });
      }
    }
  };

  /// The most tensor operations in flight where a path reaches.
  struct InFlight {
    bool Reached = false;
    unsigned Bound = 0;
    bool operator==(const InFlight &) const = default;
  };

  /// Forward, the largest bound over the paths: a kernel starts with none
  /// in flight, a callable function with nothing known.
  class InFlightBounds
      : public DataflowAnalysis<InFlightBounds, InFlight, DataflowDirection::Forward> {
  public:
    InFlightBounds(const Function &F, const Guard &G) : DataflowAnalysis(F), F(F), G(G) {}
    InFlight initialState() const { return {}; }
    InFlight entryState() const { return {true, F.isEntry() ? 0 : G.Unknown}; }
    void join(InFlight &Into, const InFlight &From) const {
      if (From.Reached)
        Into = {true, Into.Reached ? std::max(Into.Bound, From.Bound) : From.Bound};
    }
    void transfer(const Instruction &I, InFlight &S) const {
      if (S.Reached)
        S.Bound = G.step(*F.parent(), I, S.Bound, [] {});
    }

  private:
    const Function &F;
    const Guard &G;
  };

  unsigned Limit;
};

} // namespace

Expected<std::unique_ptr<Pass>> createTDMInflightGuardPass(const PassArguments &Args) {
  unsigned Limit = 11;
  for (const auto &[Key, Value] : Args)
    if (Key != "limit" || !to_integer(Value, Limit, 10))
      return createStringError(inconvertibleErrorCode(),
                               "takes limit=N (tensor operations in flight per wave, 0: off), "
                               "not '" +
                                   Key + (Value.empty() ? "" : "=" + Value) + "'");
  return std::make_unique<TDMInflightGuardPass>(Limit);
}

} // namespace stinkytofu
