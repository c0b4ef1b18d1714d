/* SPDX-License-Identifier: MIT */
/*
 * What the core knows about each supported GPU: topology, the counter
 * blocks with their register slots, and the control registers the PM4
 * sequences write.
 *
 * Registers are kept the way the Linux gc_*_offset.h headers give them: a
 * dword offset plus the BASE_IDX of its GC segment. The hardware address is
 * segment base + offset, with the Vega-family bases (segment 0 = 0x2000,
 * segment 1 = 0xA000) that every table here uses. Keeping the header's pair
 * instead of a precomputed address is what keeps a table from adding the
 * wrong base, as the reference GFX9 table did.
 */
#ifndef PD_ARCH_H
#define PD_ARCH_H

#include "pd_compat.h"
#include "pd_dims.h"

PD_EXTERN_C_BEGIN

enum pd_family {
	PD_FAMILY_GFX9,
	PD_FAMILY_GFX12,
};

enum pd_block {
	PD_BLOCK_SQ,
	PD_BLOCK_TA,
	PD_BLOCK_GL2C, /* the L2 cache; its registers are named TCC on GFX9 */
	PD_BLOCK_GRBM,
	PD_BLOCK_COUNT
};

/* Which hardware instances a block is read from, one reading each. */
enum pd_layout {
	PD_LAYOUT_GLOBAL,      /* one instance for the whole GPU */
	PD_LAYOUT_PER_SE,      /* one per shader engine */
	PD_LAYOUT_PER_WGP,     /* one per (SE, SA, WGP) */
	PD_LAYOUT_PER_CU,      /* one per (SE, SA, CU) */
	PD_LAYOUT_PER_CHANNEL, /* one per L2 channel, not tied to an SE */
};

struct pd_reg {
	uint16_t offset;  /* regX in gc_*_offset.h */
	uint8_t base_idx; /* regX_BASE_IDX */
};

#define PD_MAX_SLOTS 8

/* One hardware counter of a block: its event select and value. */
struct pd_slot_regs {
	uint8_t counter; /* n in the register names XX_PERFCOUNTERn_* */
	struct pd_reg select;
	struct pd_reg lo;
	struct pd_reg hi; /* unused for 32-bit counters */
};

/* The most instances any block of any supported GPU has (gfx90a TA: 112). */
#define PD_MAX_INSTANCES 128

struct pd_block_desc {
	const char *reg_prefix; /* "SQ", "TA", "TCC"/"GL2C", "GRBM" */
	enum pd_layout layout;
	uint8_t num_channels; /* PD_LAYOUT_PER_CHANNEL only */
	/*
	 * 64, or 32 where the block has no HI registers (GFX12 SQ): READ
	 * copies only LO and the totals in pd_result.h unwrap it.
	 */
	uint8_t counter_bits;
	/*
	 * GFX12 GL2C returns garbage for a 64-bit COPY_DATA; each channel is
	 * read as two 32-bit halves, as aqlprofile does.
	 */
	bool split_lo_hi;
	uint8_t num_slots;
	const struct pd_slot_regs *slots;
};

struct pd_arch {
	const char *name;
	enum pd_family family;
	struct pd_topology topo;
	uint32_t gc_segment_base[2];
	struct pd_reg grbm_gfx_index;
	struct pd_reg cp_perfmon_cntl;
	struct pd_reg compute_perfcount_enable;
	struct pd_reg sq_perfcounter_ctrl;
	struct pd_reg sq_perfcounter_ctrl2;
	/*
	 * GFX9 gates the perfmon clocks unless RLC_PERFMON_CLK_CNTL forces
	 * them on (aqlprofile: "on Vega this is needed"); START does so.
	 */
	bool force_perfmon_clock;
	struct pd_reg rlc_perfmon_clk_cntl;
	uint32_t sq_select_masks; /* ORed into every SQ SELECT value */
	uint32_t sq_ctrl_value;	  /* shader stages SQ counts */
	uint32_t sq_ctrl2_value;  /* force enable (+ VMID mask on GFX12) */
	struct pd_block_desc blocks[PD_BLOCK_COUNT];
};

/* GRBM_GFX_INDEX fields (gc_*_sh_mask.h). */
#define PD_GRBM_INSTANCE_SHIFT 0
#define PD_GRBM_SA_SHIFT 8
#define PD_GRBM_SE_SHIFT 16
#define PD_GRBM_SA_BROADCAST (1u << 29)
#define PD_GRBM_INSTANCE_BROADCAST (1u << 30)
#define PD_GRBM_SE_BROADCAST (1u << 31)
#define PD_GRBM_BROADCAST_ALL \
	(PD_GRBM_SE_BROADCAST | PD_GRBM_INSTANCE_BROADCAST | PD_GRBM_SA_BROADCAST)

/* CP_PERFMON_CNTL values. */
#define PD_PERFMON_STATE_DISABLE_AND_RESET 0u
#define PD_PERFMON_STATE_START 1u
#define PD_PERFMON_STATE_STOP 2u
#define PD_PERFMON_SAMPLE_ENABLE (1u << 10)

unsigned int pd_arch_count(void);
const struct pd_arch *pd_arch_at(unsigned int index);
const struct pd_arch *pd_arch_find(const char *name);

uint32_t pd_reg_addr(const struct pd_arch *arch, struct pd_reg reg);

/* Dimensions a block's counters can be split by (PD_DIM_BIT mask). */
unsigned int pd_block_dims(const struct pd_arch *arch, enum pd_block block);

/* Number of readings one counter of the block gives (its instances). */
unsigned int pd_block_instances(const struct pd_arch *arch, enum pd_block block);

/*
 * Instance `index` of a block: its coordinates (value[d] valid for every d
 * in pd_block_dims) and the GRBM_GFX_INDEX value that selects it.
 */
void pd_block_instance(const struct pd_arch *arch, enum pd_block block,
		       unsigned int index, uint8_t coords[PD_DIM_COUNT],
		       uint32_t *grbm_gfx_index);

PD_EXTERN_C_END

#endif /* PD_ARCH_H */
