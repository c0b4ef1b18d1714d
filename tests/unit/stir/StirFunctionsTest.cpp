//===- StirFunctionsTest.cpp - `.stir` function boundaries and edges ------===//
//
// A `st.func` whose first block lies inside another function of the text (a
// callee split off by CallTargetRecoveryPass) is read back as its own
// function; explicit `Successors:` keep their kinds.
//
//===----------------------------------------------------------------------===//
#include "TestModules.h"
#include "stinkytofu/asm/AsmWriter.h"
#include "stinkytofu/stir/StirWriter.h"

#include "gtest/gtest.h"

using namespace stinkytofu;

namespace {

const char *const Stir = R"(st.module @k {
  st.func @entry() {
  ^k:
    "st.s_cmp_eq_u32"(s0, 0)
    "st.s_cbranch_scc1"("label_B")
    Successors: ^label_B, ^bb1
  ^bb1:
    "st.s_cbranch_scc0"("label_B")
    Successors: ^label_B, ^label_B
  ^label_B:
    "st.s_endpgm"
  }
  st.func @label_Fn() {
  ^label_Fn:
    "st.v_mov_b32"(v0, 0)
    Successors: ^bb1
  ^bb1:
    "st.s_setpc_b64"(s[30:31])
  }
}
)";

std::unique_ptr<Module> readStir(llvm::StringRef Text) {
  return test::readStirText(Text, "gfx942");
}

TEST(StirFunctionsTest, CalleeInsideTheKernelTextBecomesAFunction) {
  auto M = readStir(Stir);
  ASSERT_TRUE(M);
  ASSERT_EQ(M->functions().size(), 2u);
  const Function &K = M->functions().front(), &Fn = M->functions().back();
  EXPECT_EQ(K.name(), "k");
  EXPECT_TRUE(K.isEntry());
  EXPECT_EQ(Fn.name(), "label_Fn");
  EXPECT_FALSE(Fn.isEntry());
  // Blocks are numbered per function, as printed.
  ASSERT_EQ(Fn.blocks().size(), 2u);
  EXPECT_EQ(Fn.blocks().back().name(), "bb1");
  EXPECT_EQ(Fn.blocks().front().successors().front(), &Fn.blocks().back());

  std::string Again;
  llvm::raw_string_ostream OS(Again);
  writeStir(*M, OS);
  auto M2 = readStir(Again);
  ASSERT_TRUE(M2);
  std::string Third;
  llvm::raw_string_ostream OS2(Third);
  writeStir(*M2, OS2);
  EXPECT_EQ(Third, Again);
}

TEST(StirFunctionsTest, SuccessorKindsFollowTheTerminator) {
  auto M = readStir(Stir);
  ASSERT_TRUE(M);
  const Function &K = M->functions().front();
  auto It = K.blocks().begin();
  const BasicBlock &Entry = *It++, &BB1 = *It++;
  EXPECT_EQ(Entry.successorKinds().vec(),
            (std::vector<EdgeKind>{EdgeKind::Branch, EdgeKind::FallThrough}));
  // A conditional branch to the next block: the branch edge, then the
  // fall-through to the same block.
  EXPECT_EQ(BB1.successorKinds().vec(),
            (std::vector<EdgeKind>{EdgeKind::Branch, EdgeKind::FallThrough}));
}

} // namespace
