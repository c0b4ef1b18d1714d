	nd0:
	.size	k, .Lfunc_end0-k
	.amdgps_space:  global
        .name:           out
        .offset:         0
        .size:           8
  /******************************************/
/* Hand-wrdhsa_kernel tofu_gemm
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_accum_offset 32 // accvgpr offset
  .amdhsa_next_free_vgpr 64 // vgprs
  .amdhsa_next_free_sgpr 40 // sgprs
  .amdhsa_group_segment_fixed_size 4096 // lds bytes
  .amdhsa_private_segment_fixed_size 0
  .amdhsa_system_sgpr_workgroup_id_x 1
  .amdhsa_system_vgpr_worptr 1
  .amdhsa_accum_offset 32 // accvgpr offset
  .amdhsa_next_free_vgpr 64 // vgprs
  .amdhsa_next_free_sgpr 40 // sgprs
  .amdhsa_group_segment_fixed_size 4096 // lds bytes
  .amdhsa_private_segment_fixed_size 0
  .amdhsa_system_sgpr_workgroup_id_x 1
  .amdhsa_system_vgpr_workitem_id 0
.end_amdhsa_kernel
.text

/* Num VGPR=32 */
.set vgprValuC, 0
.set vgprValuA, 16
.set vgprValuB, 20
.set vgprSerial, 24
.set vgprTmp, 26
/* Num SGPR=40 */
.set sgprKernArgAddress, 0
.set sgprWorkGroup0, 2
.set sgprSrdD, 4
.set sgprLoopCounter, 8
.set sgprAddressD, 10
.set sgprTmp, 12
.set UseFastPath, 1

/* Global Offset D */
.macro GLOBAL_OFFSET_D vgprAddr:req vgprOffset:req vgprTmp:req
v_lshlrev_b32 v[\vgprTmp+0], 0x2, v[\vgprOffset]    // scale by 4 bytes
v_add_u32 v[\vgprAddr+0], v[\vgprTmp+0], v[\vgprAddr+0] ; accumulate
.endm

.macro ZERO_C first:req
  v_mov_b32 v[vgpkitem_id 0
.end_amdhsa_kernel
.text

/* Num VGPR=32 */
.set vgprValuC, 0
.set vgprValuA, 16
.set vgprValuB, 20
.set vgprSerial, 24
.set vgprTmp, 26
/* Num SGPR=40 */
.set sgprKernArgAddress, 0
.set sgprWorkGroup0, 2
.set sgprSrdD, 4
.set sgprLoopCounter, 8
.set sgprAddressD, 10
.set sgprTmp, 12
.set UseFastPath, 1

/* Global Offset D */
.macro GLOBAL_OFFSET_D vgprAddr:req vgprOffset:req vgprTmp:req
v_lshlrev_b32 v[\vgprTmp+0], 0x2, v[\vgprOffset]    // scale by 4 bytes
v_add_u32 v[\vgprAddr+0], v[\vgprTmp+0], v[\vgprAddr+0] ; accumulate
.endm

.macro ZERO_C first:req
  v_mov_b32 v[vgprValuC+\first], 0
  v_mov_b32 v[vgprValuC+\first+1], 0
.endm

tofu_gemm:
  s_load_dwordx2 s[sgprAddressD:sgprAddressD+1], s[sgprKernArgAddress:sgprKernArgAddress+1], 0x0 // kernarg
  s_mov_b32 s[sgprSrdD+2], 0x80000000                 // num records
  s_mov_b32 s[sgprSrdD+3], 0x00020000                 // Srd config
  s_waitcnt lgkmcnt(0)
  s_mov_b32 s[sgprSrdD+0], s[sgprAddressD+0]
  s_mov_b32 s[sgprSrdD+1], s[sgprAddressD+1]
  v_and_b32 v[vgprSerial], 0x3f, v0                   // serial = tid % 64
  ZERO_C 0
  ZERO_C 2
  ZERO_C 4
  GLOBAL_OFFSET_D vgprTmp, vgpAddr+0] ; accumulate
.endm

.macro ZERO_C first:req
  v_mov_b32 v[vgprValuC+\first], 0
  v_mov_b32 v[vgprValuC+\first+1], 0
.endm

tofu_gemm:
  s_load_dwordx2 s[sgprAddressD:sgprAddressD+1], s[sgprKernArgAddress:sgprKernArgAddress+1], 0x0 // kernarg
  s_mov_b32 s[sgprSrdD+2], 0x80000000                 // num records
  s_mov_b32 s[sgprSrdD+3], 0x00020000                 // Srd config
  s_waitcnt lgkmcnt(0)
  s_mov_b32 s[sgprSrdD+0], s[sgprAddressD+0]
  s_mov_b32 s[sgprSrdD+1], s[sgprAddressD+1]
  v_and_b32 v[vgprSerial], 0x3f, v0                   // serial = tid % 64
  ZERO_C     0
  