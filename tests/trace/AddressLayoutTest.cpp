//===- AddressLayoutTest.cpp - Address-trace block layouts ----------------===//
#include "asm-instrument/trace/AddressLayout.h"
#include "gtest/gtest.h"
#include <vector>

using namespace stinkytofu::trace;

TEST(AddressLayout, NamesAndCounts) {
  EXPECT_EQ(addressLayoutOf("addr_trace_load"), AddressLayout::Flat64);
  EXPECT_EQ(addressLayoutOf("addr_trace_atomic"), AddressLayout::Flat64);
  EXPECT_EQ(addressLayoutOf("addr_trace_lds_atomic"), AddressLayout::Word32);
  EXPECT_EQ(addressLayoutOf("addr_trace_ds_bpermute"), AddressLayout::Word32);
  EXPECT_EQ(addressLayoutOf("addr_trace_buffer_store"), AddressLayout::Buffer);
  EXPECT_EQ(addressLayoutOf("addr_trace_struct_buffer_load"), AddressLayout::StructBuffer);
  EXPECT_EQ(addressLayoutOf("vmem_load"), AddressLayout::None);
  // The spec's R: counts for wave64 (exec words included).
  EXPECT_EQ(addressPayloadCount(AddressLayout::Flat64, 64), 130u);
  EXPECT_EQ(addressPayloadCount(AddressLayout::Word32, 64), 66u);
  EXPECT_EQ(addressPayloadCount(AddressLayout::Buffer, 64), 69u);
  EXPECT_EQ(addressPayloadCount(AddressLayout::StructBuffer, 32), 69u);
}

TEST(AddressLayout, StructBufferUsesDescriptorStride) {
  // wave32, lanes 0 and 3 active; base 0x1234_0000_1000, stride 16 in
  // descriptor word 1 bits 29:16, soffset 8.
  std::vector<uint32_t> Words = {0x9, 0, 0x1000, 0x1234 | (16u << 16), 8};
  for (unsigned L = 0; L < 32; ++L)
    Words.push_back(L * 4); // voffset
  for (unsigned L = 0; L < 32; ++L)
    Words.push_back(L);     // vindex
  AddressTrace A;
  decodeAddressBlock(AddressLayout::StructBuffer, 32, Words, A);
  ASSERT_EQ(A.Lanes.size(), 2u);
  EXPECT_EQ(A.Lanes[0], std::make_pair(0u, uint64_t(0x123400001008)));
  EXPECT_EQ(A.Lanes[1], std::make_pair(3u, uint64_t(0x123400001008 + 12 + 3 * 16)));
}

TEST(AddressLayout, ExecHighWordIgnoredOnWave32) {
  std::vector<uint32_t> Words = {0x1, 0xffffffff};
  for (unsigned L = 0; L < 32; ++L)
    Words.push_back(0x100 + L);
  AddressTrace A;
  decodeAddressBlock(AddressLayout::Word32, 32, Words, A);
  EXPECT_EQ(A.Exec, 1u);
  ASSERT_EQ(A.Lanes.size(), 1u);
  EXPECT_EQ(A.Lanes[0].second, 0x100u);
}
