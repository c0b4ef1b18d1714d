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
};

struct event_select {
	enum pd_counter_id id;
	uint16_t select;
};

/*
 * GFX9 selects (SQ_PERF_SEL, TA_PERF_SEL, TCC_PERF_SEL, GRBM_PERF_SEL of
 * the Vega enums). GFX9 has no counters for the wave32-era SQ instruction
 * split the GFX12 table uses, and its TA buffer wavefront events are not
 * carried over, so those names are not found here.
 */
static const struct event_select gfx9_events[] = {
	{ PD_CTR_SQ_WAVES, 4 },
	{ PD_CTR_SQ_BUSY_CYCLES, 3 },
	{ PD_CTR_SQ_WAVE_CYCLES, 14 },
	{ PD_CTR_SQ_INSTS_VALU, 26 },
	{ PD_CTR_SQ_INSTS_SALU, 31 },
	{ PD_CTR_SQ_INSTS_SMEM, 32 },
	{ PD_CTR_SQ_INSTS_LDS, 35 },
	{ PD_CTR_TA_TA_BUSY, 15 },
	{ PD_CTR_GL2C_HIT, 18 },
	{ PD_CTR_GL2C_MISS, 19 },
	{ PD_CTR_GL2C_EA_RDREQ, 38 },
	{ PD_CTR_GL2C_EA_WRREQ, 26 },
	{ PD_CTR_GRBM_COUNT, 0 },
	{ PD_CTR_GRBM_GUI_ACTIVE, 2 },
};

/* GFX12 selects as the reference perf-dkms programs them on RX 9070. */
static const struct event_select gfx12_events[] = {
	{ PD_CTR_SQ_WAVES, 4 },
	{ PD_CTR_SQ_BUSY_CYCLES, 3 },
	{ PD_CTR_SQ_WAVE_CYCLES, 24 },
	{ PD_CTR_SQ_INSTS_VALU, 50 },
	{ PD_CTR_SQ_INSTS_SALU, 46 },
	{ PD_CTR_SQ_INSTS_SMEM, 47 },
	{ PD_CTR_SQ_INSTS_LDS, 45 },
	{ PD_CTR_TA_TA_BUSY, 15 },
	{ PD_CTR_TA_BUFFER_LOAD_WAVEFRONTS, 45 },
	{ PD_CTR_TA_BUFFER_STORE_WAVEFRONTS, 46 },
	{ PD_CTR_GL2C_HIT, 41 },
	{ PD_CTR_GL2C_MISS, 42 },
	{ PD_CTR_GL2C_EA_RDREQ, 140 },
	{ PD_CTR_GL2C_EA_WRREQ, 108 },
	{ PD_CTR_GRBM_COUNT, 0 },
	{ PD_CTR_GRBM_GUI_ACTIVE, 2 },
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
