//===- AddressTraceTest.cpp - Which operations are traced, and how --------===//
#include "asm-instrument/sqtt/AddressTrace.h"
#include "TestModules.h"
#include "gtest/gtest.h"

using namespace stinkytofu;
using namespace stinkytofu::sqtt;

namespace {

/// The traced operation of the one instruction \p Line on \p Arch (and the
/// wave size the trace reads, in \p Wave).
std::optional<TracedOperation> traced(llvm::StringRef Line, llvm::StringRef Arch,
                                      AddressTraceFilter Filter = {true, true},
                                      unsigned *Wave = nullptr) {
  std::string Text = "\t.text\nk:\n\t" + Line.str() + "\n\ts_endpgm\n";
  std::unique_ptr<Module> M = test::readAsmText(Text, Arch, false, "t.s");
  EXPECT_TRUE(M);
  if (!M)
    return std::nullopt;
  const Instruction &I = M->functions().front().blocks().front().instructions().front();
  if (Wave)
    *Wave = traceWaveSize(M->target());
  return tracedOperation(I, M->target(), Filter);
}

const char *Targets[] = {"gfx900", "gfx906", "gfx908", "gfx90a", "gfx942", "gfx950",
                         "gfx1030", "gfx1100", "gfx1200", "gfx1201", "gfx1250"};

bool isGfx12(llvm::StringRef Arch) { return Arch.starts_with("gfx12"); }

TEST(AddressTraceTest, GlobalFormsOnEveryTarget) {
  for (llvm::StringRef Arch : Targets) {
    SCOPED_TRACE(Arch.str());
    bool G12 = isGfx12(Arch);
    auto Op = traced(G12 ? "global_load_b32 v1, v[2:3], off offset:-16"
                         : "global_load_dword v1, v[2:3], off offset:-16",
                     Arch);
    ASSERT_TRUE(Op);
    EXPECT_EQ(Op->Category, AddressCategory::Flat64);
    EXPECT_EQ(Op->Kind, "load");
    EXPECT_EQ(Op->AddrLo, "v2");
    EXPECT_EQ(Op->AddrHi, "v3");
    EXPECT_EQ(Op->Offset, -16);
    Op = traced(G12 ? "global_store_b32 v2, v4, s[4:5] offset:8"
                    : "global_store_dword v2, v4, s[4:5] offset:8",
                Arch);
    ASSERT_TRUE(Op);
    EXPECT_EQ(Op->Kind, "store");
    EXPECT_EQ(Op->AddrLo, "v2");
    EXPECT_EQ(Op->SAddrLo, "s4");
    EXPECT_EQ(Op->SAddrHi, "s5");
    EXPECT_EQ(Op->Offset, 8);
    unsigned Wave = 0;
    Op = traced(G12 ? "global_atomic_add_u32 v[2:3], v4, off" : "global_atomic_add v[2:3], v4, off",
                Arch, {true, true}, &Wave);
    ASSERT_TRUE(Op);
    EXPECT_EQ(Op->Kind, "atomic");
    EXPECT_EQ(Wave, Arch.starts_with("gfx9") ? 64u : 32u);
    EXPECT_EQ(Op->extraPayloadCount(Wave), Wave == 64 ? 130u : 66u);
    // Scratch is not traced; nor is anything when only LDS is asked for.
    EXPECT_FALSE(traced(G12 ? "scratch_load_b32 v1, v2, off" : "scratch_load_dword v1, v2, off",
                        Arch));
    EXPECT_FALSE(traced(G12 ? "global_load_b32 v1, v[2:3], off" : "global_load_dword v1, v[2:3], off",
                        Arch, {false, true}));
  }
}

TEST(AddressTraceTest, BufferComponents) {
  auto Op = traced("buffer_load_dword v1, v[2:3], s[8:11], s6 idxen offen offset:4", "gfx90a");
  ASSERT_TRUE(Op);
  EXPECT_EQ(Op->Category, AddressCategory::StructBuffer);
  EXPECT_EQ(Op->Kind, "struct_buffer_load");
  EXPECT_EQ(Op->VIndex, "v2");
  EXPECT_EQ(Op->AddrLo, "v3");
  EXPECT_EQ(Op->Rsrc0, "s8");
  EXPECT_EQ(Op->Rsrc1, "s9");
  EXPECT_EQ(Op->SOffset, "s6");
  EXPECT_EQ(Op->Offset, 4);
  EXPECT_EQ(Op->extraPayloadCount(64), 133u);
  Op = traced("buffer_store_b32 v1, off, s[8:11], null offset:4", "gfx1201");
  ASSERT_TRUE(Op);
  EXPECT_EQ(Op->Kind, "buffer_store");
  EXPECT_EQ(Op->AddrLo, ""); // no offen: voffset records are 0
  EXPECT_EQ(Op->SOffset, "0");
  EXPECT_EQ(Op->extraPayloadCount(32), 37u);
  Op = traced("buffer_atomic_add v1, v2, s[8:11], s6 offen glc", "gfx90a");
  ASSERT_TRUE(Op);
  EXPECT_EQ(Op->Kind, "buffer_atomic");
  // LDS DMA is not this protocol.
  EXPECT_FALSE(traced("buffer_load_dword v2, s[8:11], s6 offen lds", "gfx90a"));
}

TEST(AddressTraceTest, LdsAndPermutes) {
  auto Op = traced("ds_write2st64_b32 v2, v3, v4 offset0:1 offset1:2", "gfx90a");
  ASSERT_TRUE(Op);
  EXPECT_EQ(Op->Kind, "lds_store");
  EXPECT_EQ(Op->Offset, 256); // one element of 4 bytes, 64 apart
  Op = traced("ds_read2_b64 v[0:3], v2 offset0:3 offset1:5", "gfx942");
  ASSERT_TRUE(Op);
  EXPECT_EQ(Op->Kind, "lds_load");
  EXPECT_EQ(Op->Offset, 24);
  Op = traced("ds_add_rtn_u32 v1, v2, v3 offset:8", "gfx1100");
  ASSERT_TRUE(Op);
  EXPECT_EQ(Op->Kind, "lds_atomic");
  EXPECT_EQ(Op->Offset, 8);
  Op = traced("ds_bpermute_fi_b32 v1, v2, v3", "gfx1201");
  ASSERT_TRUE(Op);
  EXPECT_EQ(Op->Category, AddressCategory::LanePermute);
  EXPECT_EQ(Op->Kind, "ds_bpermute");
  Op = traced("ds_permute_b32 v1, v2, v3 offset:4", "gfx90a");
  ASSERT_TRUE(Op);
  EXPECT_EQ(Op->Kind, "ds_permute");
  EXPECT_EQ(Op->AddrLo, "v2");
  EXPECT_EQ(Op->Offset, 4);
  // No address VGPR, no LDS access, or not asked for.
  EXPECT_FALSE(traced("ds_swizzle_b32 v1, v2 offset:swizzle(SWAP,16)", "gfx90a"));
  EXPECT_FALSE(traced("ds_append v1", "gfx90a"));
  EXPECT_FALSE(traced("ds_read_b32 v1, v2", "gfx90a", {true, false}));
}

} // namespace
