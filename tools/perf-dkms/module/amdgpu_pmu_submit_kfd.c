// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Back end for kernels carrying the perf-dkms amdkfd patch
 * (linux-kernel.patch of the reference), which exports device-memory
 * allocation and synchronous IB submission on compute ring 0. Built only
 * with AMDGPU_PMU_PATCHED_KFD=y: on a stock kernel these symbols do not
 * exist and the module would not load.
 *
 * The KFD process is the one /dev/kfd creates for the task that opens it
 * (the first perf_event_open of an amdgpu_pmu event).
 */
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/printk.h>
#include <linux/slab.h>

#include "amdgpu_pmu_submit.h"

struct kfd_process;
struct amdgpu_ib;

/*
 * The patch defines this in kfd_chardev.c, not in a header, so it is
 * repeated here with the same layout. kfd_alloc_device fills it and
 * allocates ib itself when ib is NULL.
 */
struct kfd_data_alloc {
	void *cpu_addr;
	void *gpu_addr;
	struct amdgpu_ib *ib;
	size_t size;
};

/* Exported by the patched kfd_chardev.c. ib_len counts dwords. */
extern int kfd_alloc_device(struct file *filep, struct kfd_process *p,
			    uint32_t gpu_id, size_t data_size,
			    struct kfd_data_alloc *data_alloc);
extern int kfd_destroy_device_mem(struct file *filep, struct kfd_process *p,
				  uint32_t gpu_id,
				  struct kfd_data_alloc *data_alloc);
extern int kfd_ioctl_submit_ib_packet(struct file *filep, struct kfd_process *p,
				      uint32_t gpu_id, const uint32_t *packet,
				      size_t ib_len);
extern int kfd_process_get_all_gpuids(struct kfd_process *p, uint32_t *gpu_ids,
				      uint32_t *num_gpus);

#define MAX_GPUS 64 /* KFD's MAX_GPU_INSTANCE */

struct amdgpu_pmu_gpu {
	struct file *kfd;
	struct kfd_process *process;
	u32 gpu_id;
	struct kfd_data_alloc results;
};

const char amdgpu_pmu_backend_name[] = "kfd-patched";

int amdgpu_pmu_gpu_open(size_t result_bytes, struct amdgpu_pmu_gpu **out)
{
	struct amdgpu_pmu_gpu *gpu;
	u32 ids[MAX_GPUS], n = MAX_GPUS;
	int ret;

	gpu = kzalloc(sizeof(*gpu), GFP_KERNEL);
	if (!gpu)
		return -ENOMEM;
	gpu->kfd = filp_open("/dev/kfd", O_RDWR, 0);
	if (IS_ERR(gpu->kfd)) {
		ret = PTR_ERR(gpu->kfd);
		goto free;
	}
	/* kfd_open leaves the caller's kfd_process here. */
	gpu->process = gpu->kfd->private_data;
	ret = gpu->process ? kfd_process_get_all_gpuids(gpu->process, ids, &n) :
			     -ENODEV;
	if (!ret && !n)
		ret = -ENODEV;
	if (ret)
		goto close;
	gpu->gpu_id = ids[0];
	ret = kfd_alloc_device(gpu->kfd, gpu->process, gpu->gpu_id,
			       result_bytes, &gpu->results);
	if (ret)
		goto close;
	*out = gpu;
	return 0;
close:
	filp_close(gpu->kfd, NULL);
free:
	kfree(gpu);
	pr_err("amdgpu_pmu: cannot open the GPU through KFD (%d)\n", ret);
	return ret;
}

void amdgpu_pmu_gpu_close(struct amdgpu_pmu_gpu *gpu)
{
	kfd_destroy_device_mem(gpu->kfd, gpu->process, gpu->gpu_id, &gpu->results);
	filp_close(gpu->kfd, NULL);
	kfree(gpu);
}

void *amdgpu_pmu_gpu_results(struct amdgpu_pmu_gpu *gpu, u64 *gpu_addr)
{
	*gpu_addr = (u64)(uintptr_t)gpu->results.gpu_addr;
	return gpu->results.cpu_addr;
}

int amdgpu_pmu_gpu_submit(struct amdgpu_pmu_gpu *gpu, const u32 *dw, size_t n)
{
	return kfd_ioctl_submit_ib_packet(gpu->kfd, gpu->process, gpu->gpu_id,
					  dw, n);
}
