/* SPDX-License-Identifier: MIT */
/*
 * What the module does for perf: start, read and stop events on one GPU,
 * sharing counter slots, keeping per-instance totals and per-event
 * baselines. It submits PM4 through two callbacks, so the module and the
 * unit tests (against a simulated GPU) run the same logic; the caller
 * serialises calls and owns the memory.
 */
#ifndef PD_SESSION_H
#define PD_SESSION_H

#include "pd_result.h"
#include "pd_share.h"

PD_EXTERN_C_BEGIN

struct pd_gpu_ops {
	/* Runs the dwords on the GPU and waits for them; 0 or -errno. */
	int (*submit)(void *gpu, const uint32_t *dw, size_t n);
	/*
	 * The result buffer, pd_session_result_bytes() long: CPU view and GPU
	 * address (256-byte aligned).
	 */
	const uint64_t *(*results)(void *gpu, uint64_t *gpu_addr);
};

/* One perf event. */
struct pd_event {
	enum pd_counter_id id;
	struct pd_dims dims;
	/* Session state below. */
	bool counting; /* holds a slot reference, on the active list */
	struct pd_programmed_counter counter;
	struct pd_measurement base;
	uint64_t banked; /* counted in earlier start/stop periods */
	uint64_t count;	 /* what perf sees: never goes down */
	struct pd_event *prev, *next;
};

struct pd_session {
	const struct pd_arch *arch;
	const struct pd_gpu_ops *ops;
	void *gpu;
	struct pd_counter_pool pool;
	struct pd_totals (*totals)[PD_MAX_SLOTS]; /* [PD_BLOCK_COUNT] */
	uint32_t *stream;
	size_t stream_cap;
	uint32_t fence;
	struct pd_event *active;
};

/* Sizes of the caller's memory for an architecture. */
size_t pd_session_stream_dwords(const struct pd_arch *arch);
size_t pd_session_result_bytes(const struct pd_arch *arch);

/* stream: pd_session_stream_dwords(); totals: PD_BLOCK_COUNT rows. */
void pd_session_init(struct pd_session *s, const struct pd_arch *arch,
		     const struct pd_gpu_ops *ops, void *gpu,
		     struct pd_totals (*totals)[PD_MAX_SLOTS], uint32_t *stream);

void pd_event_init(struct pd_event *e, enum pd_counter_id id,
		   const struct pd_dims *dims);

/*
 * perf_event_attr.config and config1 to a counter on the architecture and
 * checked dimensions. -EINVAL with *why (why may be NULL) for an unknown
 * counter, one the architecture lacks, or dimensions pd_dims_decode or
 * pd_dims_validate refuse.
 */
int pd_event_config(const struct pd_arch *arch, uint64_t config,
		    uint64_t config1, enum pd_counter_id *id,
		    struct pd_dims *dims, const char **why);

/*
 * Starts counting e (nothing if it counts): takes a slot reference; the
 * slot's first reference sends START, after a READ that banks what the
 * other counters counted (START zeroes them all). -ENOENT, -EBUSY: no
 * slot, e does not count; a failed START also leaves e not counting.
 */
int pd_session_start(struct pd_session *s, struct pd_event *e);

/* Reads every counting slot and updates every counting event's count. */
int pd_session_read(struct pd_session *s);

/*
 * Stops e (nothing if it does not count) after a last READ; the last
 * reference of all sends STOP.
 */
int pd_session_stop(struct pd_session *s, struct pd_event *e);

static inline bool pd_session_idle(const struct pd_session *s)
{
	return !s->active;
}

PD_EXTERN_C_END

#endif /* PD_SESSION_H */
