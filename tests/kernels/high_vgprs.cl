// More than 256 VGPRs live at once on gfx1250: 320 floats per work-item kept
// in registers across a loop (each step reads its neighbour, so none can be
// recomputed or spilled cheaply). LLVM 22 allocates v0..v1023 and writes the
// high ones as s_set_vgpr_msb + low registers; get_global_id is a call
// (-nogpulib), so the kernel also crosses a call with the state reset.
// Built for gfx1250 with:
//   clang -x cl -cl-std=CL2.0 --target=amdgcn-amd-amdhsa -mcpu=gfx1250 -nogpulib -O2 -S
#define N 320

__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void high_vgprs(__global float *out, __global const float *in, int n) {
  uint i = get_global_id(0);
  float acc[N];
#pragma unroll
  for (int k = 0; k < N; ++k)
    acc[k] = in[i * N + k];
  for (int j = 0; j < n; ++j) {
#pragma unroll
    for (int k = 0; k < N; ++k)
      acc[k] = acc[k] * acc[(k + 1) % N] + (float)j;
  }
#pragma unroll
  for (int k = 0; k < N; ++k)
    out[i * N + k] = acc[k];
}
