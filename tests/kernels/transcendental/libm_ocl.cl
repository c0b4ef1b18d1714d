// OpenCL's math built-ins for the ALU-wait oracle
// (tests/lit/hazards/alu-waits-transcendental.test). With -nogpulib they
// are calls of undefined functions; with the device libraries
// (hazard_oracle.py --device-libs) they become the library's inline code:
// long chains of v_exp/v_log/v_rcp/v_sqrt, range reduction and fix-ups,
// the heaviest transcendental code clang writes.

#pragma OPENCL EXTENSION cl_khr_fp16 : enable

#define GID (__builtin_amdgcn_workgroup_id_x() * 256u + __builtin_amdgcn_workitem_id_x())

__kernel void pow_exp_log(__global float *out, __global const float *in, float p) {
  uint i = GID;
  float x = in[i];
  out[i] = pow(x, p) + exp(x) * log(x + 2.0f) - exp2(p * x) / log10(fabs(x) + 1.0f);
}

__kernel void trig(__global float *out, __global const float *in) {
  uint i = GID;
  float x = in[i];
  out[i] = sin(x) * cos(2.0f * x) + tan(x * 0.5f) - atan2(x, 1.5f) + sinpi(x) * rsqrt(x * x + 1.0f);
}

__kernel void activations(__global float *out, __global const float *in, uint n) {
  uint i = GID;
  if (i >= n)
    return;
  float x = in[i];
  float sig = 1.0f / (1.0f + exp(-x));
  float gelu = 0.5f * x * (1.0f + erf(x * 0.70710678f));
  out[i] = x * sig + gelu + tanh(x) + log1p(fabs(x)) + expm1(-fabs(x));
}

__kernel void double_math(__global double *out, __global const double *in, double p) {
  uint i = GID;
  double x = in[i];
  out[i] = pow(x, p) + exp(x) / (log(x + 2.0) + sqrt(x * x + 1.0)) - cbrt(x);
}

// The math inside a loop with a scalar trip count and a divergent exit.
__kernel void series(__global float *out, __global const float *in, int n) {
  uint i = GID;
  float x = in[i], acc = 0.0f;
  for (int k = 1; k <= n; ++k) {
    acc += pow(x, (float)k) / tgamma((float)k + 1.0f);
    if (acc > 1e30f)
      break;
  }
  out[i] = acc + exp(-x);
}

__kernel void half_math(__global half *out, __global const half *in) {
  uint i = GID;
  half x = in[i];
  out[i] = exp(x) + log(x + (half)1.0) * sqrt(x) - sin(x) / (x + (half)2.0);
}
