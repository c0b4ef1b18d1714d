// StinkyTofu's shipped example: a grid-strided SAXPY loop that calls a device
// function, then a work-group reduction in LDS with barriers. Built (by hand,
// the output is committed as saxpy_loop_gfx942.s) with:
//   clang-22 -x cl -cl-std=CL2.0 --target=amdgcn-amd-amdhsa -mcpu=gfx942 \
//     -nogpulib -O2 -mllvm -amdgpu-s-branch-bits=5 -S saxpy_loop.cl \
//     -o saxpy_loop_gfx942.s
// -nogpulib leaves no OpenCL library, so work-item ids come from clang
// builtins. -amdgpu-s-branch-bits=5 makes LLVM relax the loop's branches into
// s_getpc_b64 / s_setpc_b64 long branches, which StinkyTofu must keep.

#define WG 256

__attribute__((noinline)) float scale_and_add(float a, float x, float y) {
  return a * x + y;
}

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void saxpy_loop(__global float *restrict y, __global const float *restrict x,
                float a, uint n, uint stride, __global float *restrict partial) {
  __local float sums[WG];
  uint lid = __builtin_amdgcn_workitem_id_x();
  uint group = __builtin_amdgcn_workgroup_id_x();
  float acc = 0.0f;
  for (uint i = group * WG + lid; i < n; i += stride) {
    float v = scale_and_add(a, x[i], y[i]);
    y[i] = v;
    acc += v;
  }
  sums[lid] = acc;
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
  for (uint s = WG / 2; s > 0; s >>= 1) {
    if (lid < s)
      sums[lid] += sums[lid + s];
    __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
    __builtin_amdgcn_s_barrier();
    __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
  }
  if (lid == 0)
    partial[group] = sums[0];
}
