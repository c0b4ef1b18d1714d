// SPDX-License-Identifier: MIT
#include "pd_result.h"

bool pd_result_selects(const struct pd_dims *dims,
			     const uint8_t coords[PD_DIM_COUNT])
{
	unsigned int d;

	for (d = 0; d < PD_DIM_COUNT; d++) {
		if (d == PD_DIM_XCC || !(dims->given & PD_DIM_BIT(d)))
			continue;
		if (coords[d] != dims->value[d])
			return false;
	}
	return true;
}

uint64_t pd_result_sum(const struct pd_arch *arch, enum pd_block block,
		       const struct pd_dims *dims, const uint64_t *readings)
{
	unsigned int i, n = pd_block_instances(arch, block);
	uint8_t coords[PD_DIM_COUNT];
	uint32_t index;
	uint64_t sum = 0;

	for (i = 0; i < n; i++) {
		pd_block_instance(arch, block, i, coords, &index);
		if (pd_result_selects(dims, coords))
			sum += readings[i];
	}
	return sum;
}

void pd_measurement_begin(struct pd_measurement *m, uint64_t raw)
{
	m->baseline = raw;
	m->carried = 0;
	m->last = raw;
}

uint64_t pd_measurement_update(struct pd_measurement *m, uint64_t raw)
{
	/* Counters only go up: a smaller sum is a reset nobody announced. */
	if (raw < m->last)
		pd_measurement_counters_reset(m);
	m->last = raw;
	return m->carried + (raw - m->baseline);
}

void pd_measurement_counters_reset(struct pd_measurement *m)
{
	m->carried += m->last - m->baseline;
	m->baseline = 0;
	m->last = 0;
}
