//===- RocIsaPassTest.cpp - rocIsaPass's options and their order --------===//
#include "BridgeTestSupport.h"
#include "TestKernels.h"
#include "rocisa-bridge/pass/RocIsaPass.h"
#include "gtest/gtest.h"

using namespace rocisa;

namespace {

TEST(RocIsaPassTest, Defaults) {
  RocIsaPassOption O;
  EXPECT_FALSE(O.insertDelayAlu);
  EXPECT_TRUE(O.removeDupFunc);
  EXPECT_TRUE(O.removeDupAssign);
  EXPECT_TRUE(O.getCycles);
  EXPECT_EQ(O.numWaves, 0);
  EXPECT_TRUE(O.doOpt());
  RocIsaPassResult R;
  EXPECT_EQ(R.cycles, -1);
  EXPECT_EQ(R.maxVgpr, -1);
}

TEST(RocIsaPassTest, DuplicateRemovalRunsFirst) {
  auto K = test::activationKernel("gfx942", {1});
  RocIsaPassOption O;
  O.insertDelayAlu = true;
  auto R = rocIsaPass(*K, O);
  ASSERT_OK(R);
  EXPECT_EQ(R->steps, (std::vector<std::string>{"removeDuplicatedFunction", "macroToInstruction",
                                                "compositeToInstruction",
                                                "convertTextVariablesToRegisters"}));
  EXPECT_EQ(R->skipped, (std::vector<std::string>{"removeDuplicateAssignment", "insertDelayAlu",
                                                  "getCycles"}));
  EXPECT_EQ(R->duplicates.RemovedWrappers, 1u);
  EXPECT_EQ(R->maxVgpr, 128);
  EXPECT_EQ(R->cycles, -1);
}

TEST(RocIsaPassTest, TensileLitesActivationSettings) {
  // ActivationType=all: removeDupAssign off; no HasSchedMode: no delay ALU.
  auto K = test::activationKernel("gfx942", {1});
  RocIsaPassOption O;
  O.removeDupAssign = false;
  O.getCycles = false;
  O.numWaves = 4;
  auto R = rocIsaPass(*K, O);
  ASSERT_OK(R);
  EXPECT_EQ(R->steps.front(), "removeDuplicatedFunction");
  EXPECT_TRUE(R->skipped.empty());

  O.removeDupFunc = false;
  auto K2 = test::activationKernel("gfx942", {1});
  std::string Before = K2->toString();
  auto R2 = rocIsaPass(*K2, O);
  ASSERT_OK(R2);
  EXPECT_EQ(R2->steps.front(), "macroToInstruction");
  EXPECT_EQ(K2->toString(), Before);
}

} // namespace
