//===- PathPartitionsTest.cpp - Partitions of a state by branch facts ----===//
//
// PathPartitions on a toy state (an int, joined by max): partitions with
// the same facts join; partitions with the same state join too, keeping
// the facts they share, and the fewer facts may then be another
// partition's; partitions with different states and facts stay apart
// until the cap.
//
//===----------------------------------------------------------------------===//
#include "stinkytofu/analysis/PathPartitions.h"

#include "gtest/gtest.h"

#include <algorithm>

using namespace stinkytofu;

namespace {

using IntPartitions = PathPartitions<int>;

/// The facts \p Facts (condition, nonzero), sorted as PathFacts keeps them.
PathFacts factsOf(std::initializer_list<BranchFact> Facts) {
  PathFacts P;
  P.Facts.assign(Facts.begin(), Facts.end());
  llvm::sort(P.Facts);
  return P;
}

void maxJoin(int &Into, const int &From) { Into = std::max(Into, From); }

TEST(PathPartitionsTest, SameFactsJoinTheirStates) {
  IntPartitions P;
  P.add(factsOf({{0, true}}), 3, maxJoin);
  P.add(factsOf({{0, true}}), 5, maxJoin);
  ASSERT_EQ(P.Parts.size(), 1u);
  EXPECT_EQ(P.Parts[0].State, 5);
  EXPECT_EQ(P.Parts[0].Facts, factsOf({{0, true}}));
}

TEST(PathPartitionsTest, SameStateJoinsKeepingTheSharedFacts) {
  // Both ways around a diamond that changes nothing: one partition, and
  // neither way's fact (a later branch on the condition adds it again).
  IntPartitions P;
  P.add(factsOf({{0, true}, {1, false}}), 4, maxJoin);
  P.add(factsOf({{0, false}, {1, false}}), 4, maxJoin);
  ASSERT_EQ(P.Parts.size(), 1u);
  EXPECT_EQ(P.Parts[0].State, 4);
  EXPECT_EQ(P.Parts[0].Facts, factsOf({{1, false}}));
}

TEST(PathPartitionsTest, SharedFactsOfAnotherPartitionJoinIt) {
  IntPartitions P;
  P.add(factsOf({{1, true}}), 7, maxJoin);
  P.add(factsOf({{0, true}, {1, true}}), 2, maxJoin);
  ASSERT_EQ(P.Parts.size(), 2u);
  // Same state as the second partition; what they share, {1 nonzero}, is
  // the first one's facts: all three paths end in one partition.
  P.add(factsOf({{0, false}, {1, true}}), 2, maxJoin);
  ASSERT_EQ(P.Parts.size(), 1u);
  EXPECT_EQ(P.Parts[0].State, 7);
  EXPECT_EQ(P.Parts[0].Facts, factsOf({{1, true}}));
}

TEST(PathPartitionsTest, DifferentStatesAndFactsStayApartUpToTheCap) {
  IntPartitions P;
  P.add(factsOf({{0, true}}), 1, maxJoin);
  P.add(factsOf({{0, false}}), 2, maxJoin);
  P.add(factsOf({{0, false}, {1, true}}), 3, maxJoin);
  ASSERT_EQ(P.Parts.size(), 3u);
  P.limit(2, maxJoin);
  // The two sharing a fact merge; the other keeps its own.
  ASSERT_EQ(P.Parts.size(), 2u);
  EXPECT_EQ(P.Parts[0].Facts, factsOf({{0, false}}));
  EXPECT_EQ(P.Parts[0].State, 3);
  EXPECT_EQ(P.Parts[1].Facts, factsOf({{0, true}}));
  EXPECT_EQ(P.Parts[1].State, 1);
}

} // namespace
