// SPDX-License-Identifier: MIT
#include "pd_counters.h"

static const struct pd_counter_def counters[PD_CTR_COUNT] = {
	{ PD_CTR_SQ_WAVES, "sq_waves", PD_BLOCK_SQ },
	{ PD_CTR_SQ_BUSY_CYCLES, "sq_busy_cycles", PD_BLOCK_SQ },
	{ PD_CTR_SQ_WAVE_CYCLES, "sq_wave_cycles", PD_BLOCK_SQ },
	{ PD_CTR_SQ_INSTS_VALU, "sq_insts_valu", PD_BLOCK_SQ },
	{ PD_CTR_SQ_INSTS_SALU, "sq_insts_salu", PD_BLOCK_SQ },
	{ PD_CTR_SQ_INSTS_SMEM, "sq_insts_smem", PD_BLOCK_SQ },
	{ PD_CTR_SQ_INSTS_LDS, "sq_insts_lds", PD_BLOCK_SQ },
	{ PD_CTR_TA_TA_BUSY, "ta_ta_busy", PD_BLOCK_TA },
	{ PD_CTR_TA_BUFFER_LOAD_WAVEFRONTS, "ta_buffer_load_wavefronts", PD_BLOCK_TA },
	{ PD_CTR_TA_BUFFER_STORE_WAVEFRONTS, "ta_buffer_store_wavefronts", PD_BLOCK_TA },
	{ PD_CTR_GL2C_HIT, "gl2c_hit", PD_BLOCK_GL2C },
	{ PD_CTR_GL2C_MISS, "gl2c_miss", PD_BLOCK_GL2C },
	{ PD_CTR_GL2C_EA_RDREQ, "gl2c_ea_rdreq", PD_BLOCK_GL2C },
	{ PD_CTR_GL2C_EA_WRREQ, "gl2c_ea_wrreq", PD_BLOCK_GL2C },
	{ PD_CTR_GRBM_COUNT, "grbm_count", PD_BLOCK_GRBM },
	{ PD_CTR_GRBM_GUI_ACTIVE, "grbm_gui_active", PD_BLOCK_GRBM },
	{ PD_CTR_SQ_WAVES_32, "sq_waves_32", PD_BLOCK_SQ },
	{ PD_CTR_SQ_INSTS_VMEM, "sq_insts_vmem", PD_BLOCK_SQ },
};

struct event_select {
	enum pd_counter_id id;
	uint16_t select;
};

/*
 * GFX9 selects from the Linux vega10_enum.h (SQ_PERF_SEL, TA_PERFCOUNT_SEL,
 * TCC_PERF_SEL, GRBM_PERF_SEL). The TA buffer wavefront counters are its
 * buffer_read/write_wavefronts; GFX9 has no wave32, so no sq_waves_32.
 */
static const struct event_select gfx9_events[] = {
	{ PD_CTR_SQ_WAVES, 0x04 },
	{ PD_CTR_SQ_BUSY_CYCLES, 0x03 },
	{ PD_CTR_SQ_WAVE_CYCLES, 0x2e },
	{ PD_CTR_SQ_INSTS_VALU, 0x1a },
	{ PD_CTR_SQ_INSTS_SALU, 0x1e },
	{ PD_CTR_SQ_INSTS_SMEM, 0x1f },
	{ PD_CTR_SQ_INSTS_LDS, 0x22 },
	{ PD_CTR_SQ_INSTS_VMEM, 0x1d },
	{ PD_CTR_TA_TA_BUSY, 0x0f },
	{ PD_CTR_TA_BUFFER_LOAD_WAVEFRONTS, 0x2d },
	{ PD_CTR_TA_BUFFER_STORE_WAVEFRONTS, 0x2e },
	{ PD_CTR_GL2C_HIT, 0x11 },
	{ PD_CTR_GL2C_MISS, 0x13 },
	{ PD_CTR_GL2C_EA_RDREQ, 0x24 },
	{ PD_CTR_GL2C_EA_WRREQ, 0x1a },
	{ PD_CTR_GRBM_COUNT, 0x00 },
	{ PD_CTR_GRBM_GUI_ACTIVE, 0x02 },
};

/*
 * GFX12 selects from the Linux soc24_enum.h. GL2C's memory requests are
 * MC_RDREQ/MC_WRREQ there; the reference's GL2C selects (41, 42, 140, 108)
 * are FULL_HIT, PARTIAL_32B_HIT and out of range on GFX12. GFX12 splits
 * vector memory instructions into TEX/FLAT, so no sq_insts_vmem.
 */
static const struct event_select gfx12_events[] = {
	{ PD_CTR_SQ_WAVES, 0x04 },
	{ PD_CTR_SQ_BUSY_CYCLES, 0x03 },
	{ PD_CTR_SQ_WAVE_CYCLES, 0x18 },
	{ PD_CTR_SQ_INSTS_VALU, 0x32 },
	{ PD_CTR_SQ_INSTS_SALU, 0x2e },
	{ PD_CTR_SQ_INSTS_SMEM, 0x2f },
	{ PD_CTR_SQ_INSTS_LDS, 0x2d },
	{ PD_CTR_SQ_WAVES_32, 0x05 },
	{ PD_CTR_TA_TA_BUSY, 0x0f },
	{ PD_CTR_TA_BUFFER_LOAD_WAVEFRONTS, 0x2d },
	{ PD_CTR_TA_BUFFER_STORE_WAVEFRONTS, 0x2e },
	{ PD_CTR_GL2C_HIT, 0x27 },
	{ PD_CTR_GL2C_MISS, 0x28 },
	{ PD_CTR_GL2C_EA_RDREQ, 0x5b },
	{ PD_CTR_GL2C_EA_WRREQ, 0x4f },
	{ PD_CTR_GRBM_COUNT, 0x00 },
	{ PD_CTR_GRBM_GUI_ACTIVE, 0x02 },
};

const struct pd_counter_def *pd_counter_by_id(unsigned int id)
{
	return id < PD_CTR_COUNT ? &counters[id] : NULL;
}

const struct pd_counter_def *pd_counter_by_name(const char *name)
{
	unsigned int i;

	for (i = 0; i < PD_CTR_COUNT; i++)
		if (!strcmp(counters[i].name, name))
			return &counters[i];
	return NULL;
}

bool pd_counter_select(const struct pd_arch *arch, enum pd_counter_id id,
		       uint32_t *select)
{
	const struct event_select *events;
	size_t n, i;

	if (arch->family == PD_FAMILY_GFX9) {
		events = gfx9_events;
		n = PD_ARRAY_SIZE(gfx9_events);
	} else {
		events = gfx12_events;
		n = PD_ARRAY_SIZE(gfx12_events);
	}
	for (i = 0; i < n; i++) {
		if (events[i].id == id) {
			*select = events[i].select;
			return true;
		}
	}
	return false;
}
