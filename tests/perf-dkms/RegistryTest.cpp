// Counter registry lookups and the register tables against the Linux rule.
#include <gtest/gtest.h>

#include <string>

#include "pd_counters.h"
#include "pd_pm4.h"

namespace {

const pd_arch &arch(const char *name) {
  const pd_arch *a = pd_arch_find(name);
  EXPECT_NE(a, nullptr) << name;
  return *a;
}

TEST(PerfDkmsRegistry, ArchLookup) {
  EXPECT_EQ(pd_arch_count(), 4u);
  for (const char *name : {"gfx90a", "gfx942", "gfx1200", "gfx1201"})
    EXPECT_STREQ(arch(name).name, name);
  EXPECT_EQ(pd_arch_find("gfx906"), nullptr);
  EXPECT_EQ(pd_arch_at(4), nullptr);
}

TEST(PerfDkmsRegistry, NamesAndIds) {
  for (unsigned id = 0; id < PD_CTR_COUNT; ++id) {
    const pd_counter_def *def = pd_counter_by_id(id);
    ASSERT_NE(def, nullptr);
    EXPECT_EQ(def->id, id);
    EXPECT_EQ(pd_counter_by_name(def->name), def);
  }
  EXPECT_EQ(pd_counter_by_id(PD_CTR_COUNT), nullptr);
  EXPECT_EQ(pd_counter_by_name("sq_wave"), nullptr);
  EXPECT_EQ(pd_counter_by_name(""), nullptr);
  EXPECT_EQ(pd_counter_by_name("sq_waves")->block, PD_BLOCK_SQ);
  EXPECT_EQ(pd_counter_by_name("ta_ta_busy")->block, PD_BLOCK_TA);
  EXPECT_EQ(pd_counter_by_name("gl2c_hit")->block, PD_BLOCK_GL2C);
  EXPECT_EQ(pd_counter_by_name("grbm_count")->block, PD_BLOCK_GRBM);
}

TEST(PerfDkmsRegistry, SelectsPerArch) {
  uint32_t select = 0xdead;
  // grbm_count's select is a real 0 and is found.
  for (const char *name : {"gfx90a", "gfx942", "gfx1200", "gfx1201"}) {
    EXPECT_TRUE(pd_counter_select(&arch(name), PD_CTR_GRBM_COUNT, &select));
    EXPECT_EQ(select, 0u);
    EXPECT_TRUE(pd_counter_select(&arch(name), PD_CTR_SQ_WAVES, &select));
    EXPECT_EQ(select, 4u);
  }
  // Checked against the Linux enum headers: vega10_enum.h TCC_PERF_SEL_HIT,
  // soc24_enum.h GL2C_PERF_SEL_HIT and GL2C_PERF_SEL_MC_RDREQ.
  EXPECT_TRUE(pd_counter_select(&arch("gfx90a"), PD_CTR_GL2C_HIT, &select));
  EXPECT_EQ(select, 0x11u);
  EXPECT_TRUE(pd_counter_select(&arch("gfx1201"), PD_CTR_GL2C_HIT, &select));
  EXPECT_EQ(select, 0x27u);
  EXPECT_TRUE(pd_counter_select(&arch("gfx1200"), PD_CTR_GL2C_EA_RDREQ, &select));
  EXPECT_EQ(select, 0x5bu);
  EXPECT_TRUE(pd_counter_select(&arch("gfx942"), PD_CTR_SQ_INSTS_LDS, &select));
  EXPECT_EQ(select, 0x22u);
  EXPECT_TRUE(pd_counter_select(&arch("gfx1201"), PD_CTR_SQ_INSTS_LDS, &select));
  EXPECT_EQ(select, 0x2du);
  // Not on the architecture: not found, and *select untouched.
  select = 0xdead;
  EXPECT_FALSE(pd_counter_select(&arch("gfx942"), PD_CTR_SQ_WAVES_32, &select));
  EXPECT_FALSE(pd_counter_select(&arch("gfx1201"), PD_CTR_SQ_INSTS_VMEM, &select));
  EXPECT_EQ(select, 0xdeadu);
  EXPECT_TRUE(pd_counter_select(&arch("gfx1201"), PD_CTR_SQ_WAVES_32, &select));
  EXPECT_TRUE(pd_counter_select(&arch("gfx90a"), PD_CTR_SQ_INSTS_VMEM, &select));
}

TEST(PerfDkmsRegistry, DimensionsPerBlock) {
  const unsigned se = PD_DIM_BIT(PD_DIM_SE), sa = PD_DIM_BIT(PD_DIM_SA),
                 wgp = PD_DIM_BIT(PD_DIM_WGP), cu = PD_DIM_BIT(PD_DIM_CU),
                 xcc = PD_DIM_BIT(PD_DIM_XCC);
  EXPECT_EQ(pd_block_dims(&arch("gfx1201"), PD_BLOCK_SQ), se | sa | wgp);
  EXPECT_EQ(pd_block_dims(&arch("gfx1201"), PD_BLOCK_TA), se | sa | cu);
  EXPECT_EQ(pd_block_dims(&arch("gfx1201"), PD_BLOCK_GL2C), 0u);
  EXPECT_EQ(pd_block_dims(&arch("gfx1201"), PD_BLOCK_GRBM), 0u);
  EXPECT_EQ(pd_block_dims(&arch("gfx90a"), PD_BLOCK_SQ), se);
  EXPECT_EQ(pd_block_dims(&arch("gfx90a"), PD_BLOCK_TA), se | sa | cu);
  EXPECT_EQ(pd_block_dims(&arch("gfx942"), PD_BLOCK_SQ), xcc | se);
  EXPECT_EQ(pd_block_dims(&arch("gfx942"), PD_BLOCK_GRBM), xcc);
}

TEST(PerfDkmsRegistry, FlatIndex) {
  // (se, sa, wgp) = (1, 0, 2) on 4 SE x 2 SA x 4 WGP is reading 10.
  uint8_t coords[PD_DIM_COUNT];
  uint32_t grbm = 0;
  pd_block_instance(&arch("gfx1201"), PD_BLOCK_SQ, 10, coords, &grbm);
  EXPECT_EQ(coords[PD_DIM_SE], 1);
  EXPECT_EQ(coords[PD_DIM_SA], 0);
  EXPECT_EQ(coords[PD_DIM_WGP], 2);
  EXPECT_EQ(grbm, 0x0001'0002u); // SE_INDEX 1 (bits 16-23), instance 2
  EXPECT_EQ(pd_block_instances(&arch("gfx1201"), PD_BLOCK_SQ), 32u);
  EXPECT_EQ(pd_block_instances(&arch("gfx1200"), PD_BLOCK_SQ), 16u);
  EXPECT_EQ(pd_block_instances(&arch("gfx90a"), PD_BLOCK_SQ), 8u);
  EXPECT_EQ(pd_block_instances(&arch("gfx90a"), PD_BLOCK_TA), 112u);
  EXPECT_EQ(pd_block_instances(&arch("gfx1201"), PD_BLOCK_GL2C), 16u);
  EXPECT_EQ(pd_block_instances(&arch("gfx1201"), PD_BLOCK_TA), 64u);
  EXPECT_EQ(pd_block_instances(&arch("gfx1201"), PD_BLOCK_GRBM), 1u);
}

// Linux gc_*_offset.h: address = GC segment base[BASE_IDX] + offset, with
// segment 0 = 0x2000 and segment 1 = 0xA000 (vega10_ip_offset.h). So a
// BASE_IDX 1 register is 0xC000 + (offset - 0x2000) and lands in the UCONFIG
// window; the BASE_IDX 0 COMPUTE_PERFCOUNT_ENABLE lands in the SH window.
void expectLinuxRule(const pd_arch &a, pd_reg reg, const std::string &what) {
  uint32_t addr = pd_reg_addr(&a, reg);
  if (reg.base_idx == 1) {
    EXPECT_EQ(addr, 0xC000u + (reg.offset - 0x2000u)) << what;
    EXPECT_GE(addr, PD_UCONFIG_START) << what;
    EXPECT_LT(addr, PD_UCONFIG_END) << what;
  } else {
    EXPECT_EQ(reg.base_idx, 0) << what;
    EXPECT_EQ(addr, 0x2000u + reg.offset) << what;
    EXPECT_GE(addr, PD_SH_START) << what;
    EXPECT_LT(addr, PD_SH_END) << what;
  }
}

TEST(PerfDkmsRegisters, EveryRegisterFollowsTheLinuxRule) {
  for (unsigned i = 0; i < pd_arch_count(); ++i) {
    const pd_arch &a = *pd_arch_at(i);
    EXPECT_EQ(a.gc_segment_base[0], 0x2000u);
    EXPECT_EQ(a.gc_segment_base[1], 0xA000u);
    for (pd_reg r : {a.grbm_gfx_index, a.cp_perfmon_cntl, a.sq_perfcounter_ctrl,
                     a.sq_perfcounter_ctrl2})
      expectLinuxRule(a, r, std::string(a.name) + " control");
    expectLinuxRule(a, a.compute_perfcount_enable, a.name);
    if (a.force_perfmon_clock)
      expectLinuxRule(a, a.rlc_perfmon_clk_cntl, std::string(a.name) + " RLC");
    EXPECT_EQ(a.compute_perfcount_enable.base_idx, 0);
    for (unsigned b = 0; b < PD_BLOCK_COUNT; ++b)
      for (unsigned s = 0; s < a.blocks[b].num_slots; ++s) {
        const pd_slot_regs &r = a.blocks[b].slots[s];
        std::string what = std::string(a.name) + " " + a.blocks[b].reg_prefix +
                           " slot " + std::to_string(s);
        expectLinuxRule(a, r.select, what + " select");
        expectLinuxRule(a, r.lo, what + " lo");
        if (a.blocks[b].counter_bits == 64) {
          expectLinuxRule(a, r.hi, what + " hi");
          EXPECT_EQ(pd_reg_addr(&a, r.hi), pd_reg_addr(&a, r.lo) + 1) << what;
        } else {
          EXPECT_EQ(a.blocks[b].counter_bits, 32) << what;
        }
      }
    for (unsigned b = 0; b < PD_BLOCK_COUNT; ++b)
      EXPECT_LE(pd_block_instances(&a, static_cast<pd_block>(b)),
                unsigned(PD_MAX_INSTANCES)) << a.name;
  }
}

TEST(PerfDkmsRegisters, ValuesTheReferenceDocsGive) {
  // perf-dkms-reference.md section 5, from gfx12_creator.c.
  const pd_arch &g12 = arch("gfx1201");
  EXPECT_EQ(pd_reg_addr(&g12, g12.grbm_gfx_index), 0xC200u);
  EXPECT_EQ(pd_reg_addr(&g12, g12.cp_perfmon_cntl), 0xD808u);
  EXPECT_EQ(pd_reg_addr(&g12, g12.compute_perfcount_enable), 0x2E0Bu);
  EXPECT_EQ(pd_reg_addr(&g12, g12.compute_perfcount_enable) - PD_SH_START, 0x20Bu);
  EXPECT_EQ(pd_reg_addr(&g12, g12.sq_perfcounter_ctrl), 0xD9E0u);
  EXPECT_EQ(pd_reg_addr(&g12, g12.sq_perfcounter_ctrl2), 0xD9E2u);
  EXPECT_EQ(pd_reg_addr(&g12, g12.blocks[PD_BLOCK_SQ].slots[0].select), 0xD9C0u);
  EXPECT_EQ(pd_reg_addr(&g12, g12.blocks[PD_BLOCK_SQ].slots[0].lo), 0xD1C0u);
  EXPECT_EQ(pd_reg_addr(&g12, g12.blocks[PD_BLOCK_GL2C].slots[0].lo), 0xD380u);
  // gc_12_0_0_offset.h: SQ_PERFCOUNTERn_SELECT 0x39c0 + n, SQ_PERFCOUNTERn_LO
  // 0x31c0 + 2n for n = 0..7 and no HI: 32-bit counters.
  EXPECT_EQ(g12.blocks[PD_BLOCK_SQ].counter_bits, 32);
  for (unsigned n = 0; n < g12.blocks[PD_BLOCK_SQ].num_slots; ++n) {
    EXPECT_EQ(pd_reg_addr(&g12, g12.blocks[PD_BLOCK_SQ].slots[n].select), 0xD9C0u + n);
    EXPECT_EQ(pd_reg_addr(&g12, g12.blocks[PD_BLOCK_SQ].slots[n].lo), 0xD1C0u + 2 * n);
  }
  EXPECT_EQ(pd_reg_addr(&g12, g12.blocks[PD_BLOCK_TA].slots[0].select), 0xDAC0u);
  EXPECT_EQ(pd_reg_addr(&g12, g12.blocks[PD_BLOCK_TA].slots[0].lo), 0xD2C0u);
  // The GFX9 table bugs of section 5.1, fixed: SQ LO/HI at 0xD1C0 + 2n, not
  // 0xF1C0 + 2n; COMPUTE_PERFCOUNT_ENABLE at 0x2E0B, not 0xCE0B.
  for (const char *name : {"gfx90a", "gfx942"}) {
    const pd_arch &g9 = arch(name);
    for (unsigned n = 0; n < g9.blocks[PD_BLOCK_SQ].num_slots; ++n) {
      EXPECT_EQ(pd_reg_addr(&g9, g9.blocks[PD_BLOCK_SQ].slots[n].select), 0xD9C0u + n);
      EXPECT_EQ(pd_reg_addr(&g9, g9.blocks[PD_BLOCK_SQ].slots[n].lo), 0xD1C0u + 2 * n);
      EXPECT_EQ(pd_reg_addr(&g9, g9.blocks[PD_BLOCK_SQ].slots[n].hi), 0xD1C1u + 2 * n);
    }
    EXPECT_EQ(pd_reg_addr(&g9, g9.compute_perfcount_enable), 0x2E0Bu);
    // Mesa's R_0372FC_RLC_PERFMON_CLK_CNTL (byte address / 4).
    EXPECT_TRUE(g9.force_perfmon_clock);
    EXPECT_EQ(pd_reg_addr(&g9, g9.rlc_perfmon_clk_cntl), 0x372FCu / 4);
    EXPECT_EQ(pd_reg_addr(&g9, g9.blocks[PD_BLOCK_GL2C].slots[0].lo), 0xD380u);
  }
}

} // namespace
