/* SPDX-License-Identifier: MIT */
/*
 * From READ readings to the value a perf event reports.
 *
 * Each counter slot keeps running 64-bit totals per block instance: a
 * reading only adds its difference to the previous one, taken modulo the
 * counter width, so 32-bit counters may wrap and a START (which zeroes
 * every hardware counter) loses nothing counted before it. An event's value
 * is the sum of the totals of the instances its dimensions select, minus
 * the sum when the event started: events sharing a counter read the same
 * totals but keep their own baselines.
 */
#ifndef PD_RESULT_H
#define PD_RESULT_H

#include "pd_arch.h"

PD_EXTERN_C_BEGIN

struct pd_totals {
	uint64_t total[PD_MAX_INSTANCES];
	uint64_t last[PD_MAX_INSTANCES]; /* previous raw reading */
};

/* A slot was just claimed for a counter: nothing counted yet. */
void pd_totals_clear(struct pd_totals *t);

/* A START zeroed the hardware counters; the totals carry on. */
void pd_totals_hw_reset(struct pd_totals *t);

/* Adds one READ's readings of the slot (its block's instance count). */
void pd_totals_update(struct pd_totals *t, const struct pd_arch *arch,
		      enum pd_block block, const uint64_t *readings);

/*
 * Whether an instance at `coords` (from pd_block_instance) is one the
 * dimensions ask for. XCC does not filter: one READ covers one XCC.
 */
bool pd_result_selects(const struct pd_dims *dims,
		       const uint8_t coords[PD_DIM_COUNT]);

/*
 * Sum of the block's per-instance values whose instance the dimensions
 * select; no dimension (or aggregate) sums them all.
 */
uint64_t pd_result_sum(const struct pd_arch *arch, enum pd_block block,
		       const struct pd_dims *dims, const uint64_t *values);

struct pd_measurement {
	uint64_t baseline; /* pd_result_sum of the totals at the start */
};

void pd_measurement_begin(struct pd_measurement *m, uint64_t sum);
uint64_t pd_measurement_count(const struct pd_measurement *m, uint64_t sum);

PD_EXTERN_C_END

#endif /* PD_RESULT_H */
