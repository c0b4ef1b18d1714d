//===- RegionReorder.cpp - Putting a scheduling region into a new order ----===//
#include "stinkytofu/transforms/RegionReorder.h"
#include "stinkytofu/analysis/ScheduleValidator.h"

using namespace llvm;

namespace stinkytofu {

namespace {

/// Moves the instructions of \p Region into \p Order once \p Validate
/// accepted the old and new orders.
Expected<bool>
moveInto(const ScheduleRegion &Region, ArrayRef<unsigned> Order,
         function_ref<Error(ArrayRef<const Instruction *>, ArrayRef<const Instruction *>)>
             Validate) {
  std::vector<const Instruction *> Old(Region.Insts.begin(), Region.Insts.end()), New;
  for (unsigned K : Order)
    New.push_back(K < Old.size() ? Old[K] : nullptr);
  if (Error E = Validate(Old, New))
    return std::move(E);
  bool Moved = false;
  Instruction *Prev = nullptr;
  for (unsigned K : Order) {
    Instruction &I = *Region.Insts[K];
    // The first goes where the region starts (after the directives in
    // front of it), each next one right after the one before.
    if (!Prev) {
      if (&I != Region.Insts.front()) {
        I.moveBefore(*Region.Insts.front());
        Moved = true;
      }
    } else if (std::next(Prev->getIterator()) == Prev->parent()->instructions().end() ||
               &*std::next(Prev->getIterator()) != &I) {
      I.moveAfter(*Prev);
      Moved = true;
    }
    Prev = &I;
  }
  return Moved;
}

} // namespace

Expected<bool> reorderRegion(const ScheduleRegion &Region, ArrayRef<unsigned> Order,
                             const EffectModel &EM) {
  return moveInto(Region, Order, [&](auto Old, auto New) {
    return validateReordering(Old, New, EM);
  });
}

Expected<bool> reorderRegion(const ScheduleRegion &Region, ArrayRef<unsigned> Order,
                             const DependenceDAG &DAG, const RegisterUnits &RU) {
  return moveInto(Region, Order, [&](auto Old, auto New) {
    return validateReordering(Old, New, DAG.effects(), RU);
  });
}

std::vector<unsigned> randomTopologicalOrder(const DependenceDAG &DAG, std::mt19937_64 &Rng) {
  std::vector<unsigned> Pending(DAG.size()), Ready, Order;
  for (unsigned N = 0; N != DAG.size(); ++N)
    if (!(Pending[N] = DAG.preds(N).size()))
      Ready.push_back(N);
  while (!Ready.empty()) {
    size_t Pick = std::uniform_int_distribution<size_t>(0, Ready.size() - 1)(Rng);
    unsigned N = Ready[Pick];
    Ready[Pick] = Ready.back();
    Ready.pop_back();
    Order.push_back(N);
    for (unsigned EdgeIdx : DAG.succs(N))
      if (!--Pending[DAG.edges()[EdgeIdx].To])
        Ready.push_back(DAG.edges()[EdgeIdx].To);
  }
  return Order;
}

} // namespace stinkytofu
