// Matrix kernels for the hazard rules (tests/hazards): chains of MFMA (gfx908,
// gfx90a, gfx942, gfx950) and WMMA (gfx11, gfx12, gfx1250) whose results feed
// the next matrix op as A/B or C and are then read by VALU and stored, so
// LLVM's hazard recognizer places its matrix s_nop / v_nop waits. Other
// targets get a plain kernel. Built like the other kernels:
//   clang -x cl -cl-std=CL2.0 --target=amdgcn-amd-amdhsa -mcpu=<gfx> -nogpulib -O0|-O2 -S

typedef float v4f __attribute__((ext_vector_type(4)));
typedef float v8f __attribute__((ext_vector_type(8)));
typedef float v16f __attribute__((ext_vector_type(16)));
typedef double v4d __attribute__((ext_vector_type(4)));
typedef half v4h __attribute__((ext_vector_type(4)));
typedef half v8h __attribute__((ext_vector_type(8)));
typedef half v16h __attribute__((ext_vector_type(16)));
typedef int v4i __attribute__((ext_vector_type(4)));

#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#if defined(__gfx908__) || defined(__gfx90a__) || defined(__gfx942__) || defined(__gfx950__)
#define HAS_MFMA 1
#endif

__kernel void matrix_f32_chain(__global v4f *out, __global const float *a, __global const float *b,
                               int n) {
  uint t = __builtin_amdgcn_workitem_id_x();
  v4f acc = 0;
#ifdef HAS_MFMA
  for (int k = 0; k < n; ++k) {
    float x = a[k * 64 + t], y = b[k * 64 + t];
    acc = __builtin_amdgcn_mfma_f32_4x4x1f32(x, y, acc, 0, 0, 0);
    acc = __builtin_amdgcn_mfma_f32_4x4x1f32(acc.x, acc.y, acc, 0, 0, 0);
  }
  acc *= 0.5f;
#else
  for (int k = 0; k < n; ++k)
    acc += a[k * 64 + t] * b[k * 64 + t];
#endif
  out[t] = acc;
}

__kernel void matrix_wide(__global v16f *out, __global const v4h *a, __global const v4h *b) {
  uint t = __builtin_amdgcn_workitem_id_x();
  v16f acc = 0;
#ifdef HAS_MFMA
  v4h x = a[t], y = b[t];
  acc = __builtin_amdgcn_mfma_f32_32x32x8f16(x, y, acc, 0, 0, 0);
  acc = __builtin_amdgcn_mfma_f32_32x32x8f16(x, y, acc, 0, 0, 0);
  v4f part = __builtin_amdgcn_mfma_f32_16x16x16f16(x, y, acc.s0123, 0, 0, 0);
  acc.s0123 = __builtin_amdgcn_mfma_f32_16x16x16f16(x, y, part, 0, 0, 0);
  acc.s4 += part.x;
#endif
  out[t] = acc + 1.0f;
}

__kernel void matrix_int(__global v4i *out, __global const int *a) {
  uint t = __builtin_amdgcn_workitem_id_x();
  v4i acc = 0;
#ifdef HAS_MFMA
  acc = __builtin_amdgcn_mfma_i32_4x4x4i8(a[t], a[t + 64], acc, 0, 0, 0);
  acc = __builtin_amdgcn_mfma_i32_4x4x4i8(acc.x, acc.y, acc, 0, 0, 0);
#endif
  out[t] = acc;
}

#if defined(__gfx90a__) || defined(__gfx942__) || defined(__gfx950__)
__kernel void matrix_f64(__global v4d *out, __global double *o1, __global const double *a) {
  uint t = __builtin_amdgcn_workitem_id_x();
  v4d acc = 0;
  acc = __builtin_amdgcn_mfma_f64_16x16x4f64(a[t], a[t + 64], acc, 0, 0, 0);
  acc = __builtin_amdgcn_mfma_f64_16x16x4f64(acc.x, acc.y, acc, 0, 0, 0);
  double d = __builtin_amdgcn_mfma_f64_4x4x4f64(a[t], acc.z, 0.0, 0, 0, 0);
  d = __builtin_amdgcn_mfma_f64_4x4x4f64(d, d, d, 0, 0, 0);
  o1[t] = fma(d, acc.w, 1.0);
  out[t] = acc;
}
#endif

#if defined(__gfx1100__)
__kernel void matrix_wmma(__global v8f *out, __global const v16h *a, __global const v16h *b) {
  uint t = __builtin_amdgcn_workitem_id_x();
  v8f acc = 0;
  v16h x = a[t], y = b[t];
  acc = __builtin_amdgcn_wmma_f32_16x16x16_f16_w32(x, y, acc);
  acc = __builtin_amdgcn_wmma_f32_16x16x16_f16_w32(x, y, acc);
  v16h z = __builtin_convertvector(acc.s0123456701234567, v16h);
  acc = __builtin_amdgcn_wmma_f32_16x16x16_f16_w32(z, y, acc);
  out[t] = acc * 2.0f;
}
#elif defined(__gfx1200__) || defined(__gfx1201__)
__kernel void matrix_wmma(__global v8f *out, __global const v8h *a, __global const v8h *b) {
  uint t = __builtin_amdgcn_workitem_id_x();
  v8f acc = 0;
  v8h x = a[t], y = b[t];
  acc = __builtin_amdgcn_wmma_f32_16x16x16_f16_w32_gfx12(x, y, acc);
  acc = __builtin_amdgcn_wmma_f32_16x16x16_f16_w32_gfx12(x, y, acc);
  v8h z = __builtin_convertvector(acc, v8h);
  acc = __builtin_amdgcn_wmma_f32_16x16x16_f16_w32_gfx12(z, y, acc);
  out[t] = acc * 2.0f;
}
#elif defined(__gfx1250__)
__kernel void matrix_wmma(__global v8f *out, __global const v16h *a, __global const v16h *b) {
  uint t = __builtin_amdgcn_workitem_id_x();
  v8f acc = 0;
  v16h x = a[t], y = b[t];
  acc = __builtin_amdgcn_wmma_f32_16x16x32_f16(false, x, false, y, (short)0, acc, false, false);
  acc = __builtin_amdgcn_wmma_f32_16x16x32_f16(false, x, false, y, (short)0, acc, false, false);
  v16h z = __builtin_convertvector(acc.s0123456701234567, v16h);
  acc = __builtin_amdgcn_wmma_f32_16x16x32_f16(false, z, false, y, (short)0, acc, false, false);
  out[t] = acc * 2.0f;
}
#endif
