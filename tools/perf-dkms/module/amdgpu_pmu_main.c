// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * amdgpu_pmu: AMD GPU performance counters as the perf PMU "amdgpu_pmu".
 *
 *   perf stat -a -e amdgpu_pmu/sq_waves,se=1,has_se=1/ -- ./app
 *
 * config is the counter id (pd_counters.h), config1 the dimensions
 * (pd_dims.h). Counting is system-wide on one GPU; the perf callbacks only
 * queue work (amdgpu_pmu_session.c), the values come from a READ every
 * timer_period_ms and on each perf read.
 */
#include <linux/device.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/perf_event.h>
#include <linux/sysfs.h>

#include "amdgpu_pmu_session.h"
#include "amdgpu_pmu_submit.h"
#include "pd_session.h"

static char *arch_name = "gfx1201";
module_param_named(arch, arch_name, charp, 0444);
MODULE_PARM_DESC(arch, "GPU target: gfx90a, gfx942, gfx1200 or gfx1201");

static unsigned int timer_period_ms = 20;
module_param(timer_period_ms, uint, 0444);
MODULE_PARM_DESC(timer_period_ms, "How often active counters are read (ms)");

static const struct pd_arch *arch;

PMU_FORMAT_ATTR(event, "config:0-15");
PMU_FORMAT_ATTR(xcc, "config1:0-7");
PMU_FORMAT_ATTR(se, "config1:8-15");
PMU_FORMAT_ATTR(sa, "config1:16-23");
PMU_FORMAT_ATTR(wgp, "config1:24-31");
PMU_FORMAT_ATTR(cu, "config1:32-39");
PMU_FORMAT_ATTR(aggregate, "config1:40");
PMU_FORMAT_ATTR(has_xcc, "config1:41");
PMU_FORMAT_ATTR(has_se, "config1:42");
PMU_FORMAT_ATTR(has_sa, "config1:43");
PMU_FORMAT_ATTR(has_wgp, "config1:44");
PMU_FORMAT_ATTR(has_cu, "config1:45");

static struct attribute *format_attrs[] = {
	&format_attr_event.attr,   &format_attr_xcc.attr,
	&format_attr_se.attr,	   &format_attr_sa.attr,
	&format_attr_wgp.attr,	   &format_attr_cu.attr,
	&format_attr_aggregate.attr, &format_attr_has_xcc.attr,
	&format_attr_has_se.attr,  &format_attr_has_sa.attr,
	&format_attr_has_wgp.attr, &format_attr_has_cu.attr,
	NULL,
};

static const struct attribute_group format_group = {
	.name = "format",
	.attrs = format_attrs,
};

/* One "events/<name>" file per counter the configured GPU has. */
struct counter_event_attr {
	struct device_attribute attr;
	unsigned int id;
};

static struct counter_event_attr event_attrs[PD_CTR_COUNT];
static struct attribute *event_attr_list[PD_CTR_COUNT + 1];

static ssize_t counter_event_show(struct device *dev,
				  struct device_attribute *attr, char *buf)
{
	struct counter_event_attr *e =
		container_of(attr, struct counter_event_attr, attr);

	return sysfs_emit(buf, "event=0x%x\n", e->id);
}

static struct attribute_group events_group = {
	.name = "events",
	.attrs = event_attr_list,
};

/* Uncore-style: perf opens the events on this CPU only. */
static ssize_t cpumask_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	return sysfs_emit(buf, "0\n");
}
static DEVICE_ATTR_RO(cpumask);

static struct attribute *cpumask_attrs[] = { &dev_attr_cpumask.attr, NULL };

static const struct attribute_group cpumask_group = {
	.attrs = cpumask_attrs,
};

static const struct attribute_group *attr_groups[] = {
	&format_group, &events_group, &cpumask_group, NULL,
};

static void build_event_attrs(void)
{
	unsigned int id, n = 0;
	u32 select;

	for (id = 0; id < PD_CTR_COUNT; id++) {
		struct counter_event_attr *e = &event_attrs[n];

		if (!pd_counter_select(arch, id, &select))
			continue;
		sysfs_attr_init(&e->attr.attr);
		e->attr.attr.name = pd_counter_by_id(id)->name;
		e->attr.attr.mode = 0444;
		e->attr.show = counter_event_show;
		e->id = id;
		event_attr_list[n++] = &e->attr.attr;
	}
	event_attr_list[n] = NULL;
}

static void amdgpu_pmu_event_destroy(struct perf_event *event)
{
	amdgpu_pmu_measurement_destroy(event->pmu_private);
}

static int amdgpu_pmu_event_init(struct perf_event *event)
{
	struct amdgpu_pmu_measurement *m;
	enum pd_counter_id id;
	struct pd_dims dims;
	const char *why;
	int ret;

	if (event->attr.type != event->pmu->type)
		return -ENOENT;
	/* Counts belong to the whole GPU, not to a task or a sample. */
	if (is_sampling_event(event) || event->attach_state & PERF_ATTACH_TASK ||
	    event->cpu < 0)
		return -EINVAL;
	if (event->attr.config2) /* nothing is defined there */
		return -EINVAL;
	ret = pd_event_config(arch, event->attr.config, event->attr.config1, &id,
			      &dims, &why);
	if (ret) {
		pr_debug("amdgpu_pmu: config 0x%llx config1 0x%llx on %s: %s\n",
			 event->attr.config, event->attr.config1, arch->name, why);
		return ret;
	}
	ret = amdgpu_pmu_session_ready();
	if (ret)
		return ret;
	m = amdgpu_pmu_measurement_create(id, &dims);
	if (!m)
		return -ENOMEM;
	event->pmu_private = m;
	event->destroy = amdgpu_pmu_event_destroy;
	return 0;
}

static void amdgpu_pmu_read(struct perf_event *event)
{
	u64 count = amdgpu_pmu_measurement_count(event->pmu_private);
	u64 prev = local64_xchg(&event->hw.prev_count, count);

	local64_add(count - prev, &event->count);
}

static void amdgpu_pmu_start(struct perf_event *event, int flags)
{
	event->hw.state = 0;
	amdgpu_pmu_measurement_start(event->pmu_private);
}

static void amdgpu_pmu_stop(struct perf_event *event, int flags)
{
	if (!(event->hw.state & PERF_HES_STOPPED)) {
		amdgpu_pmu_measurement_stop(event->pmu_private);
		event->hw.state |= PERF_HES_STOPPED;
	}
	if ((flags & PERF_EF_UPDATE) && !(event->hw.state & PERF_HES_UPTODATE)) {
		amdgpu_pmu_read(event);
		event->hw.state |= PERF_HES_UPTODATE;
	}
}

static int amdgpu_pmu_add(struct perf_event *event, int flags)
{
	event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	if (flags & PERF_EF_START)
		amdgpu_pmu_start(event, PERF_EF_RELOAD);
	return 0;
}

static void amdgpu_pmu_del(struct perf_event *event, int flags)
{
	amdgpu_pmu_stop(event, PERF_EF_UPDATE);
}

static struct pmu amdgpu_pmu = {
	.module = THIS_MODULE,
	.task_ctx_nr = perf_invalid_context,
	.attr_groups = attr_groups,
	.capabilities = PERF_PMU_CAP_NO_EXCLUDE | PERF_PMU_CAP_NO_INTERRUPT,
	.event_init = amdgpu_pmu_event_init,
	.add = amdgpu_pmu_add,
	.del = amdgpu_pmu_del,
	.start = amdgpu_pmu_start,
	.stop = amdgpu_pmu_stop,
	.read = amdgpu_pmu_read,
};

static int __init amdgpu_pmu_init(void)
{
	int ret;

	arch = pd_arch_find(arch_name);
	if (!arch) {
		pr_err("amdgpu_pmu: unknown arch '%s' (gfx90a, gfx942, gfx1200, gfx1201)\n",
		       arch_name);
		return -EINVAL;
	}
	if (!timer_period_ms) {
		pr_err("amdgpu_pmu: timer_period_ms must be at least 1\n");
		return -EINVAL;
	}
	ret = amdgpu_pmu_session_init(arch, timer_period_ms);
	if (ret)
		return ret;
	build_event_attrs();
	ret = perf_pmu_register(&amdgpu_pmu, "amdgpu_pmu", -1);
	if (ret) {
		amdgpu_pmu_session_exit();
		return ret;
	}
	pr_info("amdgpu_pmu: %s, %s back end\n", arch->name,
		amdgpu_pmu_backend_name);
	return 0;
}

static void __exit amdgpu_pmu_exit(void)
{
	perf_pmu_unregister(&amdgpu_pmu);
	amdgpu_pmu_session_exit();
}

module_init(amdgpu_pmu_init);
module_exit(amdgpu_pmu_exit);

MODULE_DESCRIPTION("AMD GPU performance counters as a perf PMU");
MODULE_LICENSE("Dual MIT/GPL");
