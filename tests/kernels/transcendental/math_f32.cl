// Transcendental-heavy float kernels for the ALU-wait oracle
// (tests/lit/hazards/alu-waits-transcendental.test): exp, log, pow,
// division, sqrt and sine chains between loads and scalar arithmetic, the
// code where s_delay_alu, s_waitcnt_depctr va_vdst(0) and gfx12's s_wait_alu
// meet. The work-item id comes from the builtins (get_global_id is a call
// with -nogpulib), and the math from clang's builtins, which the backend
// expands inline (OpenCL's exp() etc. would be calls of undefined functions).

#define GID (__builtin_amdgcn_workgroup_id_x() * 256u + __builtin_amdgcn_workitem_id_x())
// barrier() is a call too; the builtins give LLVM's inline barrier.
#define BARRIER()                                                              \
  do {                                                                         \
    __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");                     \
    __builtin_amdgcn_s_barrier();                                              \
    __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");                     \
  } while (0)

__kernel void exp_log_pow(__global float *out, __global const float *a,
                          __global const float *b, float p) {
  uint i = GID;
  float x = a[i], y = b[i];
  float e = __builtin_expf(x);
  float l = __builtin_logf(y + 1.0f);
  float w = __builtin_powf(x, p);
  out[i] = e * l + w / (e + 2.0f);
}

__kernel void chain(__global float *out, __global const float *in, int n) {
  uint i = GID;
  float x = in[i];
  // Each step feeds the next: a TRANS result read one to three
  // instructions later, with the division's scale/fixup VALU in between.
  x = __builtin_sqrtf(x * x + 1.0f);
  x = __builtin_logf(x) / (x + 0.5f);
  x = __builtin_sinf(x) * __builtin_cosf(x * 0.5f);
  x = __builtin_exp2f(x) - __builtin_log2f(x + 3.0f);
  x = __builtin_powf(x + 1.0f, (float)n);
  out[i] = x;
}

__kernel void softmax_row(__global float *out, __global const float *in, int cols) {
  uint row = __builtin_amdgcn_workgroup_id_x();
  uint lane = __builtin_amdgcn_workitem_id_x();
  __global const float *r = in + row * cols;
  float m = -1e30f;
  for (int c = lane; c < cols; c += 64)
    m = __builtin_fmaxf(m, r[c]);
  float s = 0.0f;
  for (int c = lane; c < cols; c += 64)
    s += __builtin_expf(r[c] - m);
  float inv = 1.0f / s;
  for (int c = lane; c < cols; c += 64)
    out[row * cols + c] = __builtin_expf(r[c] - m) * inv;
}

__kernel void gelu_tanh(__global float *out, __global const float *in, uint n) {
  uint i = GID;
  if (i >= n)
    return;
  float x = in[i];
  float u = 0.7978845608f * (x + 0.044715f * x * x * x);
  float e = __builtin_expf(2.0f * u);
  float t = (e - 1.0f) / (e + 1.0f);
  out[i] = 0.5f * x * (1.0f + t);
}

__kernel void layer_norm(__global float *out, __global const float *in,
                         __global const float *gamma, int cols, float eps) {
  uint row = __builtin_amdgcn_workgroup_id_x();
  uint lane = __builtin_amdgcn_workitem_id_x();
  __global const float *r = in + row * cols;
  float s = 0.0f, q = 0.0f;
  for (int c = lane; c < cols; c += 32) {
    float v = r[c];
    s += v;
    q += v * v;
  }
  float mean = s / cols;
  float rstd = 1.0f / __builtin_sqrtf(q / cols - mean * mean + eps);
  for (int c = lane; c < cols; c += 32)
    out[row * cols + c] = (r[c] - mean) * rstd * gamma[c];
}

// Branches with math on both sides: the delay state joins at the merge.
__kernel void branchy(__global float *out, __global const float *in,
                      __global const int *sel, float k) {
  uint i = GID;
  float x = in[i];
  float y;
  if (sel[i] > 0)
    y = __builtin_expf(x * k) / (x + 1.0f);
  else
    y = __builtin_logf(__builtin_fabsf(x) + 1.0f) * __builtin_sqrtf(__builtin_fabsf(x));
  if (sel[i + 1] & 1)
    y = __builtin_sinf(y);
  out[i] = y * __builtin_exp2f(k);
}

// Scalar math (uniform arguments): SALU float on gfx12, VALU with SGPR
// operands on gfx11, then per-lane math reading the results.
__kernel void uniform_math(__global float *out, __global const float *in,
                           float a, float b, int n) {
  uint i = GID;
  float s = a * b + (float)n;
  float t = __builtin_sqrtf(s) + __builtin_logf(a + 2.0f);
  float x = in[i];
  for (int k = 0; k < n; ++k) {
    x = x * t + __builtin_expf(-x * (float)k);
    t = t * 0.5f + b;
  }
  out[i] = x / t;
}

// Reductions through LDS between the math: DS instructions wait for every
// VALU result, and the barrier splits the blocks.
__kernel void lds_math(__global float *out, __global const float *in,
                       __local float *tile) {
  uint lane = __builtin_amdgcn_workitem_id_x();
  uint i = GID;
  float x = __builtin_logf(in[i] + 1.0f);
  tile[lane] = __builtin_expf(x) * __builtin_sqrtf(x + 4.0f);
  BARRIER();
  float y = tile[(lane + 1) & 255] / (tile[lane] + 1.0f);
  BARRIER();
  tile[lane] = __builtin_sinf(y);
  BARRIER();
  out[i] = __builtin_powf(tile[(lane + 7) & 255], y);
}
