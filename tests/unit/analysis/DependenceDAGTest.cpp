//===- DependenceDAGTest.cpp - Dependences, fences and the schedule validator -===//
#include "analysis/AnalysisTestModules.h"
#include "stinkytofu/analysis/DependenceDAG.h"
#include "stinkytofu/analysis/ScheduleValidator.h"
#include "stinkytofu/ir/Modifier.h"
#include "stinkytofu/transforms/RegionReorder.h"

#include "gtest/gtest.h"

#include <numeric>

using namespace stinkytofu;
using namespace stinkytofu::analysistest;

namespace {

/// A one-block kernel and the DAG of its only region.
struct Region {
  std::unique_ptr<Module> M;
  std::unique_ptr<FunctionDependences> Deps;
  explicit Region(llvm::StringRef Body, ReadOptions Opts = {}) {
    M = readModule(("k:\n" + Body).str(), std::move(Opts));
    if (!M)
      return;
    Deps = std::make_unique<FunctionDependences>(M->functions().front());
    EXPECT_EQ(Deps->regions().size(), 1u);
  }
  const DependenceDAG &dag() const { return Deps->dag(0); }
  /// The kind of the edge From -> To, or "none".
  std::string edge(unsigned From, unsigned To) const {
    const DepEdge *E = dag().edge(From, To);
    return E ? depKindName(E->Kind).str() : "none";
  }
  /// Whether the validator accepts \p Order of the region.
  std::optional<ScheduleViolation> check(llvm::ArrayRef<unsigned> Order) const {
    std::vector<InstructionEffects> Effects;
    for (unsigned N = 0; N != dag().size(); ++N)
      Effects.push_back(dag().effects(N));
    return findScheduleViolation(Effects, Order, Deps->effects().units(), [&](unsigned K) {
      return dag().instruction(K).mnemonic().str();
    });
  }
  std::vector<unsigned> identity() const {
    std::vector<unsigned> Order(dag().size());
    std::iota(Order.begin(), Order.end(), 0u);
    return Order;
  }
  /// The input order with the instructions at \p A and \p B exchanged.
  std::vector<unsigned> swapped(unsigned A, unsigned B) const {
    std::vector<unsigned> Order = identity();
    std::swap(Order[A], Order[B]);
    return Order;
  }
};

TEST(DependenceDAGTest, TrueAntiAndOutputDependencesOfRegisters) {
  Region R(R"(
  v_mov_b32 v1, 1
  v_add_f32 v2, v1, v1
  v_mov_b32 v1, 2
  v_mov_b32 v3, 4
  s_endpgm
)");
  ASSERT_TRUE(R.Deps);
  EXPECT_EQ(R.edge(0, 1), "data");
  EXPECT_EQ(R.edge(1, 2), "anti");
  EXPECT_EQ(R.edge(0, 2), "output");
  for (unsigned From : {0u, 1u, 2u})
    EXPECT_EQ(R.edge(From, 3), "none") << From;
  EXPECT_EQ(R.edge(3, 4), "order"); // s_endpgm ends the region
  // A data edge waits for its producer's latency; the path through the
  // add is the longest.
  EXPECT_GE(R.dag().edge(0, 1)->Latency, 1u);
  EXPECT_GT(R.dag().heightOf(0), R.dag().heightOf(3));
}

TEST(DependenceDAGTest, ImplicitExecVccSccAndM0) {
  Region R(R"(
  s_mov_b64 exec, s[2:3]
  v_add_f32 v2, v1, v1
  v_cmp_eq_u32 vcc, v1, v2
  v_cndmask_b32 v4, v5, v6, vcc
  s_cmp_eq_u32 s0, s1
  s_cselect_b32 s4, s5, s6
  s_add_u32 s7, s7, 1
  s_mov_b32 m0, s8
  s_movrels_b32 s9, s10
  s_endpgm
)");
  ASSERT_TRUE(R.Deps);
  EXPECT_EQ(R.edge(0, 1), "data");   // EXEC
  EXPECT_EQ(R.edge(2, 3), "data");   // VCC
  EXPECT_EQ(R.edge(4, 5), "data");   // SCC
  EXPECT_EQ(R.edge(5, 6), "anti");   // SCC read, then written
  EXPECT_EQ(R.edge(4, 6), "output"); // SCC written twice
  EXPECT_EQ(R.edge(7, 8), "data");   // M0
  EXPECT_EQ(R.edge(1, 5), "none");
}

TEST(DependenceDAGTest, MemoryIsOrderedPerAddressSpace) {
  Region R(R"(
  global_store_dword v[0:1], v2, off
  global_load_dword v3, v[0:1], off offset:64
  global_load_dword v4, v[0:1], off offset:128
  ds_write_b32 v5, v6
  ds_read_b32 v7, v5 offset:64
  ds_read_b32 v8, v5 offset:128
  flat_store_dword v[0:1], v9
  global_atomic_add v[0:1], v10, off
  s_endpgm
)");
  ASSERT_TRUE(R.Deps);
  // A per-lane base proves nothing: another lane's v[0:1] may be this
  // lane's v[0:1] + 64.
  EXPECT_EQ(R.edge(0, 1), "memory");
  EXPECT_EQ(R.edge(1, 2), "none"); // two loads
  EXPECT_EQ(R.edge(0, 3), "none"); // global and LDS
  EXPECT_EQ(R.edge(3, 4), "memory");
  EXPECT_EQ(R.edge(4, 5), "none");
  EXPECT_EQ(R.edge(4, 6), "memory"); // flat may reach LDS
  EXPECT_EQ(R.edge(1, 6), "memory");
  EXPECT_EQ(R.edge(2, 7), "memory"); // the atomic stays after the loads
}

TEST(DependenceDAGTest, UniformAddressesWithDisjointOffsetsAreIndependent) {
  Region R(R"(
  buffer_store_dword v1, off, s[4:7], s8 offset:0
  buffer_load_dword v2, off, s[4:7], s8 offset:4
  buffer_load_dword v3, off, s[4:7], s8 offset:0
  s_mov_b32 s8, 16
  buffer_load_dword v4, off, s[4:7], s8 offset:4
  buffer_load_dwordx2 v[6:7], off, s[4:7], 0 offset:0
  buffer_store_dwordx2 v[8:9], off, s[4:7], 0 offset:8
  s_endpgm
)");
  ASSERT_TRUE(R.Deps);
  EXPECT_EQ(R.edge(0, 1), "none");   // bytes 0-3 and 4-7
  EXPECT_EQ(R.edge(0, 2), "memory"); // the same bytes
  EXPECT_EQ(R.edge(0, 4), "memory"); // s8 changed in between
  EXPECT_EQ(R.edge(5, 6), "none");   // bytes 0-7 and 8-15
}

TEST(DependenceDAGTest, LdsTokensSeparateBuffers) {
  ReadOptions Opts;
  Opts.BeforeCFG = [](Module &M) {
    int64_t Token = 1;
    for (Instruction &I : M.functions().front().blocks().begin()->instructions())
      if (I.mnemonic().starts_with("ds_"))
        I.setModifier(std::make_unique<MemTokenData>(std::vector<int64_t>{Token++}));
  };
  Region R(R"(
  ds_write_b32 v5, v6
  ds_read_b32 v7, v8
  s_endpgm
)",
           Opts);
  ASSERT_TRUE(R.Deps);
  EXPECT_EQ(R.edge(0, 1), "none");
}

TEST(DependenceDAGTest, BarrierWithLdsDependencesOrdersItsTokensOnly) {
  ReadOptions Opts;
  Opts.BeforeCFG = [](Module &M) {
    std::vector<int64_t> Tokens[] = {{1}, {1}, {1}, {2}};
    unsigned Next = 0;
    for (Instruction &I : M.functions().front().blocks().begin()->instructions()) {
      if (I.mnemonic().starts_with("ds_") || I.mnemonic() == "s_barrier")
        I.setModifier(std::make_unique<MemTokenData>(Tokens[Next++]));
      if (I.mnemonic() == "s_barrier")
        I.setModifier(std::make_unique<LdsDependenceData>(std::vector<int64_t>{1},
                                                          std::vector<int64_t>{1}));
    }
  };
  Region R(R"(
  ds_write_b32 v5, v6
  v_mov_b32 v1, 1
  s_barrier
  ds_read_b32 v7, v8
  ds_read_b32 v9, v8
  global_load_dword v10, v[2:3], off
  s_endpgm
)",
           Opts);
  ASSERT_TRUE(R.Deps);
  EXPECT_FALSE(R.dag().effects(2).Fence);
  EXPECT_EQ(R.edge(0, 2), "memory");
  EXPECT_EQ(R.edge(2, 3), "memory");
  EXPECT_EQ(R.edge(1, 2), "none");
  EXPECT_EQ(R.edge(2, 4), "none");
  EXPECT_EQ(R.edge(2, 5), "memory");
  EXPECT_FALSE(R.check(R.swapped(1, 2)));
  EXPECT_FALSE(R.check({0, 1, 4, 2, 3, 5, 6}));
  std::optional<ScheduleViolation> V = R.check(R.swapped(2, 3));
  ASSERT_TRUE(V);
  EXPECT_NE(V->Reason.find("LDS memory order"), std::string::npos) << V->Reason;
  V = R.check({0, 1, 5, 2, 3, 4, 6});
  ASSERT_TRUE(V);
  EXPECT_NE(V->Reason.find("global memory order"), std::string::npos) << V->Reason;
}

/// Each fence sits between two independent moves, which must stay on its
/// sides. (A branch ends its block, and so its region.)
void expectFence(llvm::StringRef Fence, llvm::StringRef Arch) {
  Region R(("  v_mov_b32 v1, 1\n  " + Fence + "\n  v_mov_b32 v2, 2\n  s_endpgm\n").str(),
           forArch(Arch));
  ASSERT_TRUE(R.Deps) << Fence.str();
  EXPECT_TRUE(R.dag().effects(1).Fence) << Fence.str();
  // A call also reads and writes everything: its edges are data edges.
  EXPECT_NE(R.edge(0, 1), "none") << Fence.str();
  EXPECT_NE(R.edge(1, 2), "none") << Fence.str();
}

TEST(DependenceDAGTest, FencesComeFromMCFlagsAndTheHardwareModel) {
  for (llvm::StringRef Fence :
       {"s_barrier", "s_setprio 3", "s_sleep 1", "s_sendmsg sendmsg(MSG_INTERRUPT)",
        "s_setreg_b32 hwreg(HW_REG_MODE, 0, 4), s0", "s_waitcnt vmcnt(0)", "s_nop 0",
        "s_getpc_b64 s[0:1]", "buffer_wbinvl1_vol", "s_dcache_wb", "s_memtime s[0:1]",
        "s_swappc_b64 s[30:31], s[4:5]"})
    expectFence(Fence, "gfx90a");
  expectFence("s_set_vgpr_msb 1", "gfx1250");
  expectFence("s_wait_loadcnt 0", "gfx1200");
  expectFence("s_wait_alu 0xfffe", "gfx1200");
  // Not fences: ALU and memory instructions.
  Region R("  v_mov_b32 v1, 1\n  v_readfirstlane_b32 s0, v3\n  global_load_dword v2, v[4:5], "
           "off\n  s_endpgm\n");
  ASSERT_TRUE(R.Deps);
  EXPECT_FALSE(R.dag().effects(1).Fence);
  EXPECT_FALSE(R.dag().effects(2).Fence);
  EXPECT_EQ(R.edge(0, 1), "none");
  EXPECT_EQ(R.edge(0, 2), "none");
}

TEST(DependenceDAGTest, CallsReadAndWriteEveryRegister) {
  // After a call, every register's last writer is the call until another
  // instruction writes it (the DAG keeps only the registers touched since).
  Region R(R"(
  v_mov_b32 v1, 1
  v_add_f32 v2, v1, v1
  s_swappc_b64 s[30:31], s[4:5]
  v_mov_b32 v3, v2
  v_mov_b32 v1, 5
  s_swappc_b64 s[30:31], s[4:5]
  v_add_f32 v4, v1, v3
  s_endpgm
)");
  ASSERT_TRUE(R.Deps);
  EXPECT_EQ(R.edge(0, 2), "data"); // v1
  EXPECT_EQ(R.edge(1, 2), "data"); // v2 (and v1 read: anti, weaker)
  EXPECT_EQ(R.edge(2, 3), "data"); // v2 comes from the call
  EXPECT_EQ(R.edge(2, 4), "data"); // exec from the call (and v1 written again)
  EXPECT_EQ(R.edge(2, 5), "data"); // s0 and every other untouched unit
  EXPECT_EQ(R.edge(3, 5), "data"); // v3
  EXPECT_EQ(R.edge(4, 5), "data"); // v1
  EXPECT_EQ(R.edge(5, 6), "data"); // v1 and v3 come from the second call
  EXPECT_EQ(R.edge(3, 6), "none");
  EXPECT_EQ(R.edge(4, 6), "none");
}

TEST(DependenceDAGTest, RegionsEndAtDirectives) {
  auto M = readModule("k:\n  v_mov_b32 v1, 1\n.set x, 4\n  v_mov_b32 v2, x\n  s_endpgm\n");
  ASSERT_TRUE(M);
  std::vector<ScheduleRegion> Regions = scheduleRegions(M->functions().front());
  ASSERT_EQ(Regions.size(), 2u);
  EXPECT_EQ(Regions[0].Insts.size(), 1u);
  EXPECT_EQ(Regions[1].Insts.size(), 2u);
}

// A region with every kind of dependence, for the validator.
const char *const Mixed = R"(
  s_mov_b64 exec, s[2:3]
  v_mov_b32 v1, 1
  v_add_f32 v2, v1, v1
  v_mov_b32 v1, 2
  global_store_dword v[4:5], v2, off
  global_load_dword v6, v[4:5], off
  ds_write_b32 v7, v1
  ds_read_b32 v8, v9
  v_mov_b32 v10, v8
  s_setprio 1
  v_mov_b32 v11, 3
  v_mov_b32 v11, 4
  s_cmp_eq_u32 s0, s1
  s_cselect_b32 s4, s5, s6
  s_add_u32 s7, s7, 1
  s_endpgm
)";

TEST(ScheduleValidatorTest, AcceptsEveryOrderTheDAGAllows) {
  Region R(Mixed);
  ASSERT_TRUE(R.Deps);
  EXPECT_FALSE(R.check(R.identity()));
  std::mt19937_64 Rng(7);
  unsigned Different = 0;
  for (unsigned K = 0; K != 200; ++K) {
    std::vector<unsigned> Order = randomTopologicalOrder(R.dag(), Rng);
    ASSERT_TRUE(R.dag().isTopologicalOrder(Order));
    std::optional<ScheduleViolation> V = R.check(Order);
    EXPECT_FALSE(V) << V->Reason;
    Different += Order != R.identity();
  }
  EXPECT_GT(Different, 150u);
}

TEST(DependenceDAGTest, RegionsSharingAUnitTableGetTheirOwnGraphs) {
  // The regions of a function build their graphs with one table by unit;
  // each must come out as a graph built with a table of its own. A call
  // in the second region writes every unit, and the third region starts
  // from a table the second left.
  std::unique_ptr<Module> M = readModule(R"(k:
  v_mov_b32 v1, 1
  v_add_f32 v2, v1, v1
  s_mov_b32 s4, 2
  .p2align 2
  v_mov_b32 v1, 3
  s_swappc_b64 s[30:31], s[4:5]
  v_add_f32 v3, v1, v2
  .p2align 2
  v_add_f32 v2, v1, v1
  v_mov_b32 v1, 4
  v_add_f32 v5, v2, v1
  s_endpgm
)");
  ASSERT_TRUE(M);
  FunctionDependences Shared(M->functions().front());
  ASSERT_EQ(Shared.regions().size(), 3u);
  for (unsigned R = 0; R != 3; ++R) {
    DependenceDAG Own(Shared.regions()[R].Insts, Shared.effects());
    const DependenceDAG &Built = Shared.dag(R);
    ASSERT_EQ(Own.edges().size(), Built.edges().size()) << "region " << R;
    for (unsigned K = 0; K != Own.edges().size(); ++K) {
      EXPECT_EQ(Own.edges()[K].From, Built.edges()[K].From) << "region " << R << " edge " << K;
      EXPECT_EQ(Own.edges()[K].To, Built.edges()[K].To) << "region " << R << " edge " << K;
      EXPECT_EQ(Own.edges()[K].Kind, Built.edges()[K].Kind) << "region " << R << " edge " << K;
    }
  }
  // The first region's add reads the move's v1; the third's first add
  // reads v1 from outside the region: no edge into it.
  EXPECT_NE(Shared.dag(0).edge(0, 1), nullptr);
  EXPECT_TRUE(Shared.dag(2).preds(0).empty());
}

TEST(ScheduleValidatorTest, RefusesEverySwapOfDependentInstructions) {
  Region R(Mixed);
  ASSERT_TRUE(R.Deps);
  for (const DepEdge &E : R.dag().edges())
    EXPECT_TRUE(R.check(R.swapped(E.From, E.To)))
        << depKindName(E.Kind).str() << " " << E.From << " -> " << E.To;
  // Independent instructions may swap.
  EXPECT_FALSE(R.check(R.swapped(11, 12)));
}

TEST(ScheduleValidatorTest, SaysWhatChanged) {
  Region R(Mixed);
  ASSERT_TRUE(R.Deps);
  std::optional<ScheduleViolation> V = R.check(R.swapped(1, 2));
  ASSERT_TRUE(V);
  EXPECT_EQ(V->Inst, 2u);
  EXPECT_EQ(V->Reason, "reads v1 of the region's input instead of 'v_mov_b32'");
  V = R.check(R.swapped(4, 5));
  ASSERT_TRUE(V);
  EXPECT_EQ(V->Reason, "changes its global memory order with 'global_store_dword'");
  V = R.check(R.swapped(8, 9));
  ASSERT_TRUE(V);
  EXPECT_NE(V->Reason.find("crosses a fence"), std::string::npos) << V->Reason;
  // Two writes of v11 with no reader in between: the later one must stay
  // last (a write under EXEC keeps the other lanes of the earlier one).
  V = R.check(R.swapped(10, 11));
  ASSERT_TRUE(V);
  EXPECT_NE(V->Reason.find("overwrites v11"), std::string::npos) << V->Reason;
  EXPECT_TRUE(R.check({0, 1, 2}));
}

TEST(ScheduleValidatorTest, ReorderRegionMovesOnlyWhatTheValidatorAccepts) {
  Region R(Mixed);
  ASSERT_TRUE(R.Deps);
  const ScheduleRegion &Reg = R.Deps->regions()[0];
  const EffectModel &EM = R.Deps->effects();
  ScheduleSnapshot Before(*R.M);
  // Refused: nothing moves.
  llvm::Expected<bool> Refused = reorderRegion(Reg, R.swapped(1, 2), EM);
  ASSERT_FALSE(Refused);
  EXPECT_NE(toString(Refused.takeError()).find("reads v1"), std::string::npos);
  EXPECT_FALSE(Before.verify(*R.M));
  EXPECT_EQ(Before.reorderedBlocks(), 0u);
  // Accepted: the block is in the new order and the snapshot agrees.
  std::mt19937_64 Rng(3);
  std::vector<unsigned> Order = randomTopologicalOrder(R.dag(), Rng);
  llvm::Expected<bool> Moved = reorderRegion(Reg, Order, EM);
  ASSERT_TRUE(bool(Moved));
  EXPECT_TRUE(*Moved);
  std::vector<const Instruction *> Now;
  for (const Instruction &I : Reg.Block->instructions())
    Now.push_back(&I);
  for (unsigned K = 0; K != Order.size(); ++K)
    EXPECT_EQ(Now[K], Reg.Insts[Order[K]]);
  EXPECT_FALSE(Before.verify(*R.M));
  EXPECT_EQ(Before.reorderedBlocks(), 1u);
  // A move behind the validator's back is caught by the snapshot.
  Instruction *Add = instOf(*R.M, "v_add_f32");
  Add->moveBefore(*Reg.Block->instructions().begin());
  llvm::Error E = Before.verify(*R.M);
  ASSERT_TRUE(bool(E));
  EXPECT_NE(toString(std::move(E)).find("'v_add_f32 v2, v1, v1' reads"), std::string::npos);
}

TEST(ScheduleValidatorTest, TheDAGsEffectsJudgeAsTheModelDoes) {
  // The scheduler validates with the effects its DAG computed: every order
  // an edge forbids is refused with the message the model's own effects
  // give, and the input order (a region put back) is the same program.
  Region R(Mixed);
  ASSERT_TRUE(R.Deps);
  const ScheduleRegion &Reg = R.Deps->regions()[0];
  const EffectModel &EM = R.Deps->effects();
  for (const DepEdge &E : R.dag().edges()) {
    std::vector<unsigned> Order = R.swapped(E.From, E.To);
    llvm::Expected<bool> ByModel = reorderRegion(Reg, Order, EM);
    llvm::Expected<bool> ByDAG = reorderRegion(Reg, Order, R.dag(), EM.units());
    ASSERT_FALSE(ByModel);
    ASSERT_FALSE(ByDAG);
    EXPECT_EQ(toString(ByDAG.takeError()), toString(ByModel.takeError()));
  }
  std::vector<unsigned> Input(Reg.Insts.size());
  std::iota(Input.begin(), Input.end(), 0u);
  llvm::Expected<bool> Back = reorderRegion(Reg, Input, R.dag(), EM.units());
  ASSERT_TRUE(bool(Back));
  EXPECT_FALSE(*Back);
}

} // namespace
