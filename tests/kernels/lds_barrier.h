// A workgroup barrier that also orders LDS, as OpenCL's
// barrier(CLK_LOCAL_MEM_FENCE) does: the release fence makes this
// work-item's LDS writes visible before the barrier, the acquire fence the
// others' after it (s_barrier alone does neither; LLVM then places the LDS
// waits).
#define LDS_BARRIER()                                                          \
  do {                                                                         \
    __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");                     \
    __builtin_amdgcn_s_barrier();                                              \
    __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");                     \
  } while (0)
