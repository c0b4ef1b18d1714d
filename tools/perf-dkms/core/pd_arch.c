// SPDX-License-Identifier: MIT
#include "pd_arch.h"

#define REG(off, idx) { .offset = (off), .base_idx = (idx) }
/* Every perf counter register below lives in GC segment 1 (BASE_IDX 1). */
#define UREG(off) REG(off, 1)

/*
 * GFX9 (gc_9_0_offset.h; gc_9_4_2 and gc_9_4_3 keep these offsets).
 * SQ_PERFCOUNTERn_LO is 0x31c0 + 2n with BASE_IDX 1, i.e. 0xD1C0 + 2n: the
 * reference table's 0xF1C0 added 0xC000 to the raw offset. Only the first
 * eight of the sixteen SQ counters are exposed, as in the reference.
 */
static const struct pd_slot_regs gfx9_sq_slots[] = {
	{ 0, UREG(0x39c0), UREG(0x31c0), UREG(0x31c1) },
	{ 1, UREG(0x39c1), UREG(0x31c2), UREG(0x31c3) },
	{ 2, UREG(0x39c2), UREG(0x31c4), UREG(0x31c5) },
	{ 3, UREG(0x39c3), UREG(0x31c6), UREG(0x31c7) },
	{ 4, UREG(0x39c4), UREG(0x31c8), UREG(0x31c9) },
	{ 5, UREG(0x39c5), UREG(0x31ca), UREG(0x31cb) },
	{ 6, UREG(0x39c6), UREG(0x31cc), UREG(0x31cd) },
	{ 7, UREG(0x39c7), UREG(0x31ce), UREG(0x31cf) },
};

/*
 * GFX12 (gc_12_0_0_offset.h). The SQ block counts per WGP with 32-bit
 * counters: the header has SQ_PERFCOUNTER0..7_LO at 0x31c0 + 2n and no HI
 * registers. (The reference paired the even SELECTs up to 14 with LOs past
 * SQ_PERFCOUNTER7_LO, which do not exist.)
 */
#define NO_HI REG(0, 0)
static const struct pd_slot_regs gfx12_sq_slots[] = {
	{ 0, UREG(0x39c0), UREG(0x31c0), NO_HI },
	{ 1, UREG(0x39c1), UREG(0x31c2), NO_HI },
	{ 2, UREG(0x39c2), UREG(0x31c4), NO_HI },
	{ 3, UREG(0x39c3), UREG(0x31c6), NO_HI },
	{ 4, UREG(0x39c4), UREG(0x31c8), NO_HI },
	{ 5, UREG(0x39c5), UREG(0x31ca), NO_HI },
	{ 6, UREG(0x39c6), UREG(0x31cc), NO_HI },
	{ 7, UREG(0x39c7), UREG(0x31ce), NO_HI },
};

/* TA, TCC/GL2C and GRBM keep their offsets from GFX9 to GFX12. */
static const struct pd_slot_regs ta_slots[] = {
	{ 0, UREG(0x3ac0), UREG(0x32c0), UREG(0x32c1) },
	{ 1, UREG(0x3ac2), UREG(0x32c2), UREG(0x32c3) },
};

static const struct pd_slot_regs l2_slots[] = {
	{ 0, UREG(0x3b80), UREG(0x3380), UREG(0x3381) },
	{ 1, UREG(0x3b82), UREG(0x3382), UREG(0x3383) },
};

/* GRBM_PERFCOUNTER1 skips 0x3042 (GRBM_SE0_PERFCOUNTER_LO). */
static const struct pd_slot_regs grbm_slots[] = {
	{ 0, UREG(0x3840), UREG(0x3040), UREG(0x3041) },
	{ 1, UREG(0x3841), UREG(0x3043), UREG(0x3044) },
};

#define SLOTS(a) .num_slots = PD_ARRAY_SIZE(a), .slots = (a)

#define COMMON_CONTROL_REGS                                   \
	.gc_segment_base = { 0x2000, 0xA000 },                \
	.grbm_gfx_index = UREG(0x2200),                       \
	.cp_perfmon_cntl = UREG(0x3808),                      \
	.compute_perfcount_enable = REG(0x0e0b, 0),           \
	.sq_perfcounter_ctrl = UREG(0x39e0),                  \
	.sq_perfcounter_ctrl2 = UREG(0x39e2)

/*
 * GFX9 SQ counts per SE and needs its SIMD (24-27), SQC client (16-19) and
 * SQC bank (12-15) masks opened; CTRL enables PS, VS, GS, ES, HS, LS and CS
 * (bits 0-6); CTRL2 has only FORCE_EN. TA counts per CU.
 * RLC_PERFMON_CLK_CNTL: offset 0x3cbf, BASE_IDX 1 (Mesa's R_0372FC).
 */
#define GFX9_CONTROL                                                     \
	.family = PD_FAMILY_GFX9, COMMON_CONTROL_REGS,                  \
	.force_perfmon_clock = true,                                    \
	.rlc_perfmon_clk_cntl = UREG(0x3cbf),                           \
	.sq_select_masks = (0xfu << 24) | (0xfu << 16) | (0xfu << 12),  \
	.sq_ctrl_value = 0x7f, .sq_ctrl2_value = 0x1

#define GFX9_BLOCKS(channels)                                                  \
	.blocks = {                                                            \
		[PD_BLOCK_SQ] = { "SQ", PD_LAYOUT_PER_SE, 0, 64, false,            \
				  SLOTS(gfx9_sq_slots) },                      \
		[PD_BLOCK_TA] = { "TA", PD_LAYOUT_PER_CU, 0, 64, false,            \
				  SLOTS(ta_slots) },                           \
		[PD_BLOCK_GL2C] = { "TCC", PD_LAYOUT_PER_CHANNEL, (channels),  \
				    64, false, SLOTS(l2_slots) },                  \
		[PD_BLOCK_GRBM] = { "GRBM", PD_LAYOUT_GLOBAL, 0, 64, false,        \
				    SLOTS(grbm_slots) },                       \
	}

/*
 * GFX12 SQ counts per WGP, TA per CU (as Mesa reads them; the reference
 * read TA per WGP and missed half the CUs). CTRL enables PS, GS, HS and CS
 * (bits 0, 2, 4, 6; the other stages are gone); CTRL2 is FORCE_EN plus
 * VMID_EN for all 16 VMIDs (bits 1-16).
 */
#define GFX12_CONTROL                                                 \
	.family = PD_FAMILY_GFX12, COMMON_CONTROL_REGS,              \
	.sq_select_masks = 0, .sq_ctrl_value = 0x55,                 \
	.sq_ctrl2_value = 0x1 | (0xffffu << 1)

#define GFX12_BLOCKS(channels)                                                 \
	.blocks = {                                                            \
		[PD_BLOCK_SQ] = { "SQ", PD_LAYOUT_PER_WGP, 0, 32, false,           \
				  SLOTS(gfx12_sq_slots) },                     \
		[PD_BLOCK_TA] = { "TA", PD_LAYOUT_PER_CU, 0, 64, false,            \
				  SLOTS(ta_slots) },                           \
		[PD_BLOCK_GL2C] = { "GL2C", PD_LAYOUT_PER_CHANNEL, (channels), \
				    64, true, SLOTS(l2_slots) },                   \
		[PD_BLOCK_GRBM] = { "GRBM", PD_LAYOUT_GLOBAL, 0, 64, false,        \
				    SLOTS(grbm_slots) },                       \
	}

/*
 * Topologies of the largest part of each target (a smaller SKU only leaves
 * instances that read 0): MI250X GCD, MI300X, RX 9060 XT, RX 9070 XT.
 */
static const struct pd_arch archs[] = {
	{ .name = "gfx90a", .topo = { 1, 8, 1, 0, 14 }, GFX9_CONTROL,
	  GFX9_BLOCKS(16) },
	{ .name = "gfx942", .topo = { 8, 4, 1, 0, 10 }, GFX9_CONTROL,
	  GFX9_BLOCKS(16) },
	{ .name = "gfx1200", .topo = { 1, 2, 2, 4, 8 }, GFX12_CONTROL,
	  GFX12_BLOCKS(8) },
	{ .name = "gfx1201", .topo = { 1, 4, 2, 4, 8 }, GFX12_CONTROL,
	  GFX12_BLOCKS(16) },
};

unsigned int pd_arch_count(void)
{
	return PD_ARRAY_SIZE(archs);
}

const struct pd_arch *pd_arch_at(unsigned int index)
{
	return index < PD_ARRAY_SIZE(archs) ? &archs[index] : NULL;
}

const struct pd_arch *pd_arch_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < PD_ARRAY_SIZE(archs); i++)
		if (!strcmp(archs[i].name, name))
			return &archs[i];
	return NULL;
}

uint32_t pd_reg_addr(const struct pd_arch *arch, struct pd_reg reg)
{
	return arch->gc_segment_base[reg.base_idx] + reg.offset;
}

unsigned int pd_block_dims(const struct pd_arch *arch, enum pd_block block)
{
	/* Each XCC is its own submission, so any counter can pick one. */
	unsigned int xcc = arch->topo.num_xcc > 1 ? PD_DIM_BIT(PD_DIM_XCC) : 0;

	switch (arch->blocks[block].layout) {
	case PD_LAYOUT_PER_SE:
		return xcc | PD_DIM_BIT(PD_DIM_SE);
	case PD_LAYOUT_PER_WGP:
		return xcc | PD_DIM_BIT(PD_DIM_SE) | PD_DIM_BIT(PD_DIM_SA) |
		       PD_DIM_BIT(PD_DIM_WGP);
	case PD_LAYOUT_PER_CU:
		return xcc | PD_DIM_BIT(PD_DIM_SE) | PD_DIM_BIT(PD_DIM_SA) |
		       PD_DIM_BIT(PD_DIM_CU);
	case PD_LAYOUT_GLOBAL:
	case PD_LAYOUT_PER_CHANNEL:
	default:
		return xcc;
	}
}

unsigned int pd_block_instances(const struct pd_arch *arch, enum pd_block block)
{
	const struct pd_topology *t = &arch->topo;

	switch (arch->blocks[block].layout) {
	case PD_LAYOUT_PER_SE:
		return t->num_se;
	case PD_LAYOUT_PER_WGP:
		return t->num_se * t->num_sa_per_se * t->num_wgp_per_sa;
	case PD_LAYOUT_PER_CU:
		return t->num_se * t->num_sa_per_se * t->num_cu_per_sa;
	case PD_LAYOUT_PER_CHANNEL:
		return arch->blocks[block].num_channels;
	case PD_LAYOUT_GLOBAL:
	default:
		return 1;
	}
}

void pd_block_instance(const struct pd_arch *arch, enum pd_block block,
		       unsigned int index, uint8_t coords[PD_DIM_COUNT],
		       uint32_t *grbm_gfx_index)
{
	const struct pd_topology *t = &arch->topo;
	unsigned int per_sa, unit;
	enum pd_dim unit_dim;

	memset(coords, 0, PD_DIM_COUNT);
	switch (arch->blocks[block].layout) {
	case PD_LAYOUT_PER_SE:
		coords[PD_DIM_SE] = index;
		*grbm_gfx_index = PD_GRBM_SA_BROADCAST |
				  PD_GRBM_INSTANCE_BROADCAST |
				  (index << PD_GRBM_SE_SHIFT);
		return;
	case PD_LAYOUT_PER_WGP:
	case PD_LAYOUT_PER_CU:
		/* Flat index = (se * num_sa + sa) * units_per_sa + unit. */
		unit_dim = arch->blocks[block].layout == PD_LAYOUT_PER_WGP ?
				   PD_DIM_WGP : PD_DIM_CU;
		per_sa = unit_dim == PD_DIM_WGP ? t->num_wgp_per_sa :
						  t->num_cu_per_sa;
		unit = index % per_sa;
		coords[unit_dim] = unit;
		coords[PD_DIM_SA] = (index / per_sa) % t->num_sa_per_se;
		coords[PD_DIM_SE] = index / per_sa / t->num_sa_per_se;
		*grbm_gfx_index = (coords[PD_DIM_SE] << PD_GRBM_SE_SHIFT) |
				  (coords[PD_DIM_SA] << PD_GRBM_SA_SHIFT) |
				  (unit << PD_GRBM_INSTANCE_SHIFT);
		return;
	case PD_LAYOUT_PER_CHANNEL:
		*grbm_gfx_index = PD_GRBM_SE_BROADCAST | PD_GRBM_SA_BROADCAST |
				  (index << PD_GRBM_INSTANCE_SHIFT);
		return;
	case PD_LAYOUT_GLOBAL:
	default:
		*grbm_gfx_index = PD_GRBM_BROADCAST_ALL;
		return;
	}
}
