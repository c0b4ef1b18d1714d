// Device functions that stay out of line, so kernels reach them through
// s_swappc_b64 (and return with s_setpc_b64).
// Built for every target with:
//   clang -x cl -cl-std=CL2.0 --target=amdgcn-amd-amdhsa -mcpu=<gfx> -nogpulib -O0|-O2 -S

__attribute__((noinline)) static int scale(int x, int k) {
  return x * k + (x >> 3);
}

__attribute__((noinline)) static float blend(float a, float b, float t) {
  return a + (b - a) * t;
}

// Calls another device function: a non-leaf callee that must save s[30:31].
__attribute__((noinline)) static int scale_twice(int x, int k) {
  int y = scale(x, k);
  return scale(y, k + 1) ^ y;
}

__attribute__((noinline)) static void store_pair(__global int *out, uint i,
                                                 int a, int b) {
  out[2 * i] = a;
  out[2 * i + 1] = b;
}

__kernel void calls_simple(__global int *out, __global const int *in, int k) {
  uint i = __builtin_amdgcn_workgroup_id_x() * 64 + __builtin_amdgcn_workitem_id_x();
  out[i] = scale(in[i], k);
}

__kernel void calls_nested(__global int *out, __global const int *in,
                           __global const float *f, int k) {
  uint i = __builtin_amdgcn_workgroup_id_x() * 64 + __builtin_amdgcn_workitem_id_x();
  int a = scale_twice(in[i], k);
  float b = blend(f[i], f[i + 1], 0.25f);
  store_pair(out, i, a, (int)b);
}
