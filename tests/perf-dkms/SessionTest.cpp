// The session (what the module runs for perf) against a simulated GPU:
// counts per dimension, sharing, STOP with the last reference, counts
// surviving another counter's START, 32-bit unwrapping, stale READs.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "FakeGpu.h"
#include "pd_session.h"

namespace {

constexpr uint32_t kSqWaves = 0x04;    // SQ_PERF_SEL_WAVES
constexpr uint32_t kTaBusy = 0x0f;     // TA_PERF_SEL_ta_busy
constexpr uint32_t kGl2cHit = 0x27;    // GL2C_PERF_SEL_HIT (GFX12)

pd_dims dims(std::initializer_list<std::pair<pd_dim, uint8_t>> given) {
  pd_dims d{};
  for (auto [dim, value] : given) {
    d.value[dim] = value;
    d.given |= PD_DIM_BIT(dim);
  }
  return d;
}

struct Rig {
  explicit Rig(const char *archName)
      : arch(*pd_arch_find(archName)), gpu(arch),
        totals(new pd_totals[PD_BLOCK_COUNT][PD_MAX_SLOTS]),
        stream(pd_session_stream_dwords(&arch)) {
    pd_session_init(&s, &arch, &FakeGpu::kOps, &gpu, totals.get(), stream.data());
  }
  pd_event event(pd_counter_id id, pd_dims d = {}) {
    pd_event e;
    pd_event_init(&e, id, &d);
    return e;
  }
  const pd_arch &arch;
  FakeGpu gpu;
  std::unique_ptr<pd_totals[][PD_MAX_SLOTS]> totals;
  std::vector<uint32_t> stream;
  pd_session s;
};

TEST(PerfDkmsSession, CountsPerDimensionAndSharesOneStart) {
  Rig r("gfx1201");
  pd_event all = r.event(PD_CTR_SQ_WAVES);
  pd_event se1 = r.event(PD_CTR_SQ_WAVES, dims({{PD_DIM_SE, 1}}));
  pd_event wgp = r.event(PD_CTR_SQ_WAVES,
                         dims({{PD_DIM_SE, 1}, {PD_DIM_SA, 0}, {PD_DIM_WGP, 2}}));
  ASSERT_EQ(pd_session_start(&r.s, &all), 0);
  EXPECT_EQ(r.gpu.starts, 1u);
  r.gpu.happen(PD_BLOCK_SQ, kSqWaves, 10, 5); // (se 1, sa 0, wgp 2)
  r.gpu.happen(PD_BLOCK_SQ, kSqWaves, 0, 3);  // se 0
  ASSERT_EQ(pd_session_read(&r.s), 0);
  EXPECT_EQ(all.count, 8u);

  // Later events on the same counter share the slot: no second START, and
  // they count from their own start.
  ASSERT_EQ(pd_session_start(&r.s, &se1), 0);
  ASSERT_EQ(pd_session_start(&r.s, &wgp), 0);
  EXPECT_EQ(r.gpu.starts, 1u);
  EXPECT_EQ(se1.counter.slot, all.counter.slot);
  r.gpu.happen(PD_BLOCK_SQ, kSqWaves, 10, 2);
  r.gpu.happen(PD_BLOCK_SQ, kSqWaves, 11, 4); // (se 1, sa 0, wgp 3)
  r.gpu.happen(PD_BLOCK_SQ, kSqWaves, 31, 1); // (se 3, sa 1, wgp 3)
  ASSERT_EQ(pd_session_read(&r.s), 0);
  EXPECT_EQ(all.count, 15u);
  EXPECT_EQ(se1.count, 6u);
  EXPECT_EQ(wgp.count, 2u);
}

TEST(PerfDkmsSession, StopAfterTheLastReferenceInEitherOrder) {
  for (bool firstStopsFirst : {true, false}) {
    Rig r("gfx90a");
    pd_event a = r.event(PD_CTR_GL2C_HIT), b = r.event(PD_CTR_GL2C_HIT);
    ASSERT_EQ(pd_session_start(&r.s, &a), 0);
    ASSERT_EQ(pd_session_start(&r.s, &b), 0);
    EXPECT_EQ(r.gpu.starts, 1u);
    r.gpu.happen(PD_BLOCK_GL2C, 0x11, 5, 9); // TCC_PERF_SEL_HIT, channel 5
    ASSERT_EQ(pd_session_stop(&r.s, firstStopsFirst ? &a : &b), 0);
    EXPECT_EQ(r.gpu.stops, 0u);
    r.gpu.happen(PD_BLOCK_GL2C, 0x11, 0, 1); // the other still counts
    ASSERT_EQ(pd_session_stop(&r.s, firstStopsFirst ? &b : &a), 0);
    EXPECT_EQ(r.gpu.stops, 1u);
    EXPECT_EQ((firstStopsFirst ? a : b).count, 9u);
    EXPECT_EQ((firstStopsFirst ? b : a).count, 10u);
    EXPECT_TRUE(pd_session_idle(&r.s));
  }
}

TEST(PerfDkmsSession, AnotherCountersStartLosesNothing) {
  Rig r("gfx1201");
  pd_event waves = r.event(PD_CTR_SQ_WAVES), busy = r.event(PD_CTR_TA_TA_BUSY);
  ASSERT_EQ(pd_session_start(&r.s, &waves), 0);
  r.gpu.happen(PD_BLOCK_SQ, kSqWaves, 3, 7);
  // START for TA resets every hardware counter, SQ's too.
  ASSERT_EQ(pd_session_start(&r.s, &busy), 0);
  EXPECT_EQ(r.gpu.starts, 2u);
  EXPECT_EQ(waves.count, 7u);
  r.gpu.happen(PD_BLOCK_SQ, kSqWaves, 3, 2);
  r.gpu.happen(PD_BLOCK_TA, kTaBusy, 63, 4); // the last CU
  ASSERT_EQ(pd_session_read(&r.s), 0);
  EXPECT_EQ(waves.count, 9u);
  EXPECT_EQ(busy.count, 4u);
  // Stopping one keeps perfmon running for the other.
  ASSERT_EQ(pd_session_stop(&r.s, &waves), 0);
  EXPECT_EQ(r.gpu.stops, 0u);
  ASSERT_EQ(pd_session_stop(&r.s, &busy), 0);
  EXPECT_EQ(r.gpu.stops, 1u);
}

TEST(PerfDkmsSession, Gfx12SqCountersWrapAt32Bits) {
  Rig r("gfx1201");
  pd_event e = r.event(PD_CTR_SQ_WAVES);
  ASSERT_EQ(pd_session_start(&r.s, &e), 0);
  r.gpu.happen(PD_BLOCK_SQ, kSqWaves, 0, 0xFFFFFFF0u);
  ASSERT_EQ(pd_session_read(&r.s), 0);
  EXPECT_EQ(e.count, 0xFFFFFFF0u);
  r.gpu.happen(PD_BLOCK_SQ, kSqWaves, 0, 0x20); // the hardware wraps to 0x10
  ASSERT_EQ(pd_session_read(&r.s), 0);
  EXPECT_EQ(e.count, 0x1'0000'0010u);
}

TEST(PerfDkmsSession, Gfx12L2ReadsLoAndHiHalves) {
  Rig r("gfx1201");
  pd_event e = r.event(PD_CTR_GL2C_HIT);
  ASSERT_EQ(pd_session_start(&r.s, &e), 0);
  r.gpu.happen(PD_BLOCK_GL2C, kGl2cHit, 5, 0x3'0000'0002ull);
  r.gpu.happen(PD_BLOCK_GL2C, kGl2cHit, 15, 1);
  ASSERT_EQ(pd_session_read(&r.s), 0);
  EXPECT_EQ(e.count, 0x3'0000'0003ull);
}

TEST(PerfDkmsSession, Gfx9TaPerCu) {
  Rig r("gfx90a"); // 8 SE x 1 SA x 14 CU
  pd_event cu3 = r.event(PD_CTR_TA_TA_BUSY, dims({{PD_DIM_CU, 3}}));
  pd_event se2 = r.event(PD_CTR_TA_TA_BUSY, dims({{PD_DIM_SE, 2}}));
  ASSERT_EQ(pd_session_start(&r.s, &cu3), 0);
  ASSERT_EQ(pd_session_start(&r.s, &se2), 0);
  r.gpu.happen(PD_BLOCK_TA, kTaBusy, 0 * 14 + 3, 10); // se 0, cu 3
  r.gpu.happen(PD_BLOCK_TA, kTaBusy, 2 * 14 + 3, 20); // se 2, cu 3
  r.gpu.happen(PD_BLOCK_TA, kTaBusy, 2 * 14 + 9, 40); // se 2, cu 9
  ASSERT_EQ(pd_session_read(&r.s), 0);
  EXPECT_EQ(cu3.count, 30u);
  EXPECT_EQ(se2.count, 60u);
}

TEST(PerfDkmsSession, RestartedEventKeepsItsCount) {
  Rig r("gfx942");
  pd_event e = r.event(PD_CTR_SQ_INSTS_VALU);
  ASSERT_EQ(pd_session_start(&r.s, &e), 0);
  r.gpu.happen(PD_BLOCK_SQ, 0x1a, 1, 5); // SQ_PERF_SEL_INSTS_VALU, SE 1
  ASSERT_EQ(pd_session_stop(&r.s, &e), 0);
  r.gpu.happen(PD_BLOCK_SQ, 0x1a, 1, 100); // perfmon stopped: not counted
  ASSERT_EQ(pd_session_start(&r.s, &e), 0);
  r.gpu.happen(PD_BLOCK_SQ, 0x1a, 2, 3);
  ASSERT_EQ(pd_session_read(&r.s), 0);
  EXPECT_EQ(e.count, 8u);
  EXPECT_EQ(r.gpu.starts, 2u);
}

TEST(PerfDkmsSession, StaleReadIsAnErrorAndChangesNothing) {
  Rig r("gfx1200");
  pd_event e = r.event(PD_CTR_GRBM_GUI_ACTIVE);
  ASSERT_EQ(pd_session_start(&r.s, &e), 0);
  r.gpu.happen(PD_BLOCK_GRBM, 0x02, 0, 50);
  ASSERT_EQ(pd_session_read(&r.s), 0);
  EXPECT_EQ(e.count, 50u);
  r.gpu.dropFence = true;
  r.gpu.happen(PD_BLOCK_GRBM, 0x02, 0, 50);
  EXPECT_EQ(pd_session_read(&r.s), -EIO);
  EXPECT_EQ(e.count, 50u);
  r.gpu.dropFence = false;
  ASSERT_EQ(pd_session_read(&r.s), 0);
  EXPECT_EQ(e.count, 100u);
}

TEST(PerfDkmsSession, NoSlotOrNoCounter) {
  Rig r("gfx1201");
  pd_event a = r.event(PD_CTR_TA_TA_BUSY), b = r.event(PD_CTR_TA_BUFFER_LOAD_WAVEFRONTS),
           c = r.event(PD_CTR_TA_BUFFER_STORE_WAVEFRONTS), d = r.event(PD_CTR_SQ_INSTS_VMEM);
  ASSERT_EQ(pd_session_start(&r.s, &a), 0);
  ASSERT_EQ(pd_session_start(&r.s, &b), 0);
  EXPECT_EQ(pd_session_start(&r.s, &c), -EBUSY); // TA has two slots
  EXPECT_FALSE(c.counting);
  EXPECT_EQ(pd_session_start(&r.s, &d), -ENOENT); // not on GFX12
  EXPECT_FALSE(d.counting);
  EXPECT_EQ(pd_session_stop(&r.s, &c), 0); // stopping what never started
  EXPECT_EQ(r.gpu.stops, 0u);
}

TEST(PerfDkmsSession, EventConfigFromPerfAttr) {
  const pd_arch &g12 = *pd_arch_find("gfx1201");
  const pd_arch &g9 = *pd_arch_find("gfx942");
  pd_counter_id id;
  pd_dims d;
  const char *why = nullptr;
  // sq_waves, se=1 with its flag (bits 8-15 and 42).
  ASSERT_EQ(pd_event_config(&g12, PD_CTR_SQ_WAVES, 0x0000'0400'0000'0100ull, &id, &d, &why), 0);
  EXPECT_EQ(id, PD_CTR_SQ_WAVES);
  EXPECT_EQ(d.given, PD_DIM_BIT(PD_DIM_SE));
  EXPECT_EQ(d.value[PD_DIM_SE], 1);
  // xcc=7 is fine on gfx942 (8 XCCs), not on gfx1201.
  EXPECT_EQ(pd_event_config(&g9, PD_CTR_GRBM_COUNT, (1ull << 41) | 7, &id, &d, &why), 0);
  EXPECT_EQ(pd_event_config(&g12, PD_CTR_GRBM_COUNT, (1ull << 41) | 7, &id, &d, &why), -EINVAL);
  EXPECT_STREQ(why, "the counter cannot be split by this dimension");
  EXPECT_EQ(pd_event_config(&g12, PD_CTR_COUNT, 0, &id, &d, &why), -EINVAL);
  EXPECT_STREQ(why, "no such counter");
  EXPECT_EQ(pd_event_config(&g12, 1ull << 40, 0, &id, &d, &why), -EINVAL);
  EXPECT_EQ(pd_event_config(&g12, PD_CTR_SQ_INSTS_VMEM, 0, &id, &d, &why), -EINVAL);
  EXPECT_STREQ(why, "the GPU has no such counter");
  EXPECT_EQ(pd_event_config(&g12, PD_CTR_SQ_WAVES, 0x0100, &id, &d, &why), -EINVAL);
  EXPECT_STREQ(why, "a dimension value is set without its given flag");
  EXPECT_EQ(pd_event_config(&g12, PD_CTR_SQ_WAVES, (1ull << 42) | 0x0400, &id, &d, &why),
            -EINVAL); // se=4 of 4
  EXPECT_STREQ(why, "dimension value beyond the GPU's topology");
}

} // namespace
