/* SPDX-License-Identifier: MIT */
/*
 * Hardware counter slots shared between perf events. Events on the same
 * counter id share one slot: the first reference claims a free slot and
 * needs a START, later ones only add a reference. The slot is released
 * with the last reference of its counter, whoever took it first.
 *
 * STOP stops perfmon for every slot at once, so it is due only when the
 * last reference of all goes; the reference sent it when the first owner
 * stopped, cutting off events still counting.
 *
 * The pool does no locking; the module calls it under its mutex.
 */
#ifndef PD_SHARE_H
#define PD_SHARE_H

#include "pd_counters.h"
#include "pd_sequence.h"

PD_EXTERN_C_BEGIN

struct pd_slot_use {
	uint16_t counter_id;
	uint16_t refs; /* 0: free */
};

struct pd_counter_pool {
	struct pd_slot_use use[PD_BLOCK_COUNT][PD_MAX_SLOTS];
	unsigned int total_refs;
};

void pd_pool_init(struct pd_counter_pool *pool);

/*
 * Takes a reference on `id`. *counter is its slot and select; *needs_start
 * is true when the slot was just claimed. -ENOENT: the architecture has no
 * such counter; -EBUSY: every slot of its block is taken.
 */
int pd_pool_acquire(struct pd_counter_pool *pool, const struct pd_arch *arch,
		    enum pd_counter_id id, struct pd_programmed_counter *counter,
		    bool *needs_start);

/*
 * Drops a reference taken by pd_pool_acquire. *slot_freed: it was the
 * counter's last reference; *needs_stop: it was the pool's last one.
 * -EINVAL when the slot holds no reference.
 */
int pd_pool_release(struct pd_counter_pool *pool,
		    const struct pd_programmed_counter *counter,
		    bool *slot_freed, bool *needs_stop);

/* The counters in use, in slot order, for a READ; returns how many. */
size_t pd_pool_active(const struct pd_counter_pool *pool,
		      const struct pd_arch *arch,
		      struct pd_programmed_counter *out, size_t cap);

PD_EXTERN_C_END

#endif /* PD_SHARE_H */
