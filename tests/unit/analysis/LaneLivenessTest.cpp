//===- LaneLivenessTest.cpp - Vector registers live in some lane ----------===//
#include "analysis/AnalysisTestModules.h"
#include "stinkytofu/analysis/LaneLiveness.h"
#include "stinkytofu/analysis/Liveness.h"

#include "gtest/gtest.h"

using namespace stinkytofu;
using namespace stinkytofu::analysistest;

namespace {

/// A module read from text with both liveness analyses of its first
/// function.
struct Analysed {
  std::unique_ptr<Module> M;
  std::unique_ptr<Liveness> L;
  std::unique_ptr<LaneLiveness> Lanes;
  explicit Analysed(llvm::StringRef Text) : M(readModule(Text)) {
    if (!M)
      return;
    L = std::make_unique<Liveness>(M->functions().front());
    Lanes = std::make_unique<LaneLiveness>(*L);
  }
  llvm::MCRegister vgpr(unsigned I) const { return M->target().reg32(RegClass::VGPR, I); }
};

// v4 is written and read under one EXEC; v1's second write is under another
// EXEC than the add that reads it; v3 is read by v_readlane_b32, whatever
// EXEC is.
const char *const Lanes = R"(
k:
  v_mov_b32 v4, 1
  v_add_u32 v5, v4, v4
  v_mov_b32 v1, 7
  s_mov_b64 exec, s[2:3]
  v_mov_b32 v1, s4
  s_mov_b64 exec, -1
  v_add_u32 v1, v5, v1
  v_readlane_b32 s6, v3, 5
  global_store_dword v0, v1, s[0:1]
  s_endpgm
)";

TEST(LaneLivenessTest, ExecMaskedWritesKillOnlyUnderTheSameExec) {
  Analysed A(Lanes);
  ASSERT_TRUE(A.M);
  Module &M = *A.M;
  const RegisterUnits &RU = A.L->units();
  auto V = [&](unsigned I) { return A.vgpr(I); };

  Instruction &First = *instOf(M, "v_mov_b32", 0);
  llvm::BitVector AtStart = A.Lanes->liveBefore(First);
  EXPECT_FALSE(RU.any(AtStart, V(4))); // written before read, one EXEC
  EXPECT_TRUE(RU.any(AtStart, V(3)));  // a lane read whatever EXEC is
  EXPECT_TRUE(RU.any(AtStart, V(0)));
  EXPECT_FALSE(RU.any(AtStart, V(6))); // never read

  // Register liveness calls v1 dead before its second write, but the lanes
  // that write leaves are read once EXEC is widened.
  Instruction &Second = *instOf(M, "v_mov_b32", 2);
  EXPECT_FALSE(A.L->isLiveBefore(Second, V(1)));
  EXPECT_TRUE(RU.any(A.Lanes->liveBefore(Second), V(1)));

  // Nothing is read after the program ends.
  EXPECT_FALSE(A.Lanes->liveAtEnd(M.functions().front().blocks().back()).any());
}

// A return: the caller's inactive lanes are in every VGPR.
const char *const Callable = R"(
.type f,@function
f:
  v_mov_b32 v1, 7
  s_setpc_b64 s[30:31]
)";

TEST(LaneLivenessTest, EveryVgprIsLiveAtAReturn) {
  Analysed A(Callable);
  ASSERT_TRUE(A.M);
  EXPECT_TRUE(A.L->units().any(A.Lanes->liveBefore(*instOf(*A.M, "v_mov_b32")), A.vgpr(1)));
}

} // namespace
