// Math built-ins: with -nogpulib they stay calls of undefined functions, with
// Debian's rocm-device-libs they become the library's code (calls into it at
// -O0). The corpus sample builds both.

__kernel void libm_float(__global float *out, __global const float *in, float p) {
  uint i = get_global_id(0);
  float x = in[i];
  out[i] = sin(x) + cos(x) * pow(x, p) - exp(x) / log(x + 2.0f) + sqrt(x) +
           atan2(x, p) + tanh(x) + fmod(x, p);
}

__kernel void libm_double(__global double *out, __global const double *in, double p) {
  uint i = get_global_id(0);
  double x = in[i];
  out[i] = sin(x) * pow(x, p) + exp2(x) - log10(x + 1.0) + cbrt(x) + erf(x);
}

// A math call inside a divergent loop: the call's clobbers meet the
// loop's exec mask.
__kernel void libm_loop(__global float *out, __global const float *in, int n) {
  uint i = get_global_id(0);
  float acc = 0;
  for (int k = 0; k < n + (int)(i & 7); ++k)
    acc += sinpi(in[i + k]) * rsqrt(fabs(acc) + 1.0f);
  out[i] = acc;
}
