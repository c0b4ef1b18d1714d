/* SPDX-License-Identifier: MIT */
/*
 * The counter registry: stable counter ids (perf_event_attr.config), their
 * names and blocks, and per architecture the event select programmed into
 * the block's SELECT register. A counter an architecture lacks is "not
 * found" there; a select of 0 is a real event (grbm_count).
 */
#ifndef PD_COUNTERS_H
#define PD_COUNTERS_H

#include "pd_arch.h"

PD_EXTERN_C_BEGIN

/* Values are ABI (perf config): append only. */
enum pd_counter_id {
	PD_CTR_SQ_WAVES,
	PD_CTR_SQ_BUSY_CYCLES,
	PD_CTR_SQ_WAVE_CYCLES,
	PD_CTR_SQ_INSTS_VALU,
	PD_CTR_SQ_INSTS_SALU,
	PD_CTR_SQ_INSTS_SMEM,
	PD_CTR_SQ_INSTS_LDS,
	PD_CTR_TA_TA_BUSY,
	PD_CTR_TA_BUFFER_LOAD_WAVEFRONTS,
	PD_CTR_TA_BUFFER_STORE_WAVEFRONTS,
	PD_CTR_GL2C_HIT,
	PD_CTR_GL2C_MISS,
	PD_CTR_GL2C_EA_RDREQ,
	PD_CTR_GL2C_EA_WRREQ,
	PD_CTR_GRBM_COUNT,
	PD_CTR_GRBM_GUI_ACTIVE,
	PD_CTR_SQ_WAVES_32,
	PD_CTR_SQ_INSTS_VMEM,
	PD_CTR_COUNT
};

struct pd_counter_def {
	enum pd_counter_id id;
	const char *name;
	enum pd_block block;
};

/* NULL when there is no such counter. */
const struct pd_counter_def *pd_counter_by_id(unsigned int id);
const struct pd_counter_def *pd_counter_by_name(const char *name);

/* True and *select set when the architecture has the counter. */
bool pd_counter_select(const struct pd_arch *arch, enum pd_counter_id id,
		       uint32_t *select);

PD_EXTERN_C_END

#endif /* PD_COUNTERS_H */
