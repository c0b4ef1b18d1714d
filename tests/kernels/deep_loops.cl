// Loop nests five deep with divergent exits and a barrier in the middle
// level: many blocks, back edges and exec-mask joins for the CFG and the
// instrumentation's loop scopes.

__kernel void deep_nest(__global int *out, __global const int *in, int n) {
  __local int tile[64];
  uint lid = get_local_id(0);
  int acc = 0;
  for (int a = 0; a < n; ++a) {
    for (int b = 0; b < (a & 3) + 1; ++b) {
      tile[lid] = in[(a * 4 + b) * 64 + lid];
      barrier(CLK_LOCAL_MEM_FENCE);
      for (int c = 0; c < 4; ++c) {
        for (int d = 0; d < c + 1; ++d) {
          int v = tile[(lid + c + d) & 63];
          if (v < 0)
            break;
          for (int e = 0; e < (v & 3); ++e) {
            acc += v ^ e;
            if (acc > 1000000)
              goto done;
          }
        }
      }
      barrier(CLK_LOCAL_MEM_FENCE);
    }
  }
done:
  out[get_global_id(0)] = acc;
}

// A triangular nest with a data-dependent continue and while loop.
__kernel void triangular(__global float *out, __global const float *in, int n) {
  uint i = get_global_id(0);
  float s = 0;
  for (int r = 0; r < n; ++r) {
    for (int c = 0; c <= r; ++c) {
      float v = in[r * n + c];
      if (v == 0.0f)
        continue;
      int steps = 0;
      while (v > 1.0f && steps < 8) {
        v *= 0.5f;
        ++steps;
      }
      s += v * (float)steps;
    }
  }
  out[i] = s;
}
