//===- ScrambleSchedulePass.cpp - Random legal reordering, for tests ------===//
#include "stinkytofu/transforms/ScrambleSchedulePass.h"
#include "stinkytofu/analysis/ScheduleValidator.h"
#include "stinkytofu/ir/Module.h"
#include "stinkytofu/transforms/RegionReorder.h"
#include "stinkytofu/transforms/RewriteSupport.h"
#include "llvm/ADT/StringExtras.h"

using namespace llvm;

namespace stinkytofu {
namespace {

class ScrambleSchedulePass final : public Pass {
public:
  ScrambleSchedulePass(uint64_t Seed, unsigned Mutations, bool Stats)
      : Rng(Seed), Mutations(Mutations), Stats(Stats) {}
  StringRef name() const override { return "ScrambleSchedulePass"; }

  Expected<PreservedAnalyses> run(Module &M, AnalysisManager &AM, const PassScope &) override {
    unsigned Regions = 0, Reordered = 0, Tried = 0, Caught = 0;
    for (Function &F : M.functions()) {
      FunctionDependences &Deps = AM.getResult<DependenceDAGAnalysis>(F);
      for (unsigned R = 0; R != Deps.regions().size(); ++R) {
        const DependenceDAG &DAG = Deps.dag(R);
        ++Regions;
        if (Mutations) {
          mutate(DAG, Deps.effects(), Tried, Caught);
          continue;
        }
        Expected<bool> Moved =
            reorderRegion(Deps.regions()[R], randomTopologicalOrder(DAG, Rng), Deps.effects());
        if (!Moved)
          return Moved.takeError();
        Reordered += *Moved;
      }
    }
    if (Stats || Mutations) {
      raw_ostream &OS = context().statsStream();
      OS << "ScrambleSchedulePass: " << Regions << " regions, ";
      if (Mutations)
        OS << Tried << " dependent swaps, " << Caught << " refused by the validator\n";
      else
        OS << Reordered << " reordered\n";
    }
    return Reordered ? PreservedAnalyses::none() : PreservedAnalyses::all();
  }

private:
  /// Swaps the ends of random edges of \p DAG in the input order and
  /// counts the swaps the validator refuses.
  void mutate(const DependenceDAG &DAG, const EffectModel &EM, unsigned &Tried,
              unsigned &Caught) {
    if (DAG.edges().empty())
      return;
    std::vector<const Instruction *> Old(DAG.instructions().begin(), DAG.instructions().end());
    for (unsigned K = 0; K != Mutations; ++K) {
      const DepEdge &E = DAG.edges()[std::uniform_int_distribution<size_t>(
          0, DAG.edges().size() - 1)(Rng)];
      std::vector<const Instruction *> New = Old;
      std::swap(New[E.From], New[E.To]);
      ++Tried;
      if (Error Refused = validateReordering(Old, New, EM)) {
        consumeError(std::move(Refused));
        ++Caught;
      }
    }
  }

  std::mt19937_64 Rng;
  unsigned Mutations;
  bool Stats;
};

} // namespace

Expected<std::unique_ptr<Pass>> createScrambleSchedulePass(const PassArguments &Args) {
  uint64_t Seed = 1;
  unsigned Mutations = 0;
  bool Stats = false;
  for (const auto &[Key, Value] : Args) {
    if (Key == "seed" && to_integer(Value, Seed, 0))
      continue;
    if (Key == "mutations" && to_integer(Value, Mutations, 10))
      continue;
    if (Key == "stats" && Value.empty()) {
      Stats = true;
      continue;
    }
    return createStringError(inconvertibleErrorCode(),
                             "takes seed=N, mutations=N and stats, not '" + Key +
                                 (Value.empty() ? "" : "=" + Value) + "'");
  }
  return std::make_unique<ScrambleSchedulePass>(Seed, Mutations, Stats);
}

} // namespace stinkytofu
