//===- ModuleLiveness.cpp - Marker liveness of every function -------------===//
#include "asm-instrument/sqtt/ModuleLiveness.h"
#include "stinkytofu/analysis/CallGraph.h"
#include "stinkytofu/analysis/RegisterUsage.h"
#include "stinkytofu/ir/BranchVocabulary.h"
#include "stinkytofu/ir/Module.h"
#include "llvm/ADT/DenseSet.h"
#include <functional>

using namespace llvm;

namespace stinkytofu::sqtt {

namespace {

/// The call sites of every function, when every call of the module names
/// its callees (else none is known to have all its call sites here). A
/// function a tail call reaches returns to its tail caller's callers:
/// never closed.
struct CallSites {
  DenseMap<const Function *, SmallVector<std::pair<Function *, const Instruction *>, 4>> Of;
  DenseSet<const Function *> TailCalled;
  bool Complete = true;
};

CallSites findCallSites(Module &M) {
  CallSites S;
  for (Function &G : M.functions())
    for (const BasicBlock &BB : G.blocks())
      for (const Instruction &I : BB.instructions()) {
        if (isTailCall(I)) {
          for (const std::string &Name : getCallTargets(I))
            if (const Function *F = findCallee(M, Name))
              S.TailCalled.insert(F);
          continue;
        }
        if (!isCall(I))
          continue;
        std::vector<std::string> Callees = getCallTargets(I);
        if (Callees.empty())
          S.Complete = false;
        for (const std::string &Name : Callees)
          if (const Function *F = findCallee(M, Name))
            S.Of[F].emplace_back(&G, &I);
          else
            S.Complete = false;
      }
  return S;
}

} // namespace

LivenessMap markerLivenessOf(Module &M, ArrayRef<Function *> Funcs,
                             function_ref<bool(Function &)> Wanted) {
  CallSites Sites = findCallSites(M);
  auto Closed = [&](const Function &F) {
    return Sites.Complete && !F.isEntry() && Sites.Of.count(&F) && !isExported(F) &&
           !Sites.TailCalled.contains(&F);
  };
  LivenessMap LiveOf;
  auto Plain = [&](Function &F) -> MarkerLiveness & {
    std::unique_ptr<MarkerLiveness> &L = LiveOf[&F];
    if (!L)
      L = std::make_unique<MarkerLiveness>(F, followsCallingConvention(F),
                                           sgprBudget(F, /*AllowGrowth=*/true));
    return *L;
  };
  // A closed function's callers first; a closed caller (nested activation
  // calls) is itself refined first, a recursive one stays plain.
  DenseSet<const Function *> InProgress;
  std::function<MarkerLiveness &(Function &)> Of = [&](Function &F) -> MarkerLiveness & {
    if (LiveOf.count(&F) || !Closed(F) || !InProgress.insert(&F).second)
      return Plain(F);
    CallerView V;
    std::optional<unsigned> Sgprs, Vgprs;
    for (auto [G, Call] : Sites.Of.lookup(&F)) {
      MarkerLiveness &Caller = Of(*G);
      if (V.LiveAfterReturn.empty())
        V.LiveAfterReturn = V.LanesAfterReturn = Caller.units().none();
      V.LiveAfterReturn |= Caller.liveAfter(*Call);
      V.LanesAfterReturn |= Caller.laneLiveAfter(*Call);
      if (std::optional<MCRegister> Kept = Caller.freeSGPR())
        Caller.units().set(V.LiveAfterReturn, *Kept);
      Sgprs = std::min(Sgprs.value_or(UINT_MAX), Caller.budget().Budget);
      Vgprs = std::min(Vgprs.value_or(UINT_MAX), Caller.vgprBudget());
    }
    InProgress.erase(&F);
    SGPRBudget B;
    B.Budget = B.Limit = std::max(sgprBudget(F, /*AllowGrowth=*/false).Budget, *Sgprs);
    V.VGPRBudget = std::max(namedVGPRCount(F), *Vgprs);
    LiveOf[&F] = std::make_unique<MarkerLiveness>(F, followsCallingConvention(F), B, &V);
    return *LiveOf[&F];
  };
  for (Function *F : Funcs)
    if (Wanted(*F))
      Of(*F);
  return LiveOf;
}

} // namespace stinkytofu::sqtt
