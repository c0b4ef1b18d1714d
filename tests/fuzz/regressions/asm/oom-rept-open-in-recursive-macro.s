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
  .amdhsa_group_segment_fixe.equiv 4096 // lds bytes
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
v_lshlrev_b32 v[\vgprTmp+0], 0x2, v[\vgprOffset]    // 32 // accvgpr offset
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
.se+1], 0
.endm

tofu_gemm:
  s_load_dwordx2 s[sgprAddressD:sgprAddressD+1], vgprs
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
..globl tofu_gemm
.p2align 8
.type tofu_gemm,@function
.section .rodata,#alloc
.p2align 6
.amdhsa_kernel tofu_gemm
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_accum_offset 32 // accvgpr offset
  .amdhsa_next_fre// Srd config
  s_waitcnt lgkmcnt(0)
  s_mov_b32 s[sgprSrdD+0], s[sgprAddressD+0]
  s_mov_b32 s[sgpr*rdD+1], s[sgprAddressD+1]
  v_and_b32 v[vgprSerial], 0x3f, v0                   // serial = tid % 64
  ZERO_C 0
  ZERO_C 2
  ZERO_C 4
  GLOBAL_OFFSET_D vgprTmp, vgprSerial, vgprTmp+1
.if UseFastPath
  v_mov_b32 v[vgprValuA+0], 1.0
.else
  v_mov_b32 v[vgprValuA+0], 0
.endif
  s_mov_b32 s[sgprLoopCounter], 4
LoopBeginL:  // loop head, no label_ prefix
  v_mfma_f32_16x16x4f32 a[0:3], v[vgprValuA+0], v[vgprValuB+0], a[0:3]
  v_add_f32 v[vgprValuC+3], v[vgprValuC+3], v[vgprValuA+0] quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
  v_mul_f32 v[vgprValuC+2], v[vgprValuA+0], v[vgprValuB+0] dst_sel:WORD_1 dst_unused:UNUSED_PAD src0_sel:DWO  .symbol: tofu_gemm.kd
    .language: OpenCL C
    .language_version:
      - 2
      - 0
    .args:
      - .name: D
        .size: 8
        .offset: 0
        .value_kind: global_buffer
        .address_space: global
    .group_segment_fixed_size: 4096
    .kernarg_segment_align: 8
    .kernarg_segment_size: 8
    .max_flat_workgroup_size: 256
    .private_segment_fixed_size: 0 s_waitcnt lgkmcnt(0)
  s_mov_b32 s[sgprSrdD+0], s[sgprAddressD+0]
  s_mov_b32 s[sgpr*rdD+1], s[sgprAddressD+1]
  v_and_b32 v[vgprSerial], 0x3f, v0                   // serial = tid % 64
  ZERO_C 0
  ZERO_C 2
  ZERO_C 4
  GLOBAL_OFFSET_D vgprTmp, vgprSerial, vgprTmp+1
.if UseFastPath
  v_mov_b32 v[vgprValuA+0], 1.0
.else
  v_mov_b32 v[vgprValuA+0], 0
.endif
  s_mov_b32 s[sgprLoopCounter], 4
LoopBeginL:  // loop head, no label_ prefix
  v_mfma_f32_16x16x4f32 a[0:3], v[vgprValuA+0], v[vgprValuB+0], a[0:3]
  v_add_f32 v[vgprValuC+3], v[vgprValuC+3], v[vgprValuA+0] quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
  v_mul_f32 v[vgprValuC+2], v[vgprValuA+0], v[vgprValuB+0] dst_sel:WORD_1 dst_unused:UNUSED_PAD src0_sel:DWO  .symbol: tofu_gemm.kd
    .language: OpenCL C
    .language_version:
      - 2
      - 0
    .args:
      - .name: D
        .size: 8
        .offset: 0
        .value_kind: global_buffer
        .address_space: global
    .group_segment_fixed_size: 4096
    .kernarg_segment_align: 8
    .kernarg_segment_size: 8
    .max_flat_workgroup_size: 256
    .private_segment_fixed_size: 0
    .sgpr_count: 40
    .sgpr_spill_count: 0
    .vgpr_count: 64
    .vgpr_spill_count: 0
    .agpr_count: 4
    .wavefront_set UseFastPath, 1

/* Global Offset D */
.macro GLOBALment_fixed_size: 0
    .sgpr_count: 40
    .sgpr_spill_count: 0
    .vgpr_count: 64
    .vgpr_spill_count: 0
    .agpr_count: 4
    .wavefront_size: 64
...
.e+0], v[\vgprAddr+0] ; accumulate
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
  s_mov_b32 s[sgpr*rdD+1], s[sgprAddressD+1]
  v_and_b32 v[vgprSerial], 0x3f, v0                   // serial = tid % 64
  ZERO_C 0
  ZERO_C 2
  ZERO_C 4
  GLOBAL_OFFSET_D vgprTmp, vgprSerial, vgprTmp+1
.if UseFastPath
  v_mov_b32 v[vgprValuA+0], 1.0
.else
  v_mov_b32 v[vgprValuA+0], 0
.endif
  s_mov_b32 s[sgprLoopCounter], 4
LoopBeginL:  // loop head, no label_ prefix
  v_mfma_f32_16x16x4f32 a[0:3], v[vgprValuA+0],~	_target "fx942"
.debug_line.dworp.sgpr r, 1, t 0
x4f"!".rept +200000
.irp r, 1, 2,2s_ntaop 1200000
u_gemm
    .symbol: tofu_gemm.kd
    .language: OpenCL C
    .language_version:
  or_b32 s5, exec_lo, s5
	s_c/ranch_execz .LBB0_10
; %bb.9:
	v_dual_mov_b32 v3, 0 :: v_dual_mov_b32 v4, s4
	s_wait_kmcnt 0x0
	global_a v[vgprValuB+0], a[0:3]
  v_add_f32 v[vgprValuC+3], v[vgprValuC+3], v[vgprValuA+0] quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
  v_mul_f32 v[vgprValuC+2], v[vgprValuA+0], v[vgprValuB+0] dst_sel:WORD_1 dst_unused:UNUSED_PAD src0_sel:DWO  .symbol: tofu_gemm.kd
    .language: OpenCL C
    .language_version:
      -bl tofu_gemm
.p2align 8
.type tofu_gemm,@function
.section .rodata,#alloc
.p2align 6
.amdhsa_kernel tofu_gemm
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
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
.macro GLOBALment_fixed_size: 0
    .sgpr_count: 40
    .sgpr_spill_count: 0
    .vgpr_count: 64
    .vgpr_spill_count: 0
    .agpr_count: 4
    .wavefront_size: 64
...
.e+0], v[\vgprAddr+0] ; accumulate
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
  s_mov_b32 s[sgpr*rdD+1], s[sgprAddressD+1]
  v_and_b32 v[vgprSerial], 0x3f, v0                   // serial = tid % 64
  ZERO_C 0
  ZERO_C 2
  ZERO_C 4
  GLOBAL_OFFSET_D vgprTmp, vgprSerial, vgprTmp+1
.if UseFastPath
  v_mov_b32 v[vgprValuA+0], 1.0
.else
  v_mov_b32 v[vgprValuA+0], 0
.endif
  s_mov_b32 s[sgprLoopCounter], 4
LoopBeginL:  // loop head, no label_ prefix
  v_mfma_f32_16x16x4f32 a[0:3], v[vgprValuA+0], v[vgprValuB+0], a[0:3]
  v_add_f32 v[vgprValuC+3], v[vgprValuC+3], v[vgprValuA+0] quandm

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
  s_mov_b32 s[sgpr*rdD+1], s[sgprAddressD+1]
  v_and_b32 v[vgprSerial], 0x3f, v0                   // serial = tid % 64
  ZERO_C 0
  ZERO_C 2
  ZERO_C 4
  GLOBAL_OFFSET_D vgprTmp, vgprSerial, vgprTmp+1
.if UseFastPath
  v_mov_b32 v[vgprValuA+0], 1.0
.else
  v_mov_b32 v[vgprValuA+0], 0
.endif
  s_mov_b32 s[sgprLoopCounter], 4
LoopBeginL:  // loop head, no label_ prefix
  v_mfma_f32_16x16x4f32 a[0:3], v[vgprValuA+0], v[vgprValuB+0], a[0:3]
  v_add_f32 v[vgprValuC+3], v[vgprValuC+3], v[vgprValuA+0s[sgprKernArgAddress:sgprKernArgAddress+1], 0x0 // kernarg
  s_mov_b32 s[sgprSrdD+2], 0x80000000                 // num records
  s_mov_b32 s[sgprSrdD+3], 0x00020000                 // Srd config
  s_ scale by 4 bytes
v_add_u32 v[\vgprAddr+0], v[\vgprTmp+tomic_min_i32 v3, v4, s[0:1] offset:8
.LBB t 0
x4f"!".rept +200000
.irp r, 1, 2,2s_ntaop 1200000
u_gemm
    .symbol: tofu_gemm.kd
    .language: OpenCL C
    .language_version:
 0], v[\vgprAddr+0] ; accumulate
.endm

.macro ,ERO_C first:req
  v_mov_b32 v[vgprValuC+\first], 0
  v_     - 2
      - 0
    .args:
      -elay_alu instid0(VALU_DEP_1)
	v_cmpx_eq_u32_e32 0, v3
	s_xor_b32 s5, exec_lo, s5
	s_c/ranch_exmov_b32 v[vgprValuC+\first+1], 0
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
  GLOBAL_OFFSET_D vgprTmp- vgprSerial, vgprTmp+1
.if UseFastPath
  v_mov_b32 v[vgprValuA+0], 1.0
.else
  v_mov_b32 v[vgprValuA+0], 0
.endif
  s_mov_b32 s[sgp	.amdgcn_target "amdgcn-amd-amdhsa--gfx1250"
	.amdhsa_code_object_version 6
	.text
	.p2align	2                               ; -- Begin function scale
	.type	scale,@function
scale:                                  ; @scale
; %bb.0:
	s_wait_loadcnt_dscnt 0x0
	s_wait_kmcnt 0x0
	v_ashrrev_i32_e32 v2, 3, v0
	s_delay_alu instid0(VALU_DEP_1)
	v_mad_u32 v0, v1, v0, v2
	s_set_pc_i64 s[30:31]
.Lfunc_end0:
	.size	scale, .Lfunc_end0-scale
                                        ; -- End function
	.set .Lscale.num_vgpr, 3
	.set .Lscale.num_agpr, 0
	.rLoopCounter], 4
LoopBeginL:  set .Lscale.numbered_sgpr, 32
	.set .Lscale.num_named_barrier, 0
	.set .Lscale.private_seg_size, 0
	.set .Lscale.uses_vcc, 0
	.set .Lscale.uses_flat_scratch, 0
	.set .Lscale.has_dyn_sized_stack, 0
	.set .Lscale.has_recursion, 0
	.set .Lscale.has_indirect_call, 0
	.section	.AMDGPU.csdata,"",@progbits
; Function info:
; codeLenInByte = 28
; TotalNumSgprs: 32
; NumVgprs: 3
; Scratc// loop head, no label_ prefix
  v_mfma_f32_16x16x4f32 a[0:3], v[vgprValuA+0], v[vgprValuB+0], 