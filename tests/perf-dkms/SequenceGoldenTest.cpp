// Exact START / READ / STOP dword streams (perf-dkms-reference.md 4.2).
// The literal goldens spell every dword; the per-architecture goldens are
// composed by an encoder written here from the PM4 spec, not the core's.
#include <gtest/gtest.h>

#include <vector>

#include "pd_counters.h"
#include "pd_sequence.h"

namespace {

using Dwords = std::vector<uint32_t>;

const pd_arch &archNamed(const char *name) { return *pd_arch_find(name); }

pd_programmed_counter slot0(const pd_arch &a, pd_counter_id id) {
  pd_programmed_counter c{};
  c.block = pd_counter_by_id(id)->block;
  c.slot = 0;
  EXPECT_TRUE(pd_counter_select(&a, id, &c.select));
  return c;
}

Dwords start(const pd_arch &a, pd_counter_id id) {
  static uint32_t storage[65536];
  pd_pm4_buf buf;
  pd_pm4_buf_init(&buf, storage, 65536);
  pd_programmed_counter c = slot0(a, id);
  EXPECT_EQ(pd_seq_start(&buf, &a, &c, 1), 0);
  return Dwords(storage, storage + buf.len);
}

constexpr uint64_t kResult = 0x100000;

Dwords read(const pd_arch &a, pd_counter_id id) {
  static uint32_t storage[65536];
  pd_pm4_buf buf;
  pd_pm4_buf_init(&buf, storage, 65536);
  pd_programmed_counter c = slot0(a, id);
  EXPECT_EQ(pd_seq_read(&buf, &a, &c, 1, kResult, 1), 0);
  return Dwords(storage, storage + buf.len);
}

Dwords stop(const pd_arch &a) {
  uint32_t storage[64];
  pd_pm4_buf buf;
  pd_pm4_buf_init(&buf, storage, 64);
  EXPECT_EQ(pd_seq_stop(&buf, &a), 0);
  return Dwords(storage, storage + buf.len);
}

TEST(PerfDkmsGolden, StopGfx1201) {
  const Dwords golden = {
      0xC0017900, // SET_UCONFIG_REG: PACKET3(0x79, 1 = body dwords - 1)
      0x00000200, //   GRBM_GFX_INDEX 0xC200 - 0xC000
      0xE0000000, //   SE (31), instance (30), SA (29) broadcast
      0xC0017900, // SET_UCONFIG_REG
      0x00001808, //   CP_PERFMON_CNTL 0xD808 - 0xC000
      0x00000002, //   PERFMON_STATE = stop
      0xC0004600, // EVENT_WRITE: PACKET3(0x46, 0)
      0x00000407, //   CS_PARTIAL_FLUSH (7) | EVENT_INDEX 4 << 8
  };
  EXPECT_EQ(stop(archNamed("gfx1201")), golden);
}

TEST(PerfDkmsGolden, StartSqGfx1201) {
  const Dwords golden = {
      0xC0004600, 0x00000407,             // EVENT_WRITE CS_PARTIAL_FLUSH, index 4
      0xC0017900, 0x00000200, 0xE0000000, // GRBM_GFX_INDEX = broadcast all
      0xC0017900, 0x00001808, 0x00000000, // CP_PERFMON_CNTL = disable and reset
      0xC0017900, 0x000019E2, 0x0001FFFF, // SQ_PERFCOUNTER_CTRL2 0xD9E2 = FORCE_EN | VMID_EN 0xFFFF << 1
      0xC0017900, 0x00000200, 0xE0000000, // GRBM_GFX_INDEX = broadcast all
      0xC0017900, 0x000019C0, 0x00000004, // SQ_PERFCOUNTER0_SELECT 0xD9C0 = sq_waves (4)
      0xC0017900, 0x000019E0, 0x00000055, // SQ_PERFCOUNTER_CTRL 0xD9E0 = PS|GS|HS|CS (bits 0,2,4,6)
      0xC0017600, 0x0000020B, 0x00000001, // SET_SH_REG COMPUTE_PERFCOUNT_ENABLE 0x2E0B - 0x2C00 = 1
      0xC0017900, 0x00001808, 0x00000001, // CP_PERFMON_CNTL = start
      0xC0004600, 0x00000407,             // EVENT_WRITE CS_PARTIAL_FLUSH
  };
  EXPECT_EQ(start(archNamed("gfx1201"), PD_CTR_SQ_WAVES), golden);
}

TEST(PerfDkmsGolden, StartTaGfx90a) {
  const Dwords golden = {
      0xC0004600, 0x00000407,             // CS_PARTIAL_FLUSH
      0xC0017900, 0x00000200, 0xE0000000, // GRBM_GFX_INDEX = broadcast all
      0xC0017900, 0x00001CBF, 0x00000001, // RLC_PERFMON_CLK_CNTL 0xDCBF: perfmon clocks on (GFX9)
      0xC0017900, 0x00001808, 0x00000000, // CP_PERFMON_CNTL = disable and reset
      // no SQ counter: no SQ_PERFCOUNTER_CTRL2
      0xC0017900, 0x00000200, 0xE0000000, // GRBM_GFX_INDEX = broadcast all
      0xC0017900, 0x00001AC0, 0x0000000F, // TA_PERFCOUNTER0_SELECT 0xDAC0 = ta_busy (15)
      0xC0017600, 0x0000020B, 0x00000001, // COMPUTE_PERFCOUNT_ENABLE = 1 (0x2E0B, not 0xCE0B)
      0xC0017900, 0x00001808, 0x00000001, // CP_PERFMON_CNTL = start
      0xC0004600, 0x00000407,             // CS_PARTIAL_FLUSH
  };
  EXPECT_EQ(start(archNamed("gfx90a"), PD_CTR_TA_TA_BUSY), golden);
}

TEST(PerfDkmsGolden, StartGl2cGfx1200) {
  Dwords golden = {
      0xC0004600, 0x00000407,             // CS_PARTIAL_FLUSH
      0xC0017900, 0x00000200, 0xE0000000, // GRBM_GFX_INDEX = broadcast all
      0xC0017900, 0x00001808, 0x00000000, // CP_PERFMON_CNTL = disable and reset
      0xC0017900, 0x00000200, 0xE0000000, // GRBM_GFX_INDEX = broadcast all
      // Per channel (8 on gfx1200): GRBM_GFX_INDEX = SE and SA broadcast |
      // instance, then GL2C_PERFCOUNTER0_SELECT 0xDB80 = GL2C_PERF_SEL_HIT
      // (0x27 in soc24_enum.h).
      0xC0017900, 0x00000200, 0xA0000000, 0xC0017900, 0x00001B80, 0x00000027,
      0xC0017900, 0x00000200, 0xA0000001, 0xC0017900, 0x00001B80, 0x00000027,
      0xC0017900, 0x00000200, 0xA0000002, 0xC0017900, 0x00001B80, 0x00000027,
      0xC0017900, 0x00000200, 0xA0000003, 0xC0017900, 0x00001B80, 0x00000027,
      0xC0017900, 0x00000200, 0xA0000004, 0xC0017900, 0x00001B80, 0x00000027,
      0xC0017900, 0x00000200, 0xA0000005, 0xC0017900, 0x00001B80, 0x00000027,
      0xC0017900, 0x00000200, 0xA0000006, 0xC0017900, 0x00001B80, 0x00000027,
      0xC0017900, 0x00000200, 0xA0000007, 0xC0017900, 0x00001B80, 0x00000027,
      0xC0017900, 0x00000200, 0xE0000000, // back to broadcast after the channels
      0xC0017600, 0x0000020B, 0x00000001, // COMPUTE_PERFCOUNT_ENABLE = 1
      0xC0017900, 0x00001808, 0x00000001, // CP_PERFMON_CNTL = start
      0xC0004600, 0x00000407,             // CS_PARTIAL_FLUSH
  };
  EXPECT_EQ(start(archNamed("gfx1200"), PD_CTR_GL2C_HIT), golden);
}

TEST(PerfDkmsGolden, ReadGrbmGfx1201) {
  const Dwords golden = {
      0xC0017900, 0x00001808, 0x00000401, // CP_PERFMON_CNTL = start | SAMPLE_ENABLE (bit 10)
      0xC0017900, 0x00000200, 0xE0000000, // GRBM_GFX_INDEX = broadcast all
      0xC0004600, 0x00000407,             // CS_PARTIAL_FLUSH
      0xC0017900, 0x00000200, 0xE0000000, // the one GRBM instance: broadcast
      0xC0044000, // COPY_DATA: PACKET3(0x40, 4)
      0x00110504, //   SRC_SEL 4 (perf) | DST_SEL 5 << 8 (memory) | COUNT_SEL 64-bit (16) | WR_CONFIRM (20)
      0x0000D040, //   GRBM_PERFCOUNTER0_LO
      0x00000000, //   source high
      0x00100000, //   result buffer, reading 0
      0x00000000, //   destination high
      0xC0017900, 0x00000200, 0xE0000000, // GRBM_GFX_INDEX = broadcast all
      0xC0065800, // ACQUIRE_MEM, GFX10+ form: PACKET3(0x58, 6)
      0x00000000, //   dword 1 unused from GFX10 on
      0x00000001, //   COHER_SIZE: 8 bytes -> 1 unit of 256 bytes
      0x00000000, //   COHER_SIZE_HI
      0x00001000, //   COHER_BASE: 0x100000 >> 8
      0x00000000, //   COHER_BASE_HI
      0x0000000A, //   POLL_INTERVAL 10
      0x00008000, //   GCR_CNTL: GL2_WB (bit 15)
      0xC0033700, // WRITE_DATA: PACKET3(0x37, 3)
      0x00100500, //   DST_SEL 5 << 8 (memory) | WR_CONFIRM (20)
      0x00100008, //   fence right after the 8 bytes of readings
      0x00000000, //   destination high
      0x00000001, //   fence value
  };
  EXPECT_EQ(read(archNamed("gfx1201"), PD_CTR_GRBM_COUNT), golden);
}

TEST(PerfDkmsGolden, ReadSqGfx90a) {
  Dwords golden = {
      0xC0017900, 0x00001808, 0x00000401, // CP_PERFMON_CNTL = start | sample
      0xC0017900, 0x00000200, 0xE0000000, // GRBM_GFX_INDEX = broadcast all
      0xC0004600, 0x00000407,             // CS_PARTIAL_FLUSH
  };
  // GFX9 SQ counts per SE: 8 SEs, GRBM_GFX_INDEX = SA and instance
  // broadcast | SE_INDEX << 16, then a 64-bit COPY_DATA of
  // SQ_PERFCOUNTER0_LO 0xD1C0 (the reference read 0xF1C0) to reading `se`.
  for (uint32_t se = 0; se < 8; ++se) {
    const Dwords perSe = {0xC0017900, 0x00000200, 0x60000000 | se << 16,
                          0xC0044000, 0x00110504, 0x0000D1C0, 0x00000000,
                          0x00100000 + 8 * se, 0x00000000};
    golden.insert(golden.end(), perSe.begin(), perSe.end());
  }
  const Dwords tail = {
      0xC0017900, 0x00000200, 0xE0000000, // GRBM_GFX_INDEX = broadcast all
      0xC0055800, // ACQUIRE_MEM, GFX9 form: PACKET3(0x58, 5)
      0x00840000, //   CP_COHER_CNTL: TC_ACTION_ENA (23) | TC_WB_ACTION_ENA (18)
      0x00000001, //   64 bytes -> 1 unit of 256 bytes
      0x00000000, 0x00001000, 0x00000000, // size high, base 0x100000 >> 8, base high
      0x0000000A, //   POLL_INTERVAL 10
      0xC0033700, 0x00100500, 0x00100040, 0x00000000, 0x00000001, // fence after 64 bytes
  };
  golden.insert(golden.end(), tail.begin(), tail.end());
  EXPECT_EQ(read(archNamed("gfx90a"), PD_CTR_SQ_WAVES), golden);
}

TEST(PerfDkmsGolden, StartSqGfx942) {
  const Dwords golden = {
      0xC0004600, 0x00000407,             // CS_PARTIAL_FLUSH
      0xC0017900, 0x00000200, 0xE0000000, // GRBM_GFX_INDEX = broadcast all
      0xC0017900, 0x00001CBF, 0x00000001, // RLC_PERFMON_CLK_CNTL = perfmon clocks on
      0xC0017900, 0x00001808, 0x00000000, // CP_PERFMON_CNTL = disable and reset
      0xC0017900, 0x000019E2, 0x00000001, // SQ_PERFCOUNTER_CTRL2 = FORCE_EN (GFX9 has no VMID_EN)
      0xC0017900, 0x00000200, 0xE0000000, // GRBM_GFX_INDEX = broadcast all
      // SQ_PERFCOUNTER0_SELECT 0xD9C0 = SQ_PERF_SEL_INSTS_VALU (0x1a) | SQC_BANK_MASK
      // 0xF << 12 | SQC_CLIENT_MASK 0xF << 16 | SIMD_MASK 0xF << 24
      0xC0017900, 0x000019C0, 0x0F0FF01A,
      0xC0017900, 0x000019E0, 0x0000007F, // SQ_PERFCOUNTER_CTRL = PS|VS|GS|ES|HS|LS|CS
      0xC0017600, 0x0000020B, 0x00000001, // COMPUTE_PERFCOUNT_ENABLE = 1
      0xC0017900, 0x00001808, 0x00000001, // CP_PERFMON_CNTL = start
      0xC0004600, 0x00000407,             // CS_PARTIAL_FLUSH
  };
  EXPECT_EQ(start(archNamed("gfx942"), PD_CTR_SQ_INSTS_VALU), golden);
}

TEST(PerfDkmsGolden, StopGfx90a) {
  const Dwords golden = {
      0xC0017900, 0x00000200, 0xE0000000, // GRBM_GFX_INDEX = broadcast all
      0xC0017900, 0x00001808, 0x00000002, // CP_PERFMON_CNTL = stop
      0xC0004600, 0x00000407,             // CS_PARTIAL_FLUSH
  };
  EXPECT_EQ(stop(archNamed("gfx90a")), golden);
}

TEST(PerfDkmsGolden, ReadTaGfx942) {
  Dwords golden = {
      0xC0017900, 0x00001808, 0x00000401, // CP_PERFMON_CNTL = start | sample
      0xC0017900, 0x00000200, 0xE0000000, // GRBM_GFX_INDEX = broadcast all
      0xC0004600, 0x00000407,             // CS_PARTIAL_FLUSH
  };
  // TA counts per CU: 4 SE x 1 SA x 10 CU on one gfx942 XCC.
  for (uint32_t se = 0; se < 4; ++se)
    for (uint32_t cu = 0; cu < 10; ++cu) {
      uint32_t reading = se * 10 + cu;
      const Dwords perCu = {
          0xC0017900, 0x00000200, se << 16 | cu, // GRBM_GFX_INDEX: SE_INDEX, SA 0, INSTANCE = CU
          0xC0044000, 0x00110504,                // COPY_DATA perf -> memory, 64-bit, confirmed
          0x0000D2C0, 0x00000000,                // TA_PERFCOUNTER0_LO
          0x00100000 + 8 * reading, 0x00000000,  // reading `reading`
      };
      golden.insert(golden.end(), perCu.begin(), perCu.end());
    }
  const Dwords tail = {
      0xC0017900, 0x00000200, 0xE0000000,       // GRBM_GFX_INDEX = broadcast all
      0xC0055800, 0x00840000, 0x00000002,       // ACQUIRE_MEM (GFX9): TC_ACTION | TC_WB, 320 bytes = 2 units
      0x00000000, 0x00001000, 0x00000000, 0x0000000A, // size hi, base 0x100000 >> 8, base hi, poll 10
      0xC0033700, 0x00100500, 0x00100140, 0x00000000, 0x00000001, // fence after the 320 bytes
  };
  golden.insert(golden.end(), tail.begin(), tail.end());
  EXPECT_EQ(read(archNamed("gfx942"), PD_CTR_TA_TA_BUSY), golden);
}

TEST(PerfDkmsGolden, ReadGl2cGfx1201) {
  Dwords golden = {
      0xC0017900, 0x00001808, 0x00000401, // CP_PERFMON_CNTL = start | sample
      0xC0017900, 0x00000200, 0xE0000000, // GRBM_GFX_INDEX = broadcast all
      0xC0004600, 0x00000407,             // CS_PARTIAL_FLUSH
  };
  // 16 channels; GFX12 GL2C: back to broadcast, select the channel, then LO
  // and HI as two 32-bit copies into the two halves of the reading.
  for (uint32_t ch = 0; ch < 16; ++ch) {
    const Dwords perChannel = {
        0xC0017900, 0x00000200, 0xE0000000,      // GRBM_GFX_INDEX = broadcast all
        0xC0017900, 0x00000200, 0xA0000000 | ch, // SE and SA broadcast, INSTANCE = channel
        0xC0044000, 0x00100504, 0x0000D380, 0x00000000, // COPY_DATA 32-bit GL2C_PERFCOUNTER0_LO
        0x00100000 + 8 * ch, 0x00000000,                //   -> low half of reading `ch`
        0xC0044000, 0x00100504, 0x0000D381, 0x00000000, // COPY_DATA 32-bit GL2C_PERFCOUNTER0_HI
        0x00100004 + 8 * ch, 0x00000000,                //   -> high half
    };
    golden.insert(golden.end(), perChannel.begin(), perChannel.end());
  }
  const Dwords tail = {
      0xC0017900, 0x00000200, 0xE0000000, // GRBM_GFX_INDEX = broadcast all
      0xC0065800, 0x00000000, 0x00000001, // ACQUIRE_MEM (GFX10+), 128 bytes = 1 unit
      0x00000000, 0x00001000, 0x00000000, 0x0000000A, 0x00008000, // base 0x100000 >> 8, poll 10, GL2_WB
      0xC0033700, 0x00100500, 0x00100080, 0x00000000, 0x00000001, // fence after the 128 bytes
  };
  golden.insert(golden.end(), tail.begin(), tail.end());
  EXPECT_EQ(read(archNamed("gfx1201"), PD_CTR_GL2C_HIT), golden);
}

// An independent encoder for the composed goldens below.
struct Stream {
  Dwords d;
  void setU(uint32_t addr, uint32_t v) { d.insert(d.end(), {0xC0017900, addr - 0xC000, v}); }
  void flush() { d.insert(d.end(), {0xC0004600, 0x00000407}); }
  void broadcast() { setU(0xC200, 0xE0000000); }
  void copy(uint32_t reg, uint64_t dst, bool is64) {
    d.insert(d.end(), {0xC0044000, is64 ? 0x00110504u : 0x00100504u, reg, 0,
                       static_cast<uint32_t>(dst), static_cast<uint32_t>(dst >> 32)});
  }
};

struct ArchFacts {
  const char *name;
  bool gfx12;
  unsigned sqReadings, taReadings, channels;
};

// Topologies: gfx90a 8 SE x 14 CU (SQ per SE); gfx942 4 SE x 10 CU per XCC;
// gfx1200 2 SE x 2 SA x 4 WGP (8 CU); gfx1201 4 SE x 2 SA x 4 WGP (8 CU).
// TA counts per CU everywhere, GFX12 SQ per WGP.
const ArchFacts kArchs[] = {
    {"gfx90a", false, 8, 112, 16},
    {"gfx942", false, 4, 40, 16},
    {"gfx1200", true, 16, 32, 8},
    {"gfx1201", true, 32, 64, 16},
};

enum class Unit { Se, Wgp, Cu };

// GRBM_GFX_INDEX of reading i: SE_INDEX 16-23, SA_INDEX 8-15, INSTANCE 0-7.
uint32_t unitIndex(const pd_arch &a, unsigned i, Unit kind) {
  if (kind == Unit::Se)
    return 0x60000000 | i << 16; // SA and instance broadcast, SE_INDEX
  unsigned perSa = kind == Unit::Wgp ? a.topo.num_wgp_per_sa : a.topo.num_cu_per_sa;
  unsigned instance = i % perSa, sa = i / perSa % a.topo.num_sa_per_se,
           se = i / perSa / a.topo.num_sa_per_se;
  return se << 16 | sa << 8 | instance;
}

TEST(PerfDkmsGolden, EveryArchSqTaGl2c) {
  for (const ArchFacts &f : kArchs) {
    SCOPED_TRACE(f.name);
    const pd_arch &a = archNamed(f.name);
    uint32_t sel = 0;

    // START for SQ: CTRL2 value and SQ select masks differ per family.
    // GFX9 forces the perfmon clocks on (RLC_PERFMON_CLK_CNTL 0xDCBF = 1).
    auto head = [&](Stream &st) {
      st.flush(); st.broadcast();
      if (!f.gfx12)
        st.setU(0xDCBF, 1);
      st.setU(0xD808, 0);
    };
    Stream s;
    head(s);
    s.setU(0xD9E2, f.gfx12 ? 0x1FFFF : 0x1);
    s.broadcast();
    pd_counter_select(&a, PD_CTR_SQ_WAVES, &sel);
    s.setU(0xD9C0, sel | (f.gfx12 ? 0 : 0x0F0FF000));
    s.setU(0xD9E0, f.gfx12 ? 0x55 : 0x7F);
    s.d.insert(s.d.end(), {0xC0017600, 0x20B, 1});
    s.setU(0xD808, 1); s.flush();
    EXPECT_EQ(start(a, PD_CTR_SQ_WAVES), s.d);

    // START for TA and GL2C.
    Stream t;
    head(t); t.broadcast();
    pd_counter_select(&a, PD_CTR_TA_TA_BUSY, &sel);
    t.setU(0xDAC0, sel);
    t.d.insert(t.d.end(), {0xC0017600, 0x20B, 1});
    t.setU(0xD808, 1); t.flush();
    EXPECT_EQ(start(a, PD_CTR_TA_TA_BUSY), t.d);

    Stream g;
    head(g); g.broadcast();
    pd_counter_select(&a, PD_CTR_GL2C_MISS, &sel);
    for (uint32_t ch = 0; ch < f.channels; ++ch) {
      g.setU(0xC200, 0xA0000000 | ch);
      g.setU(0xDB80, sel);
    }
    g.broadcast();
    g.d.insert(g.d.end(), {0xC0017600, 0x20B, 1});
    g.setU(0xD808, 1); g.flush();
    EXPECT_EQ(start(a, PD_CTR_GL2C_MISS), g.d);

    // READ: every instance, then ACQUIRE_MEM and the fence.
    auto readTail = [&](Stream &r, unsigned readings) {
      r.broadcast();
      uint32_t units = (readings * 8 + 255) / 256;
      if (f.gfx12)
        r.d.insert(r.d.end(), {0xC0065800, 0, units, 0, 0x1000, 0, 10, 0x8000});
      else
        r.d.insert(r.d.end(), {0xC0055800, 0x00840000, units, 0, 0x1000, 0, 10});
      r.d.insert(r.d.end(), {0xC0033700, 0x00100500,
                             static_cast<uint32_t>(kResult + readings * 8), 0, 1});
    };
    auto readHead = [&](Stream &r) { r.setU(0xD808, 0x401); r.broadcast(); r.flush(); };

    // GFX12 SQ counters are 32-bit (no HI register): one 32-bit copy.
    Stream rs; readHead(rs);
    for (unsigned i = 0; i < f.sqReadings; ++i) {
      rs.setU(0xC200, unitIndex(a, i, f.gfx12 ? Unit::Wgp : Unit::Se));
      rs.copy(0xD1C0, kResult + 8 * i, !f.gfx12);
    }
    readTail(rs, f.sqReadings);
    EXPECT_EQ(read(a, PD_CTR_SQ_WAVES), rs.d);

    Stream rt; readHead(rt);
    for (unsigned i = 0; i < f.taReadings; ++i) {
      rt.setU(0xC200, unitIndex(a, i, Unit::Cu));
      rt.copy(0xD2C0, kResult + 8 * i, true);
    }
    readTail(rt, f.taReadings);
    EXPECT_EQ(read(a, PD_CTR_TA_TA_BUSY), rt.d);

    // GL2C: GFX12 toggles broadcast -> channel and reads LO and HI as two
    // 32-bit copies; GFX9 TCC reads 64 bits at once.
    Stream rg; readHead(rg);
    for (uint32_t ch = 0; ch < f.channels; ++ch) {
      uint64_t dst = kResult + 8 * ch;
      if (f.gfx12) {
        rg.broadcast();
        rg.setU(0xC200, 0xA0000000 | ch);
        rg.copy(0xD380, dst, false);
        rg.copy(0xD381, dst + 4, false);
      } else {
        rg.setU(0xC200, 0xA0000000 | ch);
        rg.copy(0xD380, dst, true);
      }
    }
    readTail(rg, f.channels);
    EXPECT_EQ(read(a, PD_CTR_GL2C_MISS), rg.d);

    Stream st; st.broadcast(); st.setU(0xD808, 2); st.flush();
    EXPECT_EQ(stop(a), st.d);
  }
}

TEST(PerfDkmsGolden, Errors) {
  const pd_arch &a = archNamed("gfx1201");
  uint32_t storage[8];
  pd_pm4_buf buf;
  pd_programmed_counter c = slot0(a, PD_CTR_SQ_WAVES);
  pd_pm4_buf_init(&buf, storage, 8);
  EXPECT_EQ(pd_seq_start(&buf, &a, &c, 1), -ENOSPC);
  pd_pm4_buf_init(&buf, storage, 8);
  EXPECT_EQ(pd_seq_read(&buf, &a, &c, 1, 0x100010, 1), -EINVAL); // not 256-aligned
  c.slot = PD_MAX_SLOTS;
  pd_pm4_buf_init(&buf, storage, 8);
  EXPECT_EQ(pd_seq_start(&buf, &a, &c, 1), -EINVAL);
}

} // namespace
