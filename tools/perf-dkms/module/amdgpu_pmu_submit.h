/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * How the module reaches the GPU. One back end is linked in (see Kbuild):
 * amdgpu_pmu_submit_kfd.c uses the entry points the perf-dkms kernel patch
 * exports from amdkfd; amdgpu_pmu_submit_stock.c is for every other kernel
 * and reports that it cannot submit.
 */
#ifndef AMDGPU_PMU_SUBMIT_H
#define AMDGPU_PMU_SUBMIT_H

#include <linux/types.h>

struct amdgpu_pmu_gpu;

/* Short name for the log: "kfd-patched" or "stock". */
extern const char amdgpu_pmu_backend_name[];

/*
 * Opens the first GPU with a result buffer of at least result_bytes.
 * -EOPNOTSUPP when this kernel has no way to submit PM4. Process context.
 */
int amdgpu_pmu_gpu_open(size_t result_bytes, struct amdgpu_pmu_gpu **gpu);
void amdgpu_pmu_gpu_close(struct amdgpu_pmu_gpu *gpu);

/* The result buffer: CPU view and GPU address (256-byte aligned). */
void *amdgpu_pmu_gpu_results(struct amdgpu_pmu_gpu *gpu, u64 *gpu_addr);

/* Runs the dwords as an indirect buffer and waits for it. Process context. */
int amdgpu_pmu_gpu_submit(struct amdgpu_pmu_gpu *gpu, const u32 *dw, size_t n);

#endif /* AMDGPU_PMU_SUBMIT_H */
