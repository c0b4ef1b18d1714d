//===- MarkerIdsTest.cpp - ID allocation, compaction, memory grouping -----===//
#include "asm-instrument/sqtt/MarkerEncoding.h"
#include "asm-instrument/sqtt/MarkerIds.h"
#include "asm-instrument/sqtt/MemoryMarkers.h"
#include "stinkytofu/hw/TargetInfo.h"
#include "llvm/MC/MCInstrInfo.h"
#include "gtest/gtest.h"

using namespace stinkytofu::sqtt;

namespace {

TEST(MarkerIdsTest, Encoding) {
  EXPECT_EQ(encodeMarker(1, /*Enter=*/true, /*ExitPrev=*/false), 6u);
  EXPECT_EQ(encodeMarker(2, true, true), 11u); // the spec's fused (2 << 2) | 3
  EXPECT_EQ(encodeMarker(3, false, false), 12u);
  EXPECT_EQ(ExitMarker, 1u);
  EXPECT_TRUE(fitsImmediate(0xff, 0xff, false));
  EXPECT_FALSE(fitsImmediate(0x100, 0xff, false));
  EXPECT_FALSE(fitsImmediate(6, 0xff, /*Packing=*/true));
  EXPECT_FALSE(fitsImmediate(6, 0, false)); // gfx9: no immediate form
}

TEST(MarkerIdsTest, CompactsByEmissionCountThenOrder) {
  MarkerIdAllocator Ids;
  unsigned Outer = Ids.addUserMarker(LedgerKind::UserScope, "outer", 0);
  unsigned Inner = Ids.addUserMarker(LedgerKind::UserScope, "inner", 0);
  unsigned Point = Ids.addUserMarker(LedgerKind::UserPoint, "point", 0);
  unsigned F = Ids.addFunction("f", "f.s:3");
  Ids.count(Outer);
  Ids.count(Inner, 2);
  Ids.count(Point);
  Ids.count(F, 3); // entry and two exits
  Ids.assign(/*Barriers=*/true, /*Memory=*/true);
  EXPECT_EQ(Ids.id(F), 1u);
  EXPECT_EQ(Ids.id(Inner), 2u);
  EXPECT_EQ(Ids.id(Outer), 3u); // ties keep the order added
  EXPECT_EQ(Ids.id(Point), 4u);
  EXPECT_EQ(Ids.systemId(SystemMarker::BarrierSignal), 5u);
  EXPECT_EQ(Ids.systemId(SystemMarker::BarrierWait), 6u);
  EXPECT_EQ(Ids.systemId(SystemMarker::Barrier), 7u);
  EXPECT_EQ(Ids.systemId(SystemMarker::VmemLoad), 8u);
  EXPECT_EQ(Ids.systemId(SystemMarker::VmemStore), 9u);
}

TEST(MarkerIdsTest, AddressTracesComeLastInTheOrderAdded) {
  MarkerIdAllocator Ids;
  unsigned T1 = Ids.addAddressTrace("addr_trace_load", "k.s:7", 130);
  unsigned P = Ids.addUserMarker(LedgerKind::UserPoint, "p", 0);
  unsigned T2 = Ids.addAddressTrace("addr_trace_load", "k.s:8", 130);
  Ids.count(T2, 5); // emission counts do not reorder them
  Ids.assign(/*Barriers=*/true, /*Memory=*/false);
  EXPECT_EQ(Ids.id(P), 1u);
  EXPECT_EQ(Ids.systemId(SystemMarker::Barrier), 4u);
  EXPECT_EQ(Ids.id(T1), 5u);
  EXPECT_EQ(Ids.id(T2), 6u); // one ID per operation, the same name or not
  EXPECT_EQ(Ids.entries()[T1].SourceLoc, "k.s:7");
  EXPECT_EQ(Ids.entries()[T1].ExtraPayloadCount, 130u);
}

TEST(MarkerIdsTest, SameNameSharesAnIdPerKind) {
  MarkerIdAllocator Ids;
  unsigned A = Ids.addUserMarker(LedgerKind::UserScope, "x", 0);
  unsigned B = Ids.addUserMarker(LedgerKind::UserScope, "x", 0);
  unsigned P = Ids.addUserMarker(LedgerKind::UserPoint, "x", 0);
  unsigned D = Ids.addUserMarker(LedgerKind::UserPoint, "x", 1);
  EXPECT_EQ(A, B);
  EXPECT_NE(A, P);
  EXPECT_NE(P, D); // a data marker (one payload record) is its own entry
  EXPECT_EQ(Ids.entries().size(), 3u);
  EXPECT_EQ(Ids.entries()[D].ExtraPayloadCount, 1u);
}

TEST(MarkerIdsTest, SkipsIdsTheInputUses) {
  MarkerIdAllocator Ids;
  Ids.reserve(1);
  Ids.reserve(3);
  unsigned A = Ids.addUserMarker(LedgerKind::UserPoint, "a", 0);
  unsigned B = Ids.addUserMarker(LedgerKind::UserPoint, "b", 0);
  Ids.assign(/*Barriers=*/true, /*Memory=*/false);
  EXPECT_EQ(Ids.id(A), 2u);
  EXPECT_EQ(Ids.id(B), 4u);
  EXPECT_EQ(Ids.systemId(SystemMarker::BarrierSignal), 5u);
  EXPECT_EQ(Ids.systemId(SystemMarker::VmemLoad), 0u); // memory off
  EXPECT_EQ(Ids.maxId(), 7u);
}

TEST(MarkerIdsTest, DeterministicForTheSameInput) {
  auto Run = [] {
    MarkerIdAllocator Ids;
    for (int K = 0; K < 20; ++K) {
      unsigned H = Ids.addUserMarker(LedgerKind::UserPoint, "p" + std::to_string(K), 0);
      Ids.count(H, K % 3);
    }
    Ids.assign(false, false);
    std::vector<uint32_t> Out;
    for (unsigned H = 0; H < 20; ++H)
      Out.push_back(Ids.id(H));
    return Out;
  };
  EXPECT_EQ(Run(), Run());
}

TEST(MemoryGroupingTest, SpecExample) {
  // N=2, M=5: load load store load load load.
  using K = MemOpKind;
  std::vector<MemOpKind> Stream = {K::Load, K::Load, K::Store, K::Load, K::Load, K::Load};
  std::vector<MemoryGroup> G = groupMemoryOps(Stream, 2, 5);
  ASSERT_EQ(G.size(), 4u);
  EXPECT_EQ(G[0].Last, 1u);
  EXPECT_EQ(G[0].Kind, K::Load);
  EXPECT_EQ(G[1].Last, 2u);
  EXPECT_EQ(G[1].Kind, K::Store);
  EXPECT_EQ(G[2].Last, 4u);
  EXPECT_EQ(G[2].Kind, K::Load);
  EXPECT_EQ(G[3].Last, 5u);
  EXPECT_EQ(G[3].Kind, K::Load);
}

TEST(MemoryGroupingTest, GapEndsAGroup) {
  using K = MemOpKind;
  // Two loads 2 instructions apart: one group with M=2, two with M=1.
  std::vector<MemOpKind> Stream = {K::Load, K::None, K::None, K::Load};
  EXPECT_EQ(groupMemoryOps(Stream, 4, 2).size(), 1u);
  std::vector<MemoryGroup> G = groupMemoryOps(Stream, 4, 1);
  ASSERT_EQ(G.size(), 2u);
  EXPECT_EQ(G[0].Last, 0u);
  EXPECT_EQ(G[1].Last, 3u);
  // Leading non-memory instructions do not count as a gap.
  EXPECT_EQ(groupMemoryOps({K::None, K::None, K::Store, K::Store}, 4, 0).size(), 1u);
}

TEST(MemoryGroupingTest, Classification) {
  EXPECT_EQ(classifyMemoryName("global_load_dwordx4"), MemOpKind::Load);
  EXPECT_EQ(classifyMemoryName("buffer_store_dword"), MemOpKind::Store);
  EXPECT_EQ(classifyMemoryName("flat_atomic_add"), MemOpKind::Store);
  EXPECT_EQ(classifyMemoryName("global_atomic_cmpswap_x2"), MemOpKind::Store);
  EXPECT_EQ(classifyMemoryName("BUFFER_LOAD_DWORD_OFFEN_vi"), MemOpKind::Load);
  EXPECT_EQ(classifyMemoryName("ds_read_b32"), MemOpKind::None);
  EXPECT_EQ(classifyMemoryName("scratch_load_dword"), MemOpKind::None);
  EXPECT_EQ(classifyMemoryName("buffer_wbinvl1_vol"), MemOpKind::None);
  EXPECT_EQ(classifyMemoryName("global_inv"), MemOpKind::None);
}

// The memory sites skip the mnemonic of instructions MC gives no memory
// access: every opcode the names classify must carry those flags.
TEST(MemoryGroupingTest, ClassifiedOpcodesCarryTheirMCFlags) {
  for (const char *Arch : {"gfx900", "gfx90a", "gfx942", "gfx1100", "gfx1201", "gfx1250"}) {
    auto TI = stinkytofu::TargetInfo::get(Arch);
    ASSERT_TRUE(bool(TI)) << Arch;
    const llvm::MCInstrInfo &MII = (*TI)->instrInfo();
    unsigned Memory = 0;
    for (unsigned Op = 0; Op < MII.getNumOpcodes(); ++Op) {
      llvm::StringRef Name = MII.getName(Op);
      const llvm::MCInstrDesc &D = MII.get(Op);
      if (classifyMemoryName(Name) != MemOpKind::None) {
        ++Memory;
        EXPECT_TRUE(D.mayLoad() || D.mayStore()) << Arch << " " << Name.str();
      }
    }
    EXPECT_GT(Memory, 100u) << Arch;
  }
}

} // namespace
