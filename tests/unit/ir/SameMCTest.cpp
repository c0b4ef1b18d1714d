//===- SameMCTest.cpp - Equal MC instructions -----------------------------===//
//
// The wait analysis describes statements that assembled alike once
// (WaitCountAnalysis, contentKey): sameMC must tell apart every opcode,
// register and immediate, and an expression unless the caller never reads
// one; hashMC must agree with it.
//
//===----------------------------------------------------------------------===//
#include "stinkytofu/ir/SameMC.h"
#include "TestModules.h"
#include "stinkytofu/ir/Module.h"
#include "gtest/gtest.h"

using namespace stinkytofu;
using namespace stinkytofu::test;

namespace {

TEST(SameMCTest, EqualExactlyWhenAssembledAlike) {
  std::unique_ptr<Module> M = readAsmText(R"(k:
  global_load_dword v2, v[0:1], off offset:4
  global_load_dword v2, v[0:1], off offset:4
  global_load_dword v2, v[0:1], off offset:8
  global_load_dword v3, v[0:1], off offset:4
  global_store_dword v[0:1], v2, off offset:4
  s_cbranch_scc0 A
  s_cbranch_scc0 B
A:
B:
  s_endpgm
)",
                                          "gfx942");
  ASSERT_TRUE(M);
  std::vector<const Instruction *> I = allInstructions(*M);
  ASSERT_EQ(I.size(), 8u);
  auto Same = [&](unsigned A, unsigned B, bool ExpressionsAlike = false) {
    bool Equal = sameMC(I[A]->mcInsts(), I[B]->mcInsts(), ExpressionsAlike);
    if (Equal)
      EXPECT_EQ(hashMC(I[A]->mcInsts(), ExpressionsAlike),
                hashMC(I[B]->mcInsts(), ExpressionsAlike));
    return Equal;
  };
  EXPECT_TRUE(Same(0, 1));  // the same text read twice
  EXPECT_FALSE(Same(0, 2)); // another offset
  EXPECT_FALSE(Same(0, 3)); // another register
  EXPECT_FALSE(Same(0, 4)); // another opcode
  // Branches to different labels: different expressions, alike as such.
  EXPECT_FALSE(Same(5, 6));
  EXPECT_TRUE(Same(5, 6, /*ExpressionsAlike=*/true));
  EXPECT_FALSE(Same(0, 2, /*ExpressionsAlike=*/true));
}

} // namespace
