/******************************************/
/* A small kernel in the shape of a Tensile */
/* gfx90a GEMM: rocisa long branches only.  */
/******************************************/
// The skip over the main loop when numIter == 0 is SCLongBranchScc0 with a
// two-way SLongBranch inside (both arms use the offset computed before the
// compare-and-branch); the persistent loop jumps back with SCLongBranchScc0
// around SLongBranchNegative; the store is skipped with SCLongBranchVccnz
// around SLongBranchPositive, whose target is a .set alias of a label.
.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
.text
.protected long_two_way
.globl long_two_way
.p2align 8
.type long_two_way,@function
.set sgprKernArgAddress, 0
.set sgprAddressD, 2
.set sgprLoopCounterL, 20
.set sgprPersistIter, 21
.set vgprValuC, 0
.set label_SkipStore, label_GW_End
long_two_way:
label_ASM_Start:  /// Main body of the asm kernel
  s_load_dword s[sgprLoopCounterL], s[sgprKernArgAddress:sgprKernArgAddress+1], 0x0
  s_load_dwordx2 s[sgprAddressD:sgprAddressD+1], s[sgprKernArgAddress:sgprKernArgAddress+1], 0x8
  s_mov_b32 s[sgprPersistIter], 2                    // persistent iterations
label_PersistentLoopStart:
  s_waitcnt lgkmcnt(0)                               // wait for kernel args
  v_mov_b32 v[vgprValuC+0], 0x0                      // initC
  s_cmp_eq_u32 s[sgprLoopCounterL], 0                // at last iteration?

/* after InitC, skip to end of prefetch last iter if numIter==0 */
  s_cbranch_scc0 label_NoBranch_10                   // Only branch on scc1
  s_getpc_B64 s[68:69]                               // addr of next instr
  s_add_i32 s70, label_PrefetchGlobalLastIterEnd, 0x4 // target branch offset
  s_cmp_ge_i32 s70, 0x0                              // check positive or negative
  s_cbranch_scc1 label_Positive_11                   // jump when positive
  s_abs_i32 s70, s70                                 // abs offset
  s_sub_u32 s68, s68, s70                            // sub target branch offset
  s_subb_u32 s69, s69, 0                             // sub high and carry
  s_setpc_b64 s[68:69]                               // branch to label_PrefetchGlobalLastIterEnd
label_Positive_11:
  s_add_u32 s68, s68, s70                            // add target branch offset
  s_addc_u32 s69, s69, 0                             // add high and carry
  s_setpc_b64 s[68:69]                               // branch to label_PrefetchGlobalLastIterEnd
label_NoBranch_10:

/******************************************/
/* Unrolled Loop(s) - Begin               */
/******************************************/
label_LoopBeginL:
  v_add_f32 v[vgprValuC+0], 1.0, v[vgprValuC+0]      // stands for the MFMA work
  s_sub_u32 s[sgprLoopCounterL], s[sgprLoopCounterL], 1 // dec counterL
  s_cmp_eq_i32 s[sgprLoopCounterL], 0x0              // counterL==0
  s_cbranch_scc0 label_LoopBeginL                    // restart LoopL
label_PrefetchGlobalLastIterEnd:
  v_add_f32 v[vgprValuC+0], 2.0, v[vgprValuC+0]      // last iteration
  s_sub_u32 s[sgprPersistIter], s[sgprPersistIter], 1 // persistent loop counter
  s_cmp_eq_u32 s[sgprPersistIter], 0                 // last tile?
  s_cbranch_scc1 label_NoBranch_KJ4XN2PQ7ZT1M0AB_0   // Only branch on scc0
  s_getpc_b64 s[72:73]                               // addr of next instr
  s_add_i32 s74, label_PersistentLoopStart, 0x4      // target branch offset
  s_abs_i32 s74, s74                                 // abs offset
  s_sub_u32 s72, s72, s74                            // sub target branch offset
  s_subb_u32 s73, s73, 0                             // sub high and carry
  s_setpc_b64 s[72:73]                               // branch to label_PersistentLoopStart
label_NoBranch_KJ4XN2PQ7ZT1M0AB_0:
  v_cmp_eq_u32 vcc, v0, 0                            // only lane 0 stores
  s_cbranch_vccz label_NoBranch_3                    // Only branch on vccnz
  s_getpc_b64 s[76:77]                               // addr of next instr
  s_add_i32 s78, label_SkipStore, 0x4                // target branch offset
  s_add_u32 s76, s76, s78                            // add target branch offset
  s_addc_u32 s77, s77, 0                             // add high and carry
  s_setpc_b64 s[76:77]                               // branch to label_SkipStore
label_NoBranch_3:
  v_mov_b32 v1, 0                                    // store offset
  global_store_dword v1, v[vgprValuC+0], s[sgprAddressD:sgprAddressD+1]
label_GW_End:
  s_endpgm                                           // Kernel End
.Lfunc_end0:
  .size long_two_way, .Lfunc_end0-long_two_way

.rodata
.p2align 6
.amdhsa_kernel long_two_way
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 80
  .amdhsa_accum_offset 4
.end_amdhsa_kernel
