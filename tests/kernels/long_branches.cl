// Many branches over long bodies. Built with -mllvm -amdgpu-s-branch-bits=5
// (the sample's -longbr variants) nearly every branch is out of range and
// becomes a long branch (s_getpc_b64, s_add_u32/s_addc_u32, s_setpc_b64):
// dozens per kernel, inside loops and across calls.

__attribute__((noinline)) static float step(float x, int k) {
  return x * (float)k + 0.5f;
}

__kernel void branch_ladder(__global float *out, __global const float *in, int sel, int n) {
  uint i = get_global_id(0);
  float x = in[i];
  for (int k = 0; k < n; ++k) {
    switch ((sel + k) & 7) {
    case 0: x = x * 1.5f + in[i + 1]; break;
    case 1: x = x - in[i + 2] * 0.25f; break;
    case 2: x = step(x, k); break;
    case 3: x = x * x - 1.0f; break;
    case 4: if (x > 10.0f) x = sqrt(x); else x += 3.0f; break;
    case 5: x = fmax(x, in[i + 3]); break;
    case 6: x = x / (1.0f + fabs(x)); break;
    default: x = -x; break;
    }
    if (x > 1e6f)
      break;
  }
  out[i] = x;
}

// Divergent if/else chains, each arm long enough to need a long branch.
__kernel void branch_chain(__global int *out, __global const int *in) {
  uint i = get_global_id(0);
  int v = in[i], r = 0;
  if (v & 1) { r += in[i + 1] * 3; r ^= r >> 5; r += in[i + 2]; }
  else { r -= in[i + 3]; r *= 7; r += in[i + 4] >> 1; }
  if (v & 2) { r += in[i + 5] * 11; r ^= r << 3; r -= in[i + 6]; }
  else { r += in[i + 7] ^ r; r *= 13; }
  if (v & 4) { for (int k = 0; k < (v >> 8); ++k) r += in[i + k] * k; }
  else { r = r * r + v; }
  out[i] = r;
}
