// Register pressure that makes -O0 code spill: many uniform values (kernel
// arguments, loop-invariant sums) live across a loop and a call, so LLVM
// parks SGPRs in VGPR lanes (v_writelane_b32 / v_readlane_b32) and VGPRs in
// scratch. The corpus sample (tests/corpus) builds it at -O0 and -O2.

__attribute__((noinline)) static float mix4(float a, float b, float c, float d) {
  return a * b - c * d;
}

__kernel void spill_uniforms(__global float *out, __global const float *in,
                             float a0, float a1, float a2, float a3, float a4,
                             float a5, float a6, float a7, int n0, int n1,
                             int n2, int n3, int n4, int n5, int n6, int n7) {
  uint i = get_global_id(0);
  float acc0 = 0, acc1 = 0, acc2 = 0, acc3 = 0, acc4 = 0, acc5 = 0, acc6 = 0, acc7 = 0;
  for (int k = 0; k < n0; ++k) {
    float x = in[i + k];
    acc0 += x * a0 + n1; acc1 += x * a1 - n2; acc2 += x * a2 + n3;
    acc3 += x * a3 - n4; acc4 += x * a4 + n5; acc5 += x * a5 - n6;
    acc6 += x * a6 + n7; acc7 += mix4(x, a7, acc0, acc1);
  }
  out[i] = acc0 + acc1 * acc2 - acc3 * acc4 + acc5 * acc6 - acc7;
}

// Sixteen live vectors: VGPR pressure and, at -O0, scratch spills.
__kernel void spill_vectors(__global float4 *out, __global const float4 *in, int n) {
  uint i = get_global_id(0);
  float4 r[16];
  for (int k = 0; k < 16; ++k)
    r[k] = in[i * 16 + k];
  for (int s = 0; s < n; ++s)
    for (int k = 0; k < 16; ++k)
      r[k] = r[k] * r[(k + s) & 15] + r[(k + 7) & 15];
  float4 sum = 0;
  for (int k = 0; k < 16; ++k)
    sum += r[k];
  out[i] = sum;
}
