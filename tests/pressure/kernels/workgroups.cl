// Kernels whose occupancy LDS and the workgroup size limit, for the
// occupancy oracle (tests/pressure/occupancy_oracle.py): clang-22's
// `; Occupancy:` figure counts both (docs/pressure.md, LDS and workgroup
// size). A static __local array sets .group_segment_fixed_size,
// reqd_work_group_size the one size the kernel runs with (clang's default
// otherwise: 1 to 256 work-items). Builtins, not library calls (-nogpulib):
// a call of an unknown function makes LLVM assume every SGPR.

#define LDS_KERNEL(name, ints, attrs)                                        \
  __kernel attrs void name(__global int *out) {                              \
    __local int tile[ints];                                                  \
    uint lid = __builtin_amdgcn_workitem_id_x();                             \
    for (uint i = lid; i < ints; i += 64)                                    \
      tile[i] = i;                                                           \
    __builtin_amdgcn_s_barrier();                                            \
    out[lid] = tile[(lid * 7) % ints];                                       \
  }

LDS_KERNEL(lds16k_wg64, 4096, __attribute__((reqd_work_group_size(64, 1, 1))))
LDS_KERNEL(lds20000_wg96, 5000, __attribute__((reqd_work_group_size(96, 1, 1))))
LDS_KERNEL(lds8k_default, 2048, )
LDS_KERNEL(lds32k_wg256, 8192, __attribute__((reqd_work_group_size(256, 1, 1))))
LDS_KERNEL(lds60000_default, 15000, )
LDS_KERNEL(lds4k_wg1024, 1024, __attribute__((reqd_work_group_size(1024, 1, 1))))

// No LDS: the workgroup size alone (16 barriers on gfx9 and gfx1250).
__kernel __attribute__((reqd_work_group_size(128, 1, 1))) void wg128(__global int *out) {
  out[__builtin_amdgcn_workitem_id_x()] = __builtin_amdgcn_workgroup_id_x();
}
__kernel __attribute__((reqd_work_group_size(16, 4, 1))) void wg16x4(__global int *out) {
  out[__builtin_amdgcn_workitem_id_x()] = __builtin_amdgcn_workitem_id_y();
}
