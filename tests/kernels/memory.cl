// Global loads and stores, LDS (__local) traffic, barriers and raw buffer
// loads/stores through a buffer resource made in the kernel.
// Built for every target with:
//   clang -x cl -cl-std=CL2.0 --target=amdgcn-amd-amdhsa -mcpu=<gfx> -nogpulib -O0|-O2 -S

#include "lds_barrier.h"

#define TILE 64

__kernel void memory_global(__global float4 *out, __global const float4 *a,
                            __global const float4 *b,
                            __global const ushort *h, float alpha) {
  uint i = __builtin_amdgcn_workgroup_id_x() * TILE + __builtin_amdgcn_workitem_id_x();
  float4 x = a[i];
  float4 y = b[i];
  out[i] = alpha * x + y + (float)h[i];
}

// LDS comes in as a __local kernel argument: clang 22 also emits every kernel
// body as a callable __clang_ocl_kern_imp_* function, and a function-scope
// __local array there draws a "local memory global used by non-kernel
// function" warning (and an s_trap in that copy).
__kernel void memory_lds(__global int *out, __global const int *in,
                         __local int *tile) {
  uint t = __builtin_amdgcn_workitem_id_x();
  uint base = __builtin_amdgcn_workgroup_id_x() * TILE;
  tile[t] = in[base + t];
  LDS_BARRIER();
  // Tree reduction in LDS, one barrier per step.
  for (uint s = TILE / 2; s > 0; s >>= 1) {
    if (t < s)
      tile[t] += tile[t + s];
    LDS_BARRIER();
  }
  if (t == 0)
    out[__builtin_amdgcn_workgroup_id_x()] = tile[0];
}

__kernel void memory_buffer(__global int *out, __global int *in, int n) {
  uint t = __builtin_amdgcn_workitem_id_x();
  uint off = (__builtin_amdgcn_workgroup_id_x() * TILE + t) * 4;
  __amdgpu_buffer_rsrc_t src =
      __builtin_amdgcn_make_buffer_rsrc(in, (short)0, n * 4, 0);
  __amdgpu_buffer_rsrc_t dst =
      __builtin_amdgcn_make_buffer_rsrc(out, (short)0, n * 4, 0);
  int v = __builtin_amdgcn_raw_buffer_load_b32(src, off, 0, 0);
  int w = __builtin_amdgcn_raw_buffer_load_b32(src, off, 256, 0);
  __builtin_amdgcn_raw_buffer_store_b32(v * 3 + w, dst, off, 0, 0);
}
