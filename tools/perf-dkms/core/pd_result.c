// SPDX-License-Identifier: MIT
#include "pd_result.h"

void pd_totals_clear(struct pd_totals *t)
{
	memset(t, 0, sizeof(*t));
}

void pd_totals_hw_reset(struct pd_totals *t)
{
	memset(t->last, 0, sizeof(t->last));
}

void pd_totals_update(struct pd_totals *t, const struct pd_arch *arch,
		      enum pd_block block, const uint64_t *readings)
{
	unsigned int bits = arch->blocks[block].counter_bits;
	uint64_t mask = bits >= 64 ? ~0ull : (1ull << bits) - 1;
	unsigned int i, n = pd_block_instances(arch, block);

	for (i = 0; i < n; i++) {
		/* A 32-bit READ leaves the slot's high half unwritten. */
		uint64_t raw = readings[i] & mask;

		t->total[i] += (raw - t->last[i]) & mask;
		t->last[i] = raw;
	}
}

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
		       const struct pd_dims *dims, const uint64_t *values)
{
	unsigned int i, n = pd_block_instances(arch, block);
	uint8_t coords[PD_DIM_COUNT];
	uint32_t index;
	uint64_t sum = 0;

	for (i = 0; i < n; i++) {
		pd_block_instance(arch, block, i, coords, &index);
		if (pd_result_selects(dims, coords))
			sum += values[i];
	}
	return sum;
}

void pd_measurement_begin(struct pd_measurement *m, uint64_t sum)
{
	m->baseline = sum;
}

uint64_t pd_measurement_count(const struct pd_measurement *m, uint64_t sum)
{
	return sum - m->baseline;
}
