// Property: every stream the builder makes decodes back to the same packets
// and re-encodes to the same dwords, for every counter on every architecture
// and every dimension choice; results aggregate by dimension with
// per-measurement baselines.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "pd_counters.h"
#include "pd_result.h"
#include "pd_sequence.h"

namespace {

void expectRoundTrip(const uint32_t *dw, size_t n) {
  size_t at = 0;
  std::vector<uint32_t> again(n + 16);
  pd_pm4_buf buf;
  pd_pm4_buf_init(&buf, again.data(), again.size());
  while (at < n) {
    pd_pm4_packet p;
    const char *why = "";
    int used = pd_pm4_decode(dw + at, n - at, &p, &why);
    ASSERT_GT(used, 0) << "dword " << at << ": " << why;
    size_t before = buf.len;
    pd_pm4_emit(&buf, &p);
    ASSERT_EQ(buf.err, 0);
    ASSERT_EQ(buf.len - before, static_cast<size_t>(used));
    pd_pm4_packet back;
    ASSERT_EQ(pd_pm4_decode(again.data() + before, buf.len - before, &back, nullptr), used);
    EXPECT_TRUE(pd_pm4_packet_equal(&p, &back));
    at += used;
  }
  ASSERT_EQ(buf.len, n);
  EXPECT_TRUE(std::equal(dw, dw + n, again.data()));
}

// Every dimension choice a counter accepts: none, aggregate, each single
// given dimension at every value, and every full combination of its dims.
std::vector<pd_dims> dimChoices(const pd_arch &a, unsigned supported) {
  std::vector<pd_dims> out(2);
  out[1].aggregate = true;
  const unsigned limits[PD_DIM_COUNT] = {a.topo.num_xcc, a.topo.num_se,
                                         a.topo.num_sa_per_se, a.topo.num_wgp_per_sa,
                                         a.topo.num_cu_per_sa};
  for (unsigned d = 0; d < PD_DIM_COUNT; ++d)
    if (supported & PD_DIM_BIT(d))
      for (unsigned v = 0; v < limits[d]; ++v) {
        pd_dims one{};
        one.given = PD_DIM_BIT(d);
        one.value[d] = v;
        out.push_back(one);
      }
  std::vector<pd_dims> full(1);
  for (unsigned d = 0; d < PD_DIM_COUNT; ++d) {
    if (!(supported & PD_DIM_BIT(d)) || d == PD_DIM_XCC)
      continue;
    std::vector<pd_dims> next;
    for (const pd_dims &p : full)
      for (unsigned v = 0; v < limits[d]; ++v) {
        pd_dims q = p;
        q.given |= PD_DIM_BIT(d);
        q.value[d] = v;
        next.push_back(q);
      }
    full = next;
  }
  out.insert(out.end(), full.begin(), full.end());
  return out;
}

TEST(PerfDkmsRoundTrip, EveryCounterEveryDimensionChoice) {
  static uint32_t storage[65536];
  size_t streams = 0, choices = 0;
  for (unsigned ai = 0; ai < pd_arch_count(); ++ai) {
    const pd_arch &a = *pd_arch_at(ai);
    for (unsigned id = 0; id < PD_CTR_COUNT; ++id) {
      pd_programmed_counter c{};
      if (!pd_counter_select(&a, static_cast<pd_counter_id>(id), &c.select))
        continue;
      c.block = pd_counter_by_id(id)->block;
      unsigned supported = pd_block_dims(&a, c.block);
      unsigned instances = pd_block_instances(&a, c.block);
      // A distinct value per instance.
      std::vector<uint64_t> readings(instances);
      for (unsigned i = 0; i < instances; ++i)
        readings[i] = 1 + i * 1000;
      for (const pd_dims &dims : dimChoices(a, supported)) {
        SCOPED_TRACE(std::string(a.name) + " " + pd_counter_by_id(id)->name);
        ASSERT_EQ(pd_dims_validate(&dims, supported, &a.topo, nullptr), 0);
        pd_dims back;
        ASSERT_EQ(pd_dims_decode(pd_dims_encode(&dims), &back, nullptr), 0);
        ++choices;
        for (uint8_t slot = 0; slot < a.blocks[c.block].num_slots; ++slot) {
          c.slot = slot;
          pd_pm4_buf buf;
          pd_pm4_buf_init(&buf, storage, 65536);
          ASSERT_EQ(pd_seq_start(&buf, &a, &c, 1), 0);
          expectRoundTrip(storage, buf.len);
          pd_pm4_buf_init(&buf, storage, 65536);
          ASSERT_EQ(pd_seq_read(&buf, &a, &c, 1, 0x7f'0000'0000ull, 7), 0);
          expectRoundTrip(storage, buf.len);
          pd_pm4_buf_init(&buf, storage, 65536);
          ASSERT_EQ(pd_seq_stop(&buf, &a), 0);
          expectRoundTrip(storage, buf.len);
          streams += 3;
        }
        // The sum takes exactly the instances whose coordinates match.
        uint64_t expected = 0;
        for (unsigned i = 0; i < instances; ++i) {
          uint8_t coords[PD_DIM_COUNT];
          uint32_t grbm;
          pd_block_instance(&a, c.block, i, coords, &grbm);
          bool match = true;
          for (unsigned d = PD_DIM_SE; d < PD_DIM_COUNT; ++d)
            if ((dims.given & PD_DIM_BIT(d)) && coords[d] != dims.value[d])
              match = false;
          if (match)
            expected += readings[i];
        }
        EXPECT_EQ(pd_result_sum(&a, c.block, &dims, readings.data()), expected);
      }
    }
  }
  EXPECT_GT(streams, 1000u);
  EXPECT_GT(choices, 100u);
}

TEST(PerfDkmsRoundTrip, ForeignHeaderBitsAndSetIndexRoundTrip) {
  // PACKET3_COMPUTE sets header bit 1; GFX10+ writers put an INDEX in bits
  // 28-31 of the SET_UCONFIG_REG offset dword. Both decode and re-encode.
  const uint32_t stream[] = {
      0xC0017902, 0x20000200, 0xE0000000, // compute SET_UCONFIG_REG, index 2, GRBM_GFX_INDEX
      0xC0004601, 0x00000407,             // predicated EVENT_WRITE CS_PARTIAL_FLUSH
  };
  expectRoundTrip(stream, 5);
  pd_pm4_packet p;
  ASSERT_EQ(pd_pm4_decode(stream, 5, &p, nullptr), 3);
  EXPECT_EQ(p.header_flags, PD_PM4_HEADER_SHADER_COMPUTE);
  EXPECT_EQ(p.set_reg.addr, 0xC200u);
  EXPECT_EQ(p.set_reg.index, 2);
  ASSERT_EQ(pd_pm4_decode(stream + 3, 2, &p, nullptr), 2);
  EXPECT_EQ(p.header_flags, PD_PM4_HEADER_PREDICATE);
}

TEST(PerfDkmsRoundTrip, RandomStreamsDecodeExactlyOrFail) {
  // Headers of the known opcodes with random counts and flag bits, random
  // bodies: a packet that decodes must re-encode to the same dwords.
  std::mt19937 rng(12345);
  const uint32_t ops[] = {0x37, 0x40, 0x46, 0x58, 0x76, 0x79, 0x10};
  unsigned decoded = 0;
  for (int iter = 0; iter < 200000; ++iter) {
    uint32_t dw[10];
    for (uint32_t &d : dw)
      d = rng();
    uint32_t count = rng() % 8;
    dw[0] = (3u << 30) | count << 16 | ops[rng() % 7] << 8 | (rng() % 8 == 0 ? rng() & 0xff : rng() & 3);
    // Often keep the fields that decoding checks in range.
    if (rng() % 2) {
      dw[1] &= 0xf000ffff;
      dw[3] &= 0xff;
      dw[5] &= 0xffffff;
      dw[6] &= 0xffff;
    }
    pd_pm4_packet p;
    int used = pd_pm4_decode(dw, 10, &p, nullptr);
    if (used < 0)
      continue;
    ++decoded;
    uint32_t again[10];
    pd_pm4_buf buf;
    pd_pm4_buf_init(&buf, again, 10);
    pd_pm4_emit(&buf, &p);
    ASSERT_EQ(buf.err, 0);
    ASSERT_EQ(buf.len, static_cast<size_t>(used));
    ASSERT_TRUE(std::equal(dw, dw + used, again)) << std::hex << dw[0];
  }
  EXPECT_GT(decoded, 1000u);
}

TEST(PerfDkmsRoundTrip, DecoderRejects) {
  pd_pm4_packet p;
  const char *why = nullptr;
  const uint32_t type0[] = {0x00000000};
  EXPECT_EQ(pd_pm4_decode(type0, 1, &p, &why), -EINVAL);
  EXPECT_STREQ(why, "not a type-3 packet header");
  const uint32_t unknown[] = {0xC0001200, 0};
  EXPECT_EQ(pd_pm4_decode(unknown, 2, &p, &why), -EINVAL);
  EXPECT_STREQ(why, "unknown PM4 opcode");
  const uint32_t truncated[] = {0xC0044000, 0x00110504, 0xD1C0};
  EXPECT_EQ(pd_pm4_decode(truncated, 3, &p, &why), -EINVAL);
  EXPECT_STREQ(why, "packet runs past the end of the stream");
  const uint32_t twoRegs[] = {0xC0027900, 0x200, 1, 2};
  EXPECT_EQ(pd_pm4_decode(twoRegs, 4, &p, &why), -EINVAL);
  const uint32_t middleBits[] = {0xC0017900, 0x00010200, 1}; // offset bits 16-27
  EXPECT_EQ(pd_pm4_decode(middleBits, 3, &p, &why), -EINVAL);
  EXPECT_STREQ(why, "SET register offset dword sets bits 16-27");
  const uint32_t reservedHeader[] = {0xC0017904, 0x200, 1};
  EXPECT_EQ(pd_pm4_decode(reservedHeader, 3, &p, &why), -EINVAL);
  EXPECT_STREQ(why, "reserved header bits 2-7 are set");
  const uint32_t shOutside[] = {0xC0017600, 0x400, 1}; // 0x3000: past the SH window
  EXPECT_EQ(pd_pm4_decode(shOutside, 3, &p, &why), -EINVAL);
  EXPECT_STREQ(why, "packet fields out of range");
}

TEST(PerfDkmsResult, SumsPerDimension) {
  const pd_arch &a = *pd_arch_find("gfx1201");
  std::vector<uint64_t> values(32, 0);
  values[10] = 100; // (se 1, sa 0, wgp 2)
  values[0] = 5;    // se 0
  pd_dims se1{};
  se1.given = PD_DIM_BIT(PD_DIM_SE);
  se1.value[PD_DIM_SE] = 1;
  pd_dims se0 = se1;
  se0.value[PD_DIM_SE] = 0;
  pd_dims all{};
  EXPECT_EQ(pd_result_sum(&a, PD_BLOCK_SQ, &se1, values.data()), 100u);
  EXPECT_EQ(pd_result_sum(&a, PD_BLOCK_SQ, &se0, values.data()), 5u);
  EXPECT_EQ(pd_result_sum(&a, PD_BLOCK_SQ, &all, values.data()), 105u);
}

TEST(PerfDkmsResult, TotalsUnwrap32BitCountersAndSurviveStart) {
  const pd_arch &a = *pd_arch_find("gfx1201"); // SQ: 32-bit, per WGP
  pd_totals t;
  pd_totals_clear(&t);
  std::vector<uint64_t> r(pd_block_instances(&a, PD_BLOCK_SQ), 0);
  // The high half of a 32-bit slot is never written: garbage is ignored.
  r[3] = 0xDEADBEEF'FFFFFFF0ull;
  pd_totals_update(&t, &a, PD_BLOCK_SQ, r.data());
  EXPECT_EQ(t.total[3], 0xFFFFFFF0u);
  r[3] = 0x10; // wrapped: 0x20 more
  pd_totals_update(&t, &a, PD_BLOCK_SQ, r.data());
  EXPECT_EQ(t.total[3], 0x1'0000'0010u);
  // A START zeroes the hardware; what was counted stays.
  pd_totals_hw_reset(&t);
  r[3] = 7;
  pd_totals_update(&t, &a, PD_BLOCK_SQ, r.data());
  EXPECT_EQ(t.total[3], 0x1'0000'0017u);

  // 64-bit blocks (TA) take the full value.
  pd_totals ta;
  pd_totals_clear(&ta);
  std::vector<uint64_t> r64(pd_block_instances(&a, PD_BLOCK_TA), 0);
  r64[0] = 0x1'0000'0000ull;
  pd_totals_update(&ta, &a, PD_BLOCK_TA, r64.data());
  EXPECT_EQ(ta.total[0], 0x1'0000'0000u);
}

TEST(PerfDkmsResult, BaselinesPerMeasurement) {
  // Two events share a counter but start at different times.
  pd_measurement early, late;
  pd_measurement_begin(&early, 0);
  pd_measurement_begin(&late, 105);
  EXPECT_EQ(pd_measurement_count(&early, 150), 150u);
  EXPECT_EQ(pd_measurement_count(&late, 150), 45u);
}

} // namespace
