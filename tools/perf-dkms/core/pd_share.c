// SPDX-License-Identifier: MIT
#include "pd_share.h"

void pd_pool_init(struct pd_counter_pool *pool)
{
	memset(pool, 0, sizeof(*pool));
}

int pd_pool_acquire(struct pd_counter_pool *pool, const struct pd_arch *arch,
		    enum pd_counter_id id, struct pd_programmed_counter *counter,
		    bool *needs_start)
{
	const struct pd_counter_def *def = pd_counter_by_id(id);
	struct pd_slot_use *use;
	int free_slot = -1;
	unsigned int s;
	uint32_t select;

	if (!def || !pd_counter_select(arch, id, &select))
		return -ENOENT;
	use = pool->use[def->block];
	for (s = 0; s < arch->blocks[def->block].num_slots; s++) {
		if (use[s].refs && use[s].counter_id == id) {
			free_slot = (int)s;
			break;
		}
		if (!use[s].refs && free_slot < 0)
			free_slot = (int)s;
	}
	if (free_slot < 0)
		return -EBUSY;
	*needs_start = use[free_slot].refs == 0;
	use[free_slot].counter_id = id;
	use[free_slot].refs++;
	pool->total_refs++;
	counter->block = def->block;
	counter->slot = (uint8_t)free_slot;
	counter->select = select;
	return 0;
}

int pd_pool_release(struct pd_counter_pool *pool,
		    const struct pd_programmed_counter *counter,
		    bool *slot_freed, bool *needs_stop)
{
	struct pd_slot_use *use;

	if (counter->block >= PD_BLOCK_COUNT || counter->slot >= PD_MAX_SLOTS)
		return -EINVAL;
	use = &pool->use[counter->block][counter->slot];
	if (!use->refs)
		return -EINVAL;
	use->refs--;
	pool->total_refs--;
	*slot_freed = use->refs == 0;
	*needs_stop = pool->total_refs == 0;
	return 0;
}

size_t pd_pool_active(const struct pd_counter_pool *pool,
		      const struct pd_arch *arch,
		      struct pd_programmed_counter *out, size_t cap)
{
	unsigned int b, s;
	size_t n = 0;
	uint32_t select;

	for (b = 0; b < PD_BLOCK_COUNT; b++) {
		for (s = 0; s < arch->blocks[b].num_slots; s++) {
			const struct pd_slot_use *use = &pool->use[b][s];

			if (!use->refs || n == cap ||
			    !pd_counter_select(arch, use->counter_id, &select))
				continue;
			out[n].block = (enum pd_block)b;
			out[n].slot = (uint8_t)s;
			out[n].select = select;
			n++;
		}
	}
	return n;
}
