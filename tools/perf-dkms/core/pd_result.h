/* SPDX-License-Identifier: MIT */
/*
 * From READ readings to the value a perf event reports: pick the instances
 * the event's dimensions ask for, sum them, and subtract the event's own
 * baseline. Events sharing a counter read the same buffer (every instance
 * is always read) but start at different times, so each keeps its own
 * baseline.
 */
#ifndef PD_RESULT_H
#define PD_RESULT_H

#include "pd_arch.h"

PD_EXTERN_C_BEGIN

/*
 * Whether an instance at `coords` (from pd_block_instance) is one the
 * dimensions ask for. XCC does not filter: one READ covers one XCC.
 */
bool pd_result_selects(const struct pd_dims *dims,
		       const uint8_t coords[PD_DIM_COUNT]);

/*
 * Sum of the block's readings whose instance matches every given
 * dimension; no dimension (or aggregate) sums them all.
 */
uint64_t pd_result_sum(const struct pd_arch *arch, enum pd_block block,
		       const struct pd_dims *dims, const uint64_t *readings);

struct pd_measurement {
	uint64_t baseline; /* raw sum when counting started or was reset */
	uint64_t carried;  /* counted before the last hardware reset */
	uint64_t last;	   /* latest raw sum */
};

void pd_measurement_begin(struct pd_measurement *m, uint64_t raw);

/* Records a new raw sum and returns the event's count so far. */
uint64_t pd_measurement_update(struct pd_measurement *m, uint64_t raw);

/*
 * A START for another counter resets every counter (perfmon
 * disable-and-reset): keep what was counted up to the last update and count
 * on from zero.
 */
void pd_measurement_counters_reset(struct pd_measurement *m);

PD_EXTERN_C_END

#endif /* PD_RESULT_H */
