// 64-bit arithmetic: adds, subtracts, multiplies and shifts of ulong values
// and 64-bit address computations, which become carry chains
// (v_add_co_u32 + v_addc_co_u32, s_add_u32 + s_addc_u32) whose carry lives in
// an SGPR pair or VCC. At -O0 on gfx940+ the carry passes through copies.

__kernel void carry_sum(__global ulong *out, __global const ulong *in, ulong k, int n) {
  size_t i = get_global_id(0);
  ulong acc = k;
  for (int j = 0; j < n; ++j) {
    ulong x = in[i + (size_t)j * 1024];
    acc += x;
    acc -= x >> 7;
    acc ^= acc * 0x9e3779b97f4a7c15UL;
  }
  out[i] = acc;
}

// A 128-bit add done by hand: the carry out of the low half feeds the high.
__kernel void carry_wide(__global ulong2 *out, __global const ulong2 *a,
                         __global const ulong2 *b) {
  size_t i = get_global_id(0);
  ulong2 x = a[i], y = b[i];
  ulong lo = x.x + y.x;
  ulong hi = x.y + y.y + (lo < x.x);
  out[i] = (ulong2)(lo, hi);
}

// Uniform 64-bit pointer arithmetic on the scalar unit.
__kernel void carry_scalar(__global int *out, __global const int *base, long stride, int n) {
  __global const int *p = base;
  int acc = 0;
  for (int j = 0; j < n; ++j) {
    p += stride;
    acc += p[get_local_id(0)];
  }
  out[get_global_id(0)] = acc;
}
