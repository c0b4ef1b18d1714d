// Loops: a counted loop, a data-dependent while loop, and a loop whose body
// is long enough that -mllvm -amdgpu-s-branch-bits=5 makes LLVM relax its
// branches into s_getpc_b64 / .Lpost_getpcN / s_setpc_b64 (gfx1250:
// s_add_pc_i64 .LBB-.Lpost_addpcN).
// Built for every target with:
//   clang -x cl -cl-std=CL2.0 --target=amdgcn-amd-amdhsa -mcpu=<gfx> -nogpulib -O0|-O2 -S

__kernel void loops_counted(__global float *out, __global const float *in,
                            int n) {
  uint i = __builtin_amdgcn_workgroup_id_x() * 64 + __builtin_amdgcn_workitem_id_x();
  float acc = 0.0f;
  for (int j = 0; j < n; ++j)
    acc += in[i + j] * (float)(j + 1);
  out[i] = acc;
}

__kernel void loops_while(__global int *out, __global const int *in) {
  uint i = __builtin_amdgcn_workgroup_id_x() * 64 + __builtin_amdgcn_workitem_id_x();
  int x = in[i];
  int steps = 0;
  while (x != 1 && steps < 1000) {
    x = (x & 1) ? 3 * x + 1 : x >> 1;
    ++steps;
  }
  out[i] = steps;
}

// The uniform trip count keeps the loop on the scalar branch path; the body
// is a long chain of dependent ALU work that does not vectorize away.
__kernel void loops_long(__global uint *out, __global const uint *in, int n) {
  uint i = __builtin_amdgcn_workgroup_id_x() * 64 + __builtin_amdgcn_workitem_id_x();
  uint a = in[i], b = in[i + 64], c = in[i + 128], d = in[i + 192];
  for (int j = 0; j < n; ++j) {
    a += b ^ (c << 3);
    b = (b * 0x9e3779b1u) ^ (d >> 5);
    c += a * 7u + (d ^ 0x5bd1e995u);
    d = (d << 11) | (a >> 21);
    a ^= c * 13u + (b >> 7);
    b += d * 31u ^ (c << 9);
    c ^= (a + b) * 0x85ebca6bu;
    d += (c >> 13) ^ (a * 5u);
    a = (a << 7) | (a >> 25);
    b ^= (d + a) * 0xc2b2ae35u;
  }
  out[i] = a ^ b ^ c ^ d;
}
