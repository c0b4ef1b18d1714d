// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Kernel side of the session: the core's pd_session (slots, totals,
 * baselines, PM4) under a mutex, driven from a workqueue because perf's
 * callbacks run with interrupts off, and an hrtimer that queues a READ
 * every timer_period_ms while anything counts.
 */
#include <linux/hrtimer.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/version.h>
#include <linux/workqueue.h>

#include "amdgpu_pmu_session.h"
#include "amdgpu_pmu_submit.h"
#include "pd_session.h"

struct amdgpu_pmu_measurement {
	struct pd_event event; /* under session.lock */
	/*
	 * What perf asked for last. One work item applies it, so a start, stop,
	 * start that arrive before the work runs end up counting.
	 */
	bool want_counting;
	struct work_struct apply_work;
	spinlock_t count_lock;
	u64 count; /* event.count, for perf's atomic-context read */
};

static struct {
	struct mutex lock; /* core, gpu, no_backend */
	struct pd_session core;
	struct amdgpu_pmu_gpu *gpu;
	bool no_backend;
	const struct pd_arch *arch;
	struct pd_totals (*totals)[PD_MAX_SLOTS];
	u32 *stream;
	struct workqueue_struct *wq;
	struct work_struct read_work;
	struct hrtimer timer;
	ktime_t period;
} session;

static int gpu_submit(void *gpu, const u32 *dw, size_t n)
{
	return amdgpu_pmu_gpu_submit(gpu, dw, n);
}

static const u64 *gpu_results(void *gpu, u64 *gpu_addr)
{
	return amdgpu_pmu_gpu_results(gpu, gpu_addr);
}

static const struct pd_gpu_ops gpu_ops = {
	.submit = gpu_submit,
	.results = gpu_results,
};

static void publish_count(struct amdgpu_pmu_measurement *m)
{
	unsigned long flags;

	spin_lock_irqsave(&m->count_lock, flags);
	m->count = m->event.count;
	spin_unlock_irqrestore(&m->count_lock, flags);
}

/* After a READ every counting event has a new count. */
static void publish_all_locked(void)
{
	struct pd_event *e;

	for (e = session.core.active; e; e = e->next)
		publish_count(container_of(e, struct amdgpu_pmu_measurement, event));
}

static void update_timer_locked(void)
{
	if (pd_session_idle(&session.core))
		hrtimer_cancel(&session.timer); /* its callback takes no lock */
	else if (!hrtimer_active(&session.timer))
		hrtimer_start(&session.timer, session.period, HRTIMER_MODE_REL);
}

static void apply_locked(struct amdgpu_pmu_measurement *m, bool want)
{
	int ret;

	if (want)
		ret = pd_session_start(&session.core, &m->event);
	else
		ret = pd_session_stop(&session.core, &m->event);
	if (ret)
		pr_warn_ratelimited("amdgpu_pmu: %s %s: %d\n",
				    want ? "start" : "stop",
				    pd_counter_by_id(m->event.id)->name, ret);
	publish_all_locked();
	publish_count(m);
	update_timer_locked();
}

static void apply_work(struct work_struct *work)
{
	struct amdgpu_pmu_measurement *m =
		container_of(work, struct amdgpu_pmu_measurement, apply_work);

	mutex_lock(&session.lock);
	apply_locked(m, READ_ONCE(m->want_counting));
	mutex_unlock(&session.lock);
}

static void read_work(struct work_struct *work)
{
	int ret;

	mutex_lock(&session.lock);
	ret = pd_session_read(&session.core);
	publish_all_locked();
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
	mutex_init(&session.lock);
	session.arch = arch;
	session.stream = kvmalloc_array(pd_session_stream_dwords(arch), sizeof(u32),
					GFP_KERNEL);
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
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 13, 0)
	hrtimer_setup(&session.timer, poll, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
#else
	hrtimer_init(&session.timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	session.timer.function = poll;
#endif
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
	int ret = 0;

	mutex_lock(&session.lock);
	if (session.no_backend) {
		ret = -EOPNOTSUPP;
	} else if (!session.gpu) {
		ret = amdgpu_pmu_gpu_open(pd_session_result_bytes(session.arch),
					  &session.gpu);
		/* A kernel without submission stays so; other errors may pass. */
		session.no_backend = ret == -EOPNOTSUPP;
		if (!ret)
			pd_session_init(&session.core, session.arch, &gpu_ops,
					session.gpu, session.totals, session.stream);
	}
	mutex_unlock(&session.lock);
	return ret;
}

struct amdgpu_pmu_measurement *
amdgpu_pmu_measurement_create(enum pd_counter_id id, const struct pd_dims *dims)
{
	struct amdgpu_pmu_measurement *m = kzalloc(sizeof(*m), GFP_KERNEL);

	if (!m)
		return NULL;
	pd_event_init(&m->event, id, dims);
	INIT_WORK(&m->apply_work, apply_work);
	spin_lock_init(&m->count_lock);
	return m;
}

void amdgpu_pmu_measurement_destroy(struct amdgpu_pmu_measurement *m)
{
	cancel_work_sync(&m->apply_work);
	/* READs find events only on the session's list, under the lock. */
	mutex_lock(&session.lock);
	apply_locked(m, false);
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
