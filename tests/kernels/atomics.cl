// Atomic read-modify-write operations on global and LDS memory, with
// relaxed and sequentially consistent orderings at several scopes.
// Built for every target with:
//   clang -x cl -cl-std=CL2.0 --target=amdgcn-amd-amdhsa -mcpu=<gfx> -nogpulib -O0|-O2 -S

#include "lds_barrier.h"

__kernel void atomics_global(__global int *counters, __global uint *bits,
                             __global const int *in) {
  uint i = __builtin_amdgcn_workgroup_id_x() * 64 + __builtin_amdgcn_workitem_id_x();
  int v = in[i];
  __atomic_fetch_add(&counters[0], 1, __ATOMIC_RELAXED);
  __scoped_atomic_fetch_max(&counters[1], v, __ATOMIC_SEQ_CST,
                            __MEMORY_SCOPE_DEVICE);
  __scoped_atomic_fetch_min(&counters[2], v, __ATOMIC_RELAXED,
                            __MEMORY_SCOPE_WRKGRP);
  __atomic_fetch_or(&bits[i / 32], 1u << (i % 32), __ATOMIC_RELAXED);
  int old = __atomic_exchange_n(&counters[3], v, __ATOMIC_ACQ_REL);
  int expected = old;
  __atomic_compare_exchange_n(&counters[4], &expected, v, 0, __ATOMIC_SEQ_CST,
                              __ATOMIC_RELAXED);
  counters[5 + i % 8] = expected;
}

// LDS is a __local kernel argument (see memory.cl for why).
__kernel void atomics_lds(__global int *out, __local int *hist) {
  uint t = __builtin_amdgcn_workitem_id_x();
  if (t < 16)
    hist[t] = 0;
  LDS_BARRIER();
  __scoped_atomic_fetch_add(&hist[t % 16], (int)t, __ATOMIC_RELAXED,
                            __MEMORY_SCOPE_WRKGRP);
  LDS_BARRIER();
  if (t < 16)
    __atomic_fetch_add(&out[t], hist[t], __ATOMIC_RELAXED);
}
