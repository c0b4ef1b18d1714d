// SPDX-License-Identifier: MIT
#include <linux/hrtimer.h>
#include <linux/list.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>

#include "amdgpu_pmu_session.h"
#include "amdgpu_pmu_submit.h"
#include "pd_result.h"
#include "pd_share.h"

/* Worst case dwords per reading: broadcast + select + two COPY_DATA. */
#define DWORDS_PER_READING 18
#define SEQUENCE_OVERHEAD_DWORDS 64
#define MAX_ACTIVE (PD_BLOCK_COUNT * PD_MAX_SLOTS)

struct amdgpu_pmu_measurement {
	struct list_head node; /* in session.active while counting */
	enum pd_counter_id id;
	struct pd_dims dims;
	struct pd_programmed_counter counter;
	bool counting; /* holds a pool reference */
	/*
	 * What perf asked for last. One work item applies it, so a start, stop,
	 * start that arrive before the work runs end up counting.
	 */
	bool want_counting;
	struct work_struct apply_work;
	struct pd_measurement base;
	u64 banked; /* counted in earlier start/stop periods */
	spinlock_t count_lock;
	u64 count;  /* what perf sees: never goes down */
};

static struct {
	struct mutex lock; /* everything below except the timer */
	const struct pd_arch *arch;
	struct amdgpu_pmu_gpu *gpu;
	int open_error;
	struct pd_counter_pool pool;
	struct list_head active;
	/* Running totals per counter slot, [block][slot]. */
	struct pd_totals (*totals)[PD_MAX_SLOTS];
	u32 *stream;
	size_t stream_cap;
	size_t result_bytes;
	u32 fence;
	struct workqueue_struct *wq;
	struct work_struct read_work;
	struct hrtimer timer;
	ktime_t period;
} session;

static size_t max_readings(const struct pd_arch *arch)
{
	size_t readings = 0;
	unsigned int b;

	for (b = 0; b < PD_BLOCK_COUNT; b++)
		readings += arch->blocks[b].num_slots * pd_block_instances(arch, b);
	return readings;
}

static int submit(const struct pd_pm4_buf *buf)
{
	return amdgpu_pmu_gpu_submit(session.gpu, buf->dw, buf->len);
}

static void set_count(struct amdgpu_pmu_measurement *m, u64 count)
{
	unsigned long flags;

	spin_lock_irqsave(&m->count_lock, flags);
	m->count = count;
	spin_unlock_irqrestore(&m->count_lock, flags);
}

static struct pd_totals *slot_totals(const struct pd_programmed_counter *c)
{
	return &session.totals[c->block][c->slot];
}

static u64 measurement_sum(const struct amdgpu_pmu_measurement *m)
{
	return pd_result_sum(session.arch, m->counter.block, &m->dims,
			     slot_totals(&m->counter)->total);
}

/* Reads every active counter slot and brings every measurement up to date. */
static int read_all_locked(void)
{
	struct pd_programmed_counter active[MAX_ACTIVE];
	struct amdgpu_pmu_measurement *m;
	struct pd_pm4_buf buf;
	size_t n, i, fence_at;
	const u64 *results;
	u64 addr;
	int ret;

	n = pd_pool_active(&session.pool, session.arch, active, MAX_ACTIVE);
	if (!n)
		return 0;
	results = amdgpu_pmu_gpu_results(session.gpu, &addr);
	fence_at = pd_read_bytes(session.arch, active, n) / sizeof(u64);
	pd_pm4_buf_init(&buf, session.stream, session.stream_cap);
	ret = pd_seq_read(&buf, session.arch, active, n, addr, ++session.fence);
	if (!ret)
		ret = submit(&buf);
	if (ret)
		return ret;
	if ((u32)READ_ONCE(results[fence_at]) != session.fence)
		return -EIO;
	for (i = 0; i < n; i++)
		pd_totals_update(slot_totals(&active[i]), session.arch,
				 active[i].block,
				 results + pd_read_bytes(session.arch, active, i) / sizeof(u64));
	list_for_each_entry(m, &session.active, node)
		set_count(m, m->banked +
			  pd_measurement_count(&m->base, measurement_sum(m)));
	return 0;
}

/* START zeroes every hardware counter; the totals carry on. */
static void hw_reset_all_locked(void)
{
	struct pd_programmed_counter active[MAX_ACTIVE];
	size_t n, i;

	n = pd_pool_active(&session.pool, session.arch, active, MAX_ACTIVE);
	for (i = 0; i < n; i++)
		pd_totals_hw_reset(slot_totals(&active[i]));
}

static void start_locked(struct amdgpu_pmu_measurement *m)
{
	struct pd_pm4_buf buf;
	bool needs_start;
	int ret;

	if (m->counting)
		return;
	ret = pd_pool_acquire(&session.pool, session.arch, m->id, &m->counter,
			      &needs_start);
	if (ret) {
		pr_warn_ratelimited("amdgpu_pmu: no counter slot for %s (%d)\n",
				    pd_counter_by_id(m->id)->name, ret);
		return;
	}
	if (needs_start) {
		/* Bank what the running counters counted before START zeroes them. */
		read_all_locked();
		pd_totals_clear(slot_totals(&m->counter));
		pd_pm4_buf_init(&buf, session.stream, session.stream_cap);
		ret = pd_seq_start(&buf, session.arch, &m->counter, 1);
		if (!ret)
			ret = submit(&buf);
		if (ret)
			pr_warn_ratelimited("amdgpu_pmu: START failed (%d)\n", ret);
		hw_reset_all_locked();
	}
	m->counting = true;
	ret = read_all_locked();
	if (ret)
		pr_warn_ratelimited("amdgpu_pmu: baseline READ failed (%d)\n", ret);
	pd_measurement_begin(&m->base, measurement_sum(m));
	if (list_empty(&session.active))
		hrtimer_start(&session.timer, session.period, HRTIMER_MODE_REL);
	list_add_tail(&m->node, &session.active);
}

static void stop_locked(struct amdgpu_pmu_measurement *m)
{
	struct pd_pm4_buf buf;
	bool slot_freed, needs_stop;
	int ret;

	if (!m->counting)
		return;
	read_all_locked();
	m->banked = m->count;
	list_del(&m->node);
	m->counting = false;
	if (pd_pool_release(&session.pool, &m->counter, &slot_freed, &needs_stop))
		return;
	if (needs_stop) {
		pd_pm4_buf_init(&buf, session.stream, session.stream_cap);
		ret = pd_seq_stop(&buf, session.arch);
		if (!ret)
			ret = submit(&buf);
		if (ret)
			pr_warn_ratelimited("amdgpu_pmu: STOP failed (%d)\n", ret);
	}
	if (list_empty(&session.active))
		hrtimer_cancel(&session.timer); /* its callback takes no lock */
}

static void apply_work(struct work_struct *work)
{
	struct amdgpu_pmu_measurement *m =
		container_of(work, struct amdgpu_pmu_measurement, apply_work);

	mutex_lock(&session.lock);
	if (READ_ONCE(m->want_counting))
		start_locked(m);
	else
		stop_locked(m);
	mutex_unlock(&session.lock);
}

static void read_work(struct work_struct *work)
{
	int ret;

	mutex_lock(&session.lock);
	ret = read_all_locked();
	mutex_unlock(&session.lock);
	if (ret)
		pr_warn_ratelimited("amdgpu_pmu: READ failed (%d)\n", ret);
}

/* Timer context: only queue the READ. */
static enum hrtimer_restart poll(struct hrtimer *timer)
{
	queue_work(session.wq, &session.read_work);
	hrtimer_forward_now(timer, session.period);
	return HRTIMER_RESTART;
}

int amdgpu_pmu_session_init(const struct pd_arch *arch, unsigned int period_ms)
{
	size_t readings = max_readings(arch);

	mutex_init(&session.lock);
	INIT_LIST_HEAD(&session.active);
	pd_pool_init(&session.pool);
	session.arch = arch;
	session.result_bytes = (readings + 1) * sizeof(u64);
	session.stream_cap = readings * DWORDS_PER_READING + SEQUENCE_OVERHEAD_DWORDS;
	session.stream = kvmalloc_array(session.stream_cap, sizeof(u32), GFP_KERNEL);
	session.totals = kvcalloc(PD_BLOCK_COUNT, sizeof(*session.totals), GFP_KERNEL);
	session.wq = alloc_ordered_workqueue("amdgpu_pmu", 0);
	if (!session.stream || !session.totals || !session.wq) {
		if (session.wq)
			destroy_workqueue(session.wq);
		kvfree(session.totals);
		kvfree(session.stream);
		return -ENOMEM;
	}
	INIT_WORK(&session.read_work, read_work);
	hrtimer_init(&session.timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	session.timer.function = poll;
	session.period = ms_to_ktime(period_ms);
	return 0;
}

void amdgpu_pmu_session_exit(void)
{
	hrtimer_cancel(&session.timer);
	destroy_workqueue(session.wq);
	if (session.gpu)
		amdgpu_pmu_gpu_close(session.gpu);
	kvfree(session.totals);
	kvfree(session.stream);
}

int amdgpu_pmu_session_ready(void)
{
	int ret;

	mutex_lock(&session.lock);
	if (!session.gpu && !session.open_error)
		session.open_error = amdgpu_pmu_gpu_open(session.result_bytes,
							 &session.gpu);
	ret = session.open_error;
	mutex_unlock(&session.lock);
	return ret;
}

struct amdgpu_pmu_measurement *
amdgpu_pmu_measurement_create(enum pd_counter_id id, const struct pd_dims *dims)
{
	struct amdgpu_pmu_measurement *m = kzalloc(sizeof(*m), GFP_KERNEL);

	if (!m)
		return NULL;
	m->id = id;
	m->dims = *dims;
	INIT_LIST_HEAD(&m->node);
	INIT_WORK(&m->apply_work, apply_work);
	spin_lock_init(&m->count_lock);
	return m;
}

void amdgpu_pmu_measurement_destroy(struct amdgpu_pmu_measurement *m)
{
	cancel_work_sync(&m->apply_work);
	/* READs find measurements only on the list, under the lock. */
	mutex_lock(&session.lock);
	stop_locked(m);
	mutex_unlock(&session.lock);
	kfree(m);
}

void amdgpu_pmu_measurement_start(struct amdgpu_pmu_measurement *m)
{
	WRITE_ONCE(m->want_counting, true);
	queue_work(session.wq, &m->apply_work);
}

void amdgpu_pmu_measurement_stop(struct amdgpu_pmu_measurement *m)
{
	WRITE_ONCE(m->want_counting, false);
	queue_work(session.wq, &m->apply_work);
}

u64 amdgpu_pmu_measurement_count(struct amdgpu_pmu_measurement *m)
{
	unsigned long flags;
	u64 count;

	spin_lock_irqsave(&m->count_lock, flags);
	count = m->count;
	spin_unlock_irqrestore(&m->count_lock, flags);
	queue_work(session.wq, &session.read_work);
	return count;
}
