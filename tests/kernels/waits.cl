// Kernels shaped for the wait-count rules (tests/waitcnt): each one puts a
// different kind of outstanding memory operation in front of its first use.
//   - LDS written, s_barrier, LDS read back at another lane's address;
//   - a software-pipelined loop: the load for iteration j+1 is issued at the
//     bottom of iteration j and consumed after the back edge;
//   - an if/else diamond with two loads on one side and one on the other,
//     joined before the values are used;
//   - uniform loads (a __constant table, kernel arguments) through SMEM whose
//     results form the addresses of vector loads;
//   - global atomics with a return value (used) and without (result unused);
//   - stores, 64-bit loads (long, double), and a helper that stays a call.
// LDS comes in as a __local kernel argument (see memory.cl for why); the
// barriers order LDS as barrier(CLK_LOCAL_MEM_FENCE) does (lds_barrier.h).
// Built for every target with:
//   clang -x cl -cl-std=CL2.0 --target=amdgcn-amd-amdhsa -mcpu=<gfx> -nogpulib -O0|-O2 -S

#include "lds_barrier.h"

#define TILE 64

__kernel void waits_lds_barrier(__global float *out, __global const float *in,
                                __local float *tile) {
  uint t = __builtin_amdgcn_workitem_id_x();
  uint g = __builtin_amdgcn_workgroup_id_x() * TILE + t;
  tile[t] = in[g] * 2.0f;
  tile[t + TILE] = in[g + 4096];
  LDS_BARRIER();
  float a = tile[(t + 1) % TILE];
  float b = tile[TILE + (t + 7) % TILE];
  LDS_BARRIER();
  tile[t] = a - b;
  LDS_BARRIER();
  out[g] = tile[TILE - 1 - t] + a * b;
}

// The next element is loaded at the bottom of the body, so the value the
// loop head reads comes from the previous iteration (or the preheader).
__kernel void waits_pipelined_loop(__global float *out, __global const float *in,
                                   int n) {
  uint i = __builtin_amdgcn_workgroup_id_x() * TILE + __builtin_amdgcn_workitem_id_x();
  float acc = 0.0f;
  float cur = in[i];
  for (int j = 1; j <= n; ++j) {
    acc = acc * 0.5f + cur;
    cur = in[i + j * TILE];
  }
  out[i] = acc + cur;
}

// Two loads on the then side, one on the else side, both read after the join.
__kernel void waits_diamond(__global int *out, __global const int *a,
                            __global const int *b, __global const long *c) {
  uint i = __builtin_amdgcn_workgroup_id_x() * TILE + __builtin_amdgcn_workitem_id_x();
  int x, y;
  if (a[i] & 1) {
    x = b[i];
    y = (int)c[i];
  } else {
    x = b[i + 1];
    y = x + 7;
  }
  out[i] = x * y;
}

// SMEM results feed VMEM addresses: an index table in __constant memory and
// a base offset from the kernel arguments; 64-bit loads of long and double.
__kernel void waits_scalar_addr(__global double *out, __global const double *d,
                                __global const long *l, __constant int *idx,
                                int k) {
  uint i = __builtin_amdgcn_workgroup_id_x() * TILE + __builtin_amdgcn_workitem_id_x();
  int i0 = idx[0], i1 = idx[k & 7], i2 = idx[8 + (k & 3)];
  double x = d[i + i0];
  long y = l[i + i1];
  double z = d[i + i2 + k];
  out[i] = x * (double)y + z;
}

// Atomics: with a used return (a load that writes a VGPR) and without (a
// store-like operation), mixed with plain stores to the same buffer.
__kernel void waits_atomics(__global int *out, __global int *ctr,
                            __global const int *in) {
  uint i = __builtin_amdgcn_workgroup_id_x() * TILE + __builtin_amdgcn_workitem_id_x();
  int v = in[i];
  __atomic_fetch_add(&ctr[0], v, __ATOMIC_RELAXED);                 // no return
  int slot = __atomic_fetch_add(&ctr[1], 1, __ATOMIC_RELAXED);      // return used
  out[slot & 1023] = v;
  __scoped_atomic_fetch_or(&ctr[2], v, __ATOMIC_RELAXED, __MEMORY_SCOPE_WRKGRP);
  int old = __scoped_atomic_fetch_max(&ctr[3], v, __ATOMIC_ACQUIRE,
                                      __MEMORY_SCOPE_DEVICE);
  out[1024 + (i & 1023)] = old + slot;
}

// A helper that stays a call: the caller has loads outstanding across it and
// reads the helper's result; the helper loads and stores itself.
__attribute__((noinline)) static long gather_pair(__global const long *p,
                                                   uint i) {
  return p[i] + p[i + 3];
}

__kernel void waits_call(__global long *out, __global const long *p,
                         __global const int *q) {
  uint i = __builtin_amdgcn_workgroup_id_x() * TILE + __builtin_amdgcn_workitem_id_x();
  int before = q[i];
  long s = gather_pair(p, i);
  out[i] = s + before + q[i + 1];
}
