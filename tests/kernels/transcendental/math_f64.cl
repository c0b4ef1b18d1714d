// Transcendental-heavy double and half kernels for the ALU-wait oracle
// (tests/lit/hazards/alu-waits-transcendental.test): f64 division and sqrt
// (v_div_scale_f64, v_rcp_f64, v_rsq_f64: LLVM 22 delays for these as
// TRANS), f64 multiplies with 38-cycle results, and f16 transcendentals.

#pragma OPENCL EXTENSION cl_khr_fp16 : enable

#define GID (__builtin_amdgcn_workgroup_id_x() * 256u + __builtin_amdgcn_workitem_id_x())

__kernel void div_sqrt_f64(__global double *out, __global const double *a,
                           __global const double *b) {
  uint i = GID;
  double x = a[i], y = b[i];
  double q = x / (y + 1.0);
  double r = __builtin_sqrt(q * q + x);
  out[i] = r / (q - 2.0) + 1.0 / r;
}

__kernel void newton_f64(__global double *out, __global const double *in, int iters) {
  uint i = GID;
  double x = in[i];
  double g = x * 0.5 + 1.0;
  for (int k = 0; k < iters; ++k)
    g = 0.5 * (g + x / g);
  out[i] = g + __builtin_sqrt(x);
}

__kernel void mixed_precision(__global float *out, __global const double *in,
                              __global const float *w) {
  uint i = GID;
  double d = in[i];
  float f = (float)(1.0 / d);
  float e = __builtin_expf(f) + w[i];
  double back = (double)e * d;
  out[i] = (float)__builtin_sqrt(back) + __builtin_logf(e);
}

__kernel void half_math(__global half *out, __global const half *in, half k) {
  uint i = GID;
  half x = in[i];
  half e = __builtin_exp2f16(x * k);
  half l = __builtin_log2f16(x + (half)1.0);
  half s = __builtin_sqrtf16(e + l);
  out[i] = s / (x + (half)2.0) + __builtin_sinf16(l);
}

__kernel void half_to_float(__global float *out, __global const half *in) {
  uint i = GID;
  float x = (float)in[i];
  float y = (float)in[i + 1];
  out[i] = __builtin_expf(x) / __builtin_logf(y + 2.0f) + __builtin_sqrtf(x * y);
}
