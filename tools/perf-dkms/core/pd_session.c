// SPDX-License-Identifier: MIT
#include "pd_session.h"

/* Worst case dwords per reading: broadcast + channel + two COPY_DATA. */
#define DWORDS_PER_READING 18
#define SEQUENCE_OVERHEAD_DWORDS 64
#define MAX_ACTIVE_SLOTS (PD_BLOCK_COUNT * PD_MAX_SLOTS)

static size_t max_readings(const struct pd_arch *arch)
{
	size_t readings = 0;
	unsigned int b;

	for (b = 0; b < PD_BLOCK_COUNT; b++)
		readings += (size_t)arch->blocks[b].num_slots *
			    pd_block_instances(arch, (enum pd_block)b);
	return readings;
}

size_t pd_session_stream_dwords(const struct pd_arch *arch)
{
	return max_readings(arch) * DWORDS_PER_READING + SEQUENCE_OVERHEAD_DWORDS;
}

size_t pd_session_result_bytes(const struct pd_arch *arch)
{
	return (max_readings(arch) + 1) * sizeof(uint64_t); /* + the fence */
}

void pd_session_init(struct pd_session *s, const struct pd_arch *arch,
		     const struct pd_gpu_ops *ops, void *gpu,
		     struct pd_totals (*totals)[PD_MAX_SLOTS], uint32_t *stream)
{
	memset(s, 0, sizeof(*s));
	s->arch = arch;
	s->ops = ops;
	s->gpu = gpu;
	pd_pool_init(&s->pool);
	s->totals = totals;
	s->stream = stream;
	s->stream_cap = pd_session_stream_dwords(arch);
}

void pd_event_init(struct pd_event *e, enum pd_counter_id id,
		   const struct pd_dims *dims)
{
	memset(e, 0, sizeof(*e));
	e->id = id;
	e->dims = *dims;
}

int pd_event_config(const struct pd_arch *arch, uint64_t config,
		    uint64_t config1, enum pd_counter_id *id,
		    struct pd_dims *dims, const char **why)
{
	const struct pd_counter_def *def =
		config < PD_CTR_COUNT ? pd_counter_by_id((unsigned int)config) : NULL;
	uint32_t select;
	int ret;

	if (!def) {
		if (why)
			*why = "no such counter";
		return -EINVAL;
	}
	if (!pd_counter_select(arch, def->id, &select)) {
		if (why)
			*why = "the GPU has no such counter";
		return -EINVAL;
	}
	ret = pd_dims_decode(config1, dims, why);
	if (!ret)
		ret = pd_dims_validate(dims, pd_block_dims(arch, def->block),
				       &arch->topo, why);
	if (!ret)
		*id = def->id;
	return ret;
}

static struct pd_totals *slot_totals(struct pd_session *s,
				     const struct pd_programmed_counter *c)
{
	return &s->totals[c->block][c->slot];
}

static uint64_t event_sum(struct pd_session *s, const struct pd_event *e)
{
	return pd_result_sum(s->arch, e->counter.block, &e->dims,
			     slot_totals(s, &e->counter)->total);
}

static void list_add(struct pd_session *s, struct pd_event *e)
{
	e->prev = NULL;
	e->next = s->active;
	if (s->active)
		s->active->prev = e;
	s->active = e;
}

static void list_remove(struct pd_session *s, struct pd_event *e)
{
	if (e->prev)
		e->prev->next = e->next;
	else
		s->active = e->next;
	if (e->next)
		e->next->prev = e->prev;
	e->prev = e->next = NULL;
}

int pd_session_read(struct pd_session *s)
{
	struct pd_programmed_counter active[MAX_ACTIVE_SLOTS];
	const uint64_t *results;
	struct pd_pm4_buf buf;
	struct pd_event *e;
	size_t n, i;
	uint64_t addr;
	int ret;

	n = pd_pool_active(&s->pool, s->arch, active, MAX_ACTIVE_SLOTS);
	if (!n)
		return 0;
	results = s->ops->results(s->gpu, &addr);
	pd_pm4_buf_init(&buf, s->stream, s->stream_cap);
	ret = pd_seq_read(&buf, s->arch, active, n, addr, ++s->fence);
	if (!ret)
		ret = s->ops->submit(s->gpu, buf.dw, buf.len);
	if (ret)
		return ret;
	/* The fence is written last: without it the readings are stale. */
	if ((uint32_t)results[pd_read_bytes(s->arch, active, n) / sizeof(uint64_t)] !=
	    s->fence)
		return -EIO;
	for (i = 0; i < n; i++)
		pd_totals_update(slot_totals(s, &active[i]), s->arch, active[i].block,
				 results + pd_read_bytes(s->arch, active, i) /
						   sizeof(uint64_t));
	for (e = s->active; e; e = e->next)
		e->count = e->banked + pd_measurement_count(&e->base, event_sum(s, e));
	return 0;
}

/* START zeroed every hardware counter; the totals carry on. */
static void hw_reset_all(struct pd_session *s)
{
	struct pd_programmed_counter active[MAX_ACTIVE_SLOTS];
	size_t n, i;

	n = pd_pool_active(&s->pool, s->arch, active, MAX_ACTIVE_SLOTS);
	for (i = 0; i < n; i++)
		pd_totals_hw_reset(slot_totals(s, &active[i]));
}

int pd_session_start(struct pd_session *s, struct pd_event *e)
{
	bool needs_start, freed, stop;
	struct pd_pm4_buf buf;
	int ret;

	if (e->counting)
		return 0;
	ret = pd_pool_acquire(&s->pool, s->arch, e->id, &e->counter, &needs_start);
	if (ret)
		return ret;
	if (needs_start) {
		pd_session_read(s); /* bank the others before START zeroes them */
		pd_totals_clear(slot_totals(s, &e->counter));
		pd_pm4_buf_init(&buf, s->stream, s->stream_cap);
		ret = pd_seq_start(&buf, s->arch, &e->counter, 1);
		if (!ret)
			ret = s->ops->submit(s->gpu, buf.dw, buf.len);
		if (ret) {
			pd_pool_release(&s->pool, &e->counter, &freed, &stop);
			return ret;
		}
		hw_reset_all(s);
	}
	e->counting = true;
	list_add(s, e);
	ret = pd_session_read(s);
	pd_measurement_begin(&e->base, event_sum(s, e));
	e->count = e->banked;
	return ret;
}

int pd_session_stop(struct pd_session *s, struct pd_event *e)
{
	bool slot_freed, needs_stop;
	struct pd_pm4_buf buf;
	int ret, read_ret;

	if (!e->counting)
		return 0;
	read_ret = pd_session_read(s);
	e->banked = e->count;
	list_remove(s, e);
	e->counting = false;
	ret = pd_pool_release(&s->pool, &e->counter, &slot_freed, &needs_stop);
	if (ret || !needs_stop)
		return ret ? ret : read_ret;
	pd_pm4_buf_init(&buf, s->stream, s->stream_cap);
	ret = pd_seq_stop(&buf, s->arch);
	if (!ret)
		ret = s->ops->submit(s->gpu, buf.dw, buf.len);
	return ret ? ret : read_ret;
}
