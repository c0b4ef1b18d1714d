//===- StableSortTest.cpp - Equal elements keep their order ---------------===//
#include "stinkytofu/support/StableSort.h"
#include "gtest/gtest.h"
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace {

TEST(StableSortTest, EqualKeysKeepTheirOrder) {
  std::vector<std::pair<int, std::string>> V = {
      {3, "a"}, {1, "b"}, {3, "c"}, {2, "d"}, {1, "e"}, {3, "f"}, {2, "g"}};
  stinkytofu::stableSort(V, [](const auto &A, const auto &B) { return A.first < B.first; });
  std::vector<std::pair<int, std::string>> Expected = {
      {1, "b"}, {1, "e"}, {2, "d"}, {2, "g"}, {3, "a"}, {3, "c"}, {3, "f"}};
  EXPECT_EQ(V, Expected);
}

TEST(StableSortTest, DescendingOrderAndMoveOnlyElements) {
  std::vector<std::unique_ptr<int>> V;
  for (int X : {1, 5, 3, 5, 1})
    V.push_back(std::make_unique<int>(X));
  std::vector<const int *> Before;
  for (const auto &P : V)
    Before.push_back(P.get());
  stinkytofu::stableSort(V, [](const auto &A, const auto &B) { return *A > *B; });
  // 5, 5, 3, 1, 1: the two 5s (positions 1, 3) and the two 1s (0, 4) in
  // their first order.
  std::vector<const int *> After;
  for (const auto &P : V)
    After.push_back(P.get());
  EXPECT_EQ(After, (std::vector<const int *>{Before[1], Before[3], Before[2], Before[0],
                                              Before[4]}));
}

TEST(StableSortTest, EmptyAndSingle) {
  std::vector<int> Empty, One = {7};
  stinkytofu::stableSort(Empty, [](int A, int B) { return A < B; });
  stinkytofu::stableSort(One, [](int A, int B) { return A < B; });
  EXPECT_TRUE(Empty.empty());
  EXPECT_EQ(One, std::vector<int>{7});
}

} // namespace
