//===- InsertedWaitProofTest.cpp - Waits of code that only gained instructions ===//
//
// The input's wait analysis proves an output that only gained quiet
// instructions, and nothing else: an inserted instruction that reads or
// overwrites a load's pending result, starts a memory operation, or ends
// the function, and any change to the input's own instructions (moved,
// erased, edited), leaves the output to be analysed again.
//
//===----------------------------------------------------------------------===//
#include "analysis/AnalysisTestModules.h"
#include "stinkytofu/analysis/InsertedWaitProof.h"
#include "stinkytofu/mc/InstBuilder.h"
#include "stinkytofu/transforms/CFGBuilderPass.h"

#include "llvm/Support/Error.h"
#include "gtest/gtest.h"

using namespace stinkytofu;
using namespace stinkytofu::analysistest;

namespace {

constexpr const char *LoadThenUse = R"(
k:
  global_load_dword v8, v[2:3], off
  v_mov_b32 v1, 0
  s_waitcnt vmcnt(0)
  v_mul_f32_e32 v10, v8, v8
  s_endpgm
)";

/// The input's wait analyses kept as the input check keeps them.
InputWaitStates keepInput(Module &M) {
  InputWaitStates States;
  const CounterModel &CM = States.counters(M.target());
  for (Function &F : M.functions()) {
    buildCFG(F);
    WaitCountOptions Opts;
    Opts.CorrelateBranches = false;
    Opts.DescribePaths = false;
    Opts.KeepStates = true;
    llvm::Expected<WaitCountAnalysis> A = WaitCountAnalysis::run(F, CM, Opts);
    EXPECT_TRUE(bool(A)) << llvm::toString(A.takeError());
    if (A)
      States.keep(F, std::move(*A));
  }
  return States;
}

/// Inserts \p Statement before the \p N-th \p Before (after it with \p After).
void insert(Module &M, llvm::StringRef Before, llvm::StringRef Statement, bool After = false,
            unsigned N = 0) {
  InstBuilder Builder(M);
  llvm::Expected<Instruction> I = Builder.parse(Statement);
  ASSERT_TRUE(bool(I)) << llvm::toString(I.takeError());
  Instruction *At = instOf(M, Before, N);
  ASSERT_TRUE(At);
  auto Pos = At->getIterator();
  At->parent()->insert(After ? std::next(Pos) : Pos, std::move(*I));
}

/// Whether the input's analysis proves \p Kernel after \p Change.
template <typename ChangeT> bool provenAfter(ChangeT Change, const char *Kernel = LoadThenUse) {
  std::unique_ptr<Module> M = readModule(Kernel);
  EXPECT_TRUE(M);
  if (!M)
    return false;
  InputWaitStates States = keepInput(*M);
  Change(*M);
  for (Function &F : M->functions())
    if (!F.hasValidCFG())
      buildCFG(F);
  return States.provesInsertionsQuiet(*M);
}

TEST(InsertedWaitProof, QuietCodeIsProven) {
  EXPECT_TRUE(provenAfter([](Module &) {}));
  EXPECT_TRUE(provenAfter([](Module &M) {
    insert(M, "v_mul_f32_e32", "s_nop 0");
    insert(M, "global_load_dword", "s_mov_b32 s10, 0", /*After=*/true);
    insert(M, "global_load_dword", "v_mov_b32 v20, v1");
  }));
  // After the wait, the load's result is there to read and overwrite.
  EXPECT_TRUE(provenAfter([](Module &M) {
    insert(M, "s_waitcnt", "v_mov_b32 v9, v8", /*After=*/true);
    insert(M, "s_waitcnt", "v_mov_b32 v8, 0", /*After=*/true);
  }));
}

// The scalar load is waited for on one way to L only.
constexpr const char *WaitOnOneWay = R"(
k:
  s_load_dword s2, s[0:1], 0x0
  s_cmp_eq_u32 s4, 0
  s_cbranch_scc0 L
  s_waitcnt lgkmcnt(0)
  s_add_u32 s3, s2, 1
L:
  s_waitcnt lgkmcnt(0)
  s_endpgm
)";

TEST(InsertedWaitProof, CodeIsAskedAboutWhereItStands) {
  // After s_add_u32, only the way that waited reaches the code: s2 is
  // there to overwrite, though the load may still be in flight at L.
  EXPECT_TRUE(provenAfter([](Module &M) { insert(M, "s_add_u32", "s_mov_b32 s2, 0", true); },
                          WaitOnOneWay));
  // At L, the way that skipped the wait arrives too.
  EXPECT_FALSE(provenAfter([](Module &M) { insert(M, "s_waitcnt", "s_mov_b32 s2, 0", false, 1); },
                           WaitOnOneWay));
}

TEST(InsertedWaitProof, CodeThatNeedsAWaitIsNot) {
  // Reads, then overwrites, the load's result before the wait.
  EXPECT_FALSE(provenAfter([](Module &M) { insert(M, "s_waitcnt", "v_mov_b32 v9, v8"); }));
  EXPECT_FALSE(provenAfter([](Module &M) { insert(M, "v_mov_b32", "v_mov_b32 v8, 0"); }));
}

TEST(InsertedWaitProof, CodeThatStartsMemoryWorkIsNot) {
  // Nothing reads v20, but the counter the original wait counts moves.
  EXPECT_FALSE(provenAfter([](Module &M) {
    insert(M, "v_mov_b32", "global_load_dword v20, v[2:3], off");
  }));
}

TEST(InsertedWaitProof, CodeAfterTheEndIsNot) {
  EXPECT_FALSE(provenAfter([](Module &M) { insert(M, "s_endpgm", "s_nop 0", /*After=*/true); }));
}

TEST(InsertedWaitProof, ChangedOriginalsAreNot) {
  // Moved (the same instruction, its stamp kept): v_mov_b32 ahead of the
  // load.
  EXPECT_FALSE(provenAfter([](Module &M) {
    Instruction *Load = instOf(M, "global_load_dword");
    BasicBlock &BB = *Load->parent();
    std::unique_ptr<Instruction> Mov = instOf(M, "v_mov_b32")->removeFromParent();
    uint64_t Stamp = Mov->stamp();
    Instruction &Placed = BB.insert(Load->getIterator(), std::move(Mov));
    EXPECT_EQ(Placed.stamp(), Stamp);
  }));
  // Erased.
  EXPECT_FALSE(provenAfter([](Module &M) { instOf(M, "v_mov_b32")->removeFromParent(); }));
  // Edited in place: vmcnt(0) -> vmcnt(1).
  EXPECT_FALSE(provenAfter([](Module &M) {
    InstBuilder Builder(M);
    ASSERT_FALSE(bool(
        Builder.rewrite(*instOf(M, "s_waitcnt"), {BuildOperand::waitcnt({.VmCnt = 1u})})));
  }));
}

} // namespace
