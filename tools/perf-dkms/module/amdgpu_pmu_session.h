/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The GPU side of the PMU: one session per module (the core's pd_session
 * and the GPU). perf calls add/del/start/stop/read with interrupts off, so
 * those only queue work; the work runs in process context under the
 * session mutex and is the only place that submits PM4.
 */
#ifndef AMDGPU_PMU_SESSION_H
#define AMDGPU_PMU_SESSION_H

#include "pd_counters.h"

struct amdgpu_pmu_measurement;

int amdgpu_pmu_session_init(const struct pd_arch *arch, unsigned int period_ms);
void amdgpu_pmu_session_exit(void);

/* Opens the GPU on first use; -EOPNOTSUPP without a submission back end. */
int amdgpu_pmu_session_ready(void);

struct amdgpu_pmu_measurement *
amdgpu_pmu_measurement_create(enum pd_counter_id id, const struct pd_dims *dims);
/* Stops counting if still counting and frees m. Process context. */
void amdgpu_pmu_measurement_destroy(struct amdgpu_pmu_measurement *m);

/* Any context: ask for m to count or not; a work item applies it. */
void amdgpu_pmu_measurement_start(struct amdgpu_pmu_measurement *m);
void amdgpu_pmu_measurement_stop(struct amdgpu_pmu_measurement *m);

/* Any context: m's latest count, and a refresh queued behind it. */
u64 amdgpu_pmu_measurement_count(struct amdgpu_pmu_measurement *m);

#endif /* AMDGPU_PMU_SESSION_H */
