// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Back end for kernels without the perf-dkms KFD patch: upstream amdkfd
 * exports no way for another module to run a PM4 buffer, so the PMU is
 * registered (its events and formats are visible) but cannot count.
 */
#include <linux/errno.h>
#include <linux/printk.h>

#include "amdgpu_pmu_submit.h"

const char amdgpu_pmu_backend_name[] = "stock";

int amdgpu_pmu_gpu_open(size_t result_bytes, struct amdgpu_pmu_gpu **gpu)
{
	pr_info_once("amdgpu_pmu: this kernel has no KFD PM4 submission (build with AMDGPU_PMU_PATCHED_KFD=y on a kernel with the perf-dkms patch); events are refused\n");
	return -EOPNOTSUPP;
}

void amdgpu_pmu_gpu_close(struct amdgpu_pmu_gpu *gpu)
{
}

void *amdgpu_pmu_gpu_results(struct amdgpu_pmu_gpu *gpu, u64 *gpu_addr)
{
	return NULL;
}

int amdgpu_pmu_gpu_submit(struct amdgpu_pmu_gpu *gpu, const u32 *dw, size_t n)
{
	return -EOPNOTSUPP;
}
