//===- StableSort.h - A stable sort that builds without warnings -*- C++ -*-===//
//
// libstdc++ 12's std::stable_sort (and llvm::stable_sort, which calls it)
// takes its scratch space from std::get_temporary_buffer, which C++20
// deprecates; clang warns at every use. This one sorts positions instead:
// equal elements keep their order because the position breaks the tie.
//
//===----------------------------------------------------------------------===//
#ifndef STINKYTOFU_SUPPORT_STABLESORT_H
#define STINKYTOFU_SUPPORT_STABLESORT_H

#include "llvm/ADT/STLExtras.h"
#include <numeric>
#include <vector>

namespace stinkytofu {

/// Sorts \p V by \p Less, keeping equal elements in their order.
template <typename T, typename LessT> void stableSort(std::vector<T> &V, LessT Less) {
  std::vector<size_t> Order(V.size());
  std::iota(Order.begin(), Order.end(), size_t(0));
  llvm::sort(Order, [&](size_t A, size_t B) {
    if (Less(V[A], V[B]))
      return true;
    return !Less(V[B], V[A]) && A < B;
  });
  std::vector<T> Sorted;
  Sorted.reserve(V.size());
  for (size_t I : Order)
    Sorted.push_back(std::move(V[I]));
  V = std::move(Sorted);
}

} // namespace stinkytofu

#endif
