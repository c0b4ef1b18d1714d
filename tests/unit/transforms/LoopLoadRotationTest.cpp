//===- LoopLoadRotationTest.cpp - The proof of a loop load rotation -------===//
#include "TransformTestUtil.h"
#include "stinkytofu/analysis/AddressChains.h"
#include "stinkytofu/transforms/CFGBuilderPass.h"
#include "stinkytofu/transforms/LoopLoadRotationPass.h"

using namespace stinkytofu;
using namespace stinkytofu::transformtest;

namespace {

/// A divergent loop as LLVM writes it: the load first, its address updated
/// in the trip, the exit mask, EXEC emptied lane by lane.
constexpr const char *DivergentLoop = R"(
k:
  s_mov_b64 s[8:9], 0
  v_mov_b32 v2, 0
.LBB0_1:
  global_load_dword v12, v[10:11], off
  v_add_co_u32_e32 v10, vcc, 0x100, v10
  v_addc_co_u32_e32 v11, vcc, 0, v11, vcc
  v_add_u32_e32 v6, -1, v6
  v_cmp_eq_u32_e64 s[4:5], 0, v6
  s_or_b64 s[8:9], s[4:5], s[8:9]
  s_waitcnt vmcnt(0)
  v_add_f32_e32 v2, v2, v12
  s_andn2_b64 exec, exec, s[8:9]
  s_cbranch_execnz .LBB0_1
  s_or_b64 exec, exec, s[8:9]
  s_endpgm
)";

std::vector<const Instruction *> blockInstructions(const BasicBlock &BB) {
  std::vector<const Instruction *> Insts;
  for (const Instruction &I : BB.instructions())
    Insts.push_back(&I);
  return Insts;
}

/// A rotation by hand: the body's first load copied to the preheader's end
/// (\p PreheaderCopy when given) and before \p Anchor (the branch when
/// null), the original kept in \p Original.
struct HandRotation {
  std::unique_ptr<Module> M;
  BasicBlock *Pre = nullptr, *Body = nullptr;
  std::vector<const Instruction *> OldPre, OldBody;
  std::unique_ptr<Instruction> Original;

  explicit HandRotation(llvm::StringRef Text) : M(read(Text, "gfx90a")) {
    if (!M)
      return;
    buildCFG(M->functions().front());
    Pre = &M->functions().front().blocks().front();
    Body = blockOf(*M, ".LBB0_1");
    OldPre = blockInstructions(*Pre);
    OldBody = blockInstructions(*Body);
  }

  void rotate(const Instruction *Anchor = nullptr, const Instruction *PreheaderCopy = nullptr) {
    auto *Load = const_cast<Instruction *>(OldBody.front());
    Pre->append((PreheaderCopy ? PreheaderCopy : Load)->clone());
    Body->insert((Anchor ? Anchor : OldBody.back())->getIterator(), Load->clone());
    Original = Load->removeFromParent();
  }

  std::string proof() {
    llvm::Error E =
        proveLoadRotation(OldPre, OldBody, *Pre, *Body, addressTakenLabels(*M), M->target());
    return E ? llvm::toString(std::move(E)) : "proven";
  }
};

TEST(LoopLoadRotationTest, ProvesTheLoadMovedBehindTheExecWrite) {
  HandRotation R(DivergentLoop);
  ASSERT_TRUE(R.M);
  R.rotate();
  EXPECT_EQ(R.proof(), "proven");
}

TEST(LoopLoadRotationTest, RefusesTheLoadBeforeTheExecWrite) {
  HandRotation R(DivergentLoop);
  ASSERT_TRUE(R.M);
  R.rotate(R.OldBody[R.OldBody.size() - 2]);
  // The moved loads stand right before the branch, or the sequence is not
  // the old one: the proof finds the EXEC write in their place.
  EXPECT_EQ(R.proof(), "'s_andn2_b64 exec, exec, s[8:9]' is not a per-lane vector load");
}

TEST(LoopLoadRotationTest, RefusesAPreheaderCopyOfAnotherInstruction) {
  HandRotation R(DivergentLoop);
  ASSERT_TRUE(R.M);
  // Trip 0 would not load: the preheader gets a copy of the address update.
  R.rotate(nullptr, R.OldBody[1]);
  EXPECT_EQ(R.proof(),
            "'global_load_dword v12, v[10:11], off' is not the load moved to both places");
}

TEST(LoopLoadRotationTest, RefusesATripInAnotherOrder) {
  HandRotation R(DivergentLoop);
  ASSERT_TRUE(R.M);
  R.rotate();
  // The loaded value read before the wait: not the old trip any more.
  auto *Add = const_cast<Instruction *>(R.OldBody[7]);
  Add->moveBefore(*const_cast<Instruction *>(R.OldBody[6]));
  EXPECT_EQ(R.proof(), "'v_add_f32_e32 v2, v2, v12' is not where the old trip had it");
}

TEST(LoopLoadRotationTest, RefusesALoopLeavingThroughScc) {
  // A uniform loop: after the last trip every lane would load.
  HandRotation R(R"(
k:
  v_mov_b32 v2, 0
.LBB0_1:
  global_load_dword v12, v[10:11], off
  v_add_co_u32_e32 v10, vcc, 0x100, v10
  v_addc_co_u32_e32 v11, vcc, 0, v11, vcc
  s_add_i32 s8, s8, -1
  s_cmp_lg_u32 s8, 0
  s_waitcnt vmcnt(0)
  v_add_f32_e32 v2, v2, v12
  s_cbranch_scc1 .LBB0_1
  s_endpgm
)");
  ASSERT_TRUE(R.M);
  R.rotate();
  EXPECT_EQ(R.proof(), "'s_cbranch_scc1 .LBB0_1' does not leave the loop on an empty EXEC alone");
}

TEST(LoopLoadRotationTest, RefusesAPreheaderEndingInABranch) {
  // Its branch goes to the loop's label: taken, it would skip the loads
  // appended after it, and trip 0 would read v12 unloaded.
  HandRotation R(R"(
k:
  s_mov_b64 s[8:9], 0
  s_cmp_eq_u32 s0, 0
  s_cbranch_scc1 .LBB0_1
.LBB0_1:
  global_load_dword v12, v[10:11], off
  v_add_co_u32_e32 v10, vcc, 0x100, v10
  v_addc_co_u32_e32 v11, vcc, 0, v11, vcc
  v_cmp_eq_u32_e64 s[4:5], 0, v12
  s_or_b64 s[8:9], s[4:5], s[8:9]
  s_andn2_b64 exec, exec, s[8:9]
  s_cbranch_execnz .LBB0_1
  s_endpgm
)");
  ASSERT_TRUE(R.M);
  R.rotate();
  EXPECT_EQ(R.proof(), "the preheader does not fall through into the loop alone");
}

TEST(LoopLoadRotationTest, RefusesALoopWhoseLabelAddressIsComputed) {
  // A jump through s[12:13] may enter the loop past the preheader's loads.
  HandRotation R(R"(
k:
  s_mov_b64 s[8:9], 0
.LBB0_1:
  global_load_dword v12, v[10:11], off
  v_add_co_u32_e32 v10, vcc, 0x100, v10
  v_addc_co_u32_e32 v11, vcc, 0, v11, vcc
  v_cmp_eq_u32_e64 s[4:5], 0, v12
  s_or_b64 s[8:9], s[4:5], s[8:9]
  s_andn2_b64 exec, exec, s[8:9]
  s_cbranch_execnz .LBB0_1
  s_getpc_b64 s[10:11]
.Lpost:
  s_add_u32 s12, s10, .LBB0_1-.Lpost
  s_addc_u32 s13, s11, 0
  s_setpc_b64 s[12:13]
)");
  ASSERT_TRUE(R.M);
  R.rotate();
  EXPECT_EQ(R.proof(),
            "the address of .LBB0_1 is computed: the loop may be entered through a register");
}

/// The divergent loop with its first load replaced by \p Load.
std::string divergentLoopLoading(llvm::StringRef Load) {
  std::string Text = DivergentLoop;
  llvm::StringRef Old = "global_load_dword v12, v[10:11], off";
  Text.replace(Text.find(Old), Old.size(), Load.str());
  return Text;
}

TEST(LoopLoadRotationTest, RefusesLoadsThatMayWriteLdsOrReachIt) {
  // With no lane active they would still be no per-lane register loads: a
  // load into LDS writes memory, a generic flat load may be an LDS access.
  for (auto [Load, Why] : {std::pair<const char *, const char *>{
                               "buffer_load_dword v1, s[12:15], 0 offen lds",
                               "'buffer_load_dword v1, s[12:15], 0 offen lds' is not a per-lane "
                               "vector load"},
                           {"flat_load_dword v12, v[10:11]",
                            "'flat_load_dword v12, v[10:11]' is not a per-lane vector load"}}) {
    HandRotation R(divergentLoopLoading(Load));
    ASSERT_TRUE(R.M);
    R.rotate();
    EXPECT_EQ(R.proof(), Why);
  }
}

} // namespace
