	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.amdhsa_code_object_version 6
	.text
	.hidden	scale_and_add                   ; -- Begin function scale_and_add
	.globl	scale_and_add
	.p2align	2
	.type	scale_and_add,@function
scale_and_add:                          ; @scale_and_add
; %bb.0:
	s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)
	v_fma_f32 v0, v0, v1, v2
	s_setpc_b64 s[30:31]
.Lfunc_end0:
	.size	scale_and_add, .Lfunc_end0-scale_and_add
                                        ; -- End function
	.set scale_and_add.num_vgpr, 3
	.set scale_and_add.num_agpr, 0
	.set scale_and_add.numbered_sgpr, 32
	.set scale_and_add.num_named_barrier, 0
	.set scale_and_add.private_seg_size, 0
	.set scale_and_add.uses_vcc, 0
	.set scale_and_add.uses_flat_scratch, 0
	.set scale_and_add.has_dyn_sized_stack, 0
	.set scale_and_add.has_recursion, 0
	.set scale_and_add.has_indirect_call, 0
	.section	.AMDGPU.csdata,"",@progbits
; Function info:
; codeLenInByte = 16
; TotalNumSgprs: 38
; NumVgprs: 3
; NumAgprs: 0
; TotalNumVgprs: 3
; ScratchSize: 0
; MemoryBound: 0
	.text
	.protected	saxpy_loop              ; -- Begin function saxpy_loop
	.globl	saxpy_loop
	.p2align	8
	.type	saxpy_loop,@function
saxpy_loop:                             ; @saxpy_loop
; %bb.0:
	s_load_dwordx4 s[4:7], s[0:1], 0x10
	s_load_dwordx2 s[12:13], s[0:1], 0x20
	v_mov_b32_e32 v3, v0
	v_lshl_or_b32 v4, s2, 8, v3
	v_mov_b32_e32 v5, 0
	s_waitcnt lgkmcnt(0)
	v_cmp_gt_u32_e32 vcc, s5, v4
	v_mov_b32_e32 v6, 0
	s_mov_b32 s32, 0
	s_and_saveexec_b64 s[14:15], vcc
	s_cbranch_execnz .LBB1_1
; %bb.23:
	s_getpc_b64 s[18:19]
.Lpost_getpc0:
	s_add_u32 s18, s18, (.LBB1_4-.Lpost_getpc0)&4294967295
	s_addc_u32 s19, s19, (.LBB1_4-.Lpost_getpc0)>>32
	s_setpc_b64 s[18:19]
.LBB1_1:
	s_load_dwordx4 s[8:11], s[0:1], 0x0
	s_mov_b64 s[0:1], 0
	v_mov_b32_e32 v6, 0
	s_getpc_b64 s[16:17]
	s_add_u32 s16, s16, scale_and_add@rel32@lo+4
	s_addc_u32 s17, s17, scale_and_add@rel32@hi+12
.LBB1_2:                                ; =>This Inner Loop Header: Depth=1
	v_lshlrev_b64 v[8:9], 2, v[4:5]
	s_waitcnt lgkmcnt(0)
	v_lshl_add_u64 v[0:1], s[10:11], 0, v[8:9]
	v_lshl_add_u64 v[8:9], s[8:9], 0, v[8:9]
	global_load_dword v1, v[0:1], off
	v_mov_b32_e32 v0, s4
	global_load_dword v2, v[8:9], off
	s_swappc_b64 s[30:31], s[16:17]
	v_add_u32_e32 v4, s6, v4
	v_cmp_le_u32_e32 vcc, s5, v4
	s_or_b64 s[0:1], vcc, s[0:1]
	v_add_f32_e32 v6, v6, v0
	global_store_dword v[8:9], v0, off
	s_andn2_b64 exec, exec, s[0:1]
	s_cbranch_execz .LBB1_3
; %bb.25:                               ;   in Loop: Header=BB1_2 Depth=1
	s_getpc_b64 s[18:19]
.Lpost_getpc1:
	s_add_u32 s18, s18, (.LBB1_2-.Lpost_getpc1)&4294967295
	s_addc_u32 s19, s19, (.LBB1_2-.Lpost_getpc1)>>32
	s_setpc_b64 s[18:19]
.LBB1_3:
	s_or_b64 exec, exec, s[0:1]
.LBB1_4:
	s_or_b64 exec, exec, s[14:15]
	s_movk_i32 s0, 0x80
	v_lshlrev_b32_e32 v0, 2, v3
	v_cmp_gt_u32_e32 vcc, s0, v3
	ds_write_b32 v0, v6
	s_waitcnt lgkmcnt(0)
	s_barrier
	s_and_saveexec_b64 s[0:1], vcc
	s_cbranch_execz .LBB1_6
; %bb.5:
	ds_read2st64_b32 v[4:5], v0 offset1:2
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v1, v5, v4
	ds_write_b32 v0, v1
.LBB1_6:
	s_or_b64 exec, exec, s[0:1]
	v_cmp_gt_u32_e32 vcc, 64, v3
	s_waitcnt lgkmcnt(0)
	s_barrier
	s_and_saveexec_b64 s[0:1], vcc
	s_cbranch_execz .LBB1_8
; %bb.7:
	ds_read2st64_b32 v[4:5], v0 offset1:1
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v1, v5, v4
	ds_write_b32 v0, v1
.LBB1_8:
	s_or_b64 exec, exec, s[0:1]
	v_cmp_gt_u32_e32 vcc, 32, v3
	s_waitcnt lgkmcnt(0)
	s_barrier
	s_and_saveexec_b64 s[0:1], vcc
	s_cbranch_execz .LBB1_10
; %bb.9:
	ds_read2_b32 v[4:5], v0 offset1:32
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v1, v5, v4
	ds_write_b32 v0, v1
.LBB1_10:
	s_or_b64 exec, exec, s[0:1]
	v_cmp_gt_u32_e32 vcc, 16, v3
	s_waitcnt lgkmcnt(0)
	s_barrier
	s_and_saveexec_b64 s[0:1], vcc
	s_cbranch_execz .LBB1_12
; %bb.11:
	ds_read2_b32 v[4:5], v0 offset1:16
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v1, v5, v4
	ds_write_b32 v0, v1
.LBB1_12:
	s_or_b64 exec, exec, s[0:1]
	v_cmp_gt_u32_e32 vcc, 8, v3
	s_waitcnt lgkmcnt(0)
	s_barrier
	s_and_saveexec_b64 s[0:1], vcc
	s_cbranch_execz .LBB1_14
; %bb.13:
	ds_read2_b32 v[4:5], v0 offset1:8
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v1, v5, v4
	ds_write_b32 v0, v1
.LBB1_14:
	s_or_b64 exec, exec, s[0:1]
	v_cmp_gt_u32_e32 vcc, 4, v3
	s_waitcnt lgkmcnt(0)
	s_barrier
	s_and_saveexec_b64 s[0:1], vcc
	s_cbranch_execz .LBB1_16
; %bb.15:
	ds_read2_b32 v[4:5], v0 offset1:4
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v1, v5, v4
	ds_write_b32 v0, v1
.LBB1_16:
	s_or_b64 exec, exec, s[0:1]
	v_cmp_gt_u32_e32 vcc, 2, v3
	s_waitcnt lgkmcnt(0)
	s_barrier
	s_and_saveexec_b64 s[0:1], vcc
	s_cbranch_execz .LBB1_18
; %bb.17:
	ds_read2_b32 v[4:5], v0 offset1:2
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v1, v5, v4
	ds_write_b32 v0, v1
.LBB1_18:
	s_or_b64 exec, exec, s[0:1]
	v_cmp_eq_u32_e32 vcc, 0, v3
	s_waitcnt lgkmcnt(0)
	s_barrier
	s_and_saveexec_b64 s[0:1], vcc
	s_cbranch_execz .LBB1_20
; %bb.19:
	ds_read2_b32 v[2:3], v0 offset1:1
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v1, v3, v2
	ds_write_b32 v0, v1
.LBB1_20:
	s_or_b64 exec, exec, s[0:1]
	s_waitcnt lgkmcnt(0)
	s_barrier
	s_and_saveexec_b64 s[0:1], vcc
	s_cbranch_execz .LBB1_22
; %bb.21:
	v_mov_b32_e32 v0, 0
	ds_read_b32 v1, v0
	s_mov_b32 s3, 0
	s_lshl_b64 s[0:1], s[2:3], 2
	s_add_u32 s0, s12, s0
	s_addc_u32 s1, s13, s1
	s_waitcnt lgkmcnt(0)
	global_store_dword v0, v1, s[0:1]
.LBB1_22:
	s_endpgm
	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel saxpy_loop
		.amdhsa_group_segment_fixed_size 1024
		.amdhsa_private_segment_fixed_size 0
		.amdhsa_kernarg_size 40
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_dispatch_ptr 0
		.amdhsa_user_sgpr_queue_ptr 0
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_user_sgpr_dispatch_id 0
		.amdhsa_user_sgpr_kernarg_preload_length 0
		.amdhsa_user_sgpr_kernarg_preload_offset 0
		.amdhsa_user_sgpr_private_segment_size 0
		.amdhsa_uses_dynamic_stack 0
		.amdhsa_enable_private_segment 0
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_system_sgpr_workgroup_id_y 0
		.amdhsa_system_sgpr_workgroup_id_z 0
		.amdhsa_system_sgpr_workgroup_info 0
		.amdhsa_system_vgpr_workitem_id 0
		.amdhsa_next_free_vgpr 10
		.amdhsa_next_free_sgpr 33
		.amdhsa_accum_offset 12
		.amdhsa_reserve_vcc 1
		.amdhsa_float_round_mode_32 0
		.amdhsa_float_round_mode_16_64 0
		.amdhsa_float_denorm_mode_32 3
		.amdhsa_float_denorm_mode_16_64 3
		.amdhsa_dx10_clamp 1
		.amdhsa_ieee_mode 1
		.amdhsa_fp16_overflow 0
		.amdhsa_tg_split 0
		.amdhsa_exception_fp_ieee_invalid_op 0
		.amdhsa_exception_fp_denorm_src 0
		.amdhsa_exception_fp_ieee_div_zero 0
		.amdhsa_exception_fp_ieee_overflow 0
		.amdhsa_exception_fp_ieee_underflow 0
		.amdhsa_exception_fp_ieee_inexact 0
		.amdhsa_exception_int_div_zero 0
	.end_amdhsa_kernel
	.text
.Lfunc_end1:
	.size	saxpy_loop, .Lfunc_end1-saxpy_loop
                                        ; -- End function
	.set saxpy_loop.num_vgpr, max(10, scale_and_add.num_vgpr)
	.set saxpy_loop.num_agpr, max(0, scale_and_add.num_agpr)
	.set saxpy_loop.numbered_sgpr, max(33, scale_and_add.numbered_sgpr)
	.set saxpy_loop.num_named_barrier, max(0, scale_and_add.num_named_barrier)
	.set saxpy_loop.private_seg_size, 0+max(scale_and_add.private_seg_size)
	.set saxpy_loop.uses_vcc, or(1, scale_and_add.uses_vcc)
	.set saxpy_loop.uses_flat_scratch, or(0, scale_and_add.uses_flat_scratch)
	.set saxpy_loop.has_dyn_sized_stack, or(0, scale_and_add.has_dyn_sized_stack)
	.set saxpy_loop.has_recursion, or(0, scale_and_add.has_recursion)
	.set saxpy_loop.has_indirect_call, or(0, scale_and_add.has_indirect_call)
	.section	.AMDGPU.csdata,"",@progbits
; Kernel info:
; codeLenInByte = 692
; TotalNumSgprs: 39
; NumVgprs: 10
; NumAgprs: 0
; TotalNumVgprs: 10
; ScratchSize: 0
; MemoryBound: 0
; FloatMode: 240
; IeeeMode: 1
; LDSByteSize: 1024 bytes/workgroup (compile time only)
; SGPRBlocks: 4
; VGPRBlocks: 1
; NumSGPRsForWavesPerEU: 39
; NumVGPRsForWavesPerEU: 10
; AccumOffset: 12
; Occupancy: 8
; WaveLimiterHint : 0
; COMPUTE_PGM_RSRC2:SCRATCH_EN: 0
; COMPUTE_PGM_RSRC2:USER_SGPR: 2
; COMPUTE_PGM_RSRC2:TRAP_HANDLER: 0
; COMPUTE_PGM_RSRC2:TGID_X_EN: 1
; COMPUTE_PGM_RSRC2:TGID_Y_EN: 0
; COMPUTE_PGM_RSRC2:TGID_Z_EN: 0
; COMPUTE_PGM_RSRC2:TIDIG_COMP_CNT: 0
; COMPUTE_PGM_RSRC3_GFX90A:ACCUM_OFFSET: 2
; COMPUTE_PGM_RSRC3_GFX90A:TG_SPLIT: 0
	.text
	.protected	__clang_ocl_kern_imp_saxpy_loop ; -- Begin function __clang_ocl_kern_imp_saxpy_loop
	.globl	__clang_ocl_kern_imp_saxpy_loop
	.p2align	2
	.type	__clang_ocl_kern_imp_saxpy_loop,@function
__clang_ocl_kern_imp_saxpy_loop:        ; @__clang_ocl_kern_imp_saxpy_loop
; %bb.0:
	s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)
	s_mov_b32 s6, s33
	s_mov_b32 s33, s32
	s_xor_saveexec_b64 s[0:1], -1
	scratch_store_dword off, v18, s33       ; 4-byte Folded Spill
	s_mov_b64 exec, s[0:1]
	v_mov_b32_e32 v11, v3
	v_and_b32_e32 v3, 0x3ff, v31
	v_lshl_or_b32 v14, s12, 8, v3
	v_writelane_b32 v18, s30, 0
	v_mov_b32_e32 v13, v8
	v_mov_b32_e32 v12, v7
	v_mov_b32_e32 v10, v2
	v_mov_b32_e32 v9, v1
	v_mov_b32_e32 v8, v0
	v_cmp_lt_u32_e32 vcc, v14, v5
	v_mov_b32_e32 v15, 0
	v_mov_b32_e32 v7, 0
	s_add_i32 s32, s32, 16
	v_writelane_b32 v18, s31, 1
	s_and_saveexec_b64 s[0:1], vcc
	s_cbranch_execnz .LBB2_1
; %bb.23:
	s_getpc_b64 s[8:9]
.Lpost_getpc2:
	s_add_u32 s8, s8, (.LBB2_4-.Lpost_getpc2)&4294967295
	s_addc_u32 s9, s9, (.LBB2_4-.Lpost_getpc2)>>32
	s_setpc_b64 s[8:9]
.LBB2_1:
	s_mov_b64 s[2:3], 0
	v_mov_b32_e32 v7, 0
	s_getpc_b64 s[4:5]
	s_add_u32 s4, s4, scale_and_add@rel32@lo+4
	s_addc_u32 s5, s5, scale_and_add@rel32@hi+12
.LBB2_2:                                ; =>This Inner Loop Header: Depth=1
	v_lshlrev_b64 v[16:17], 2, v[14:15]
	v_lshl_add_u64 v[0:1], v[10:11], 0, v[16:17]
	v_lshl_add_u64 v[16:17], v[8:9], 0, v[16:17]
	global_load_dword v1, v[0:1], off
	v_mov_b32_e32 v0, v4
	global_load_dword v2, v[16:17], off
	s_swappc_b64 s[30:31], s[4:5]
	v_add_u32_e32 v14, v14, v6
	v_cmp_ge_u32_e32 vcc, v14, v5
	s_or_b64 s[2:3], vcc, s[2:3]
	v_add_f32_e32 v7, v7, v0
	global_store_dword v[16:17], v0, off
	s_andn2_b64 exec, exec, s[2:3]
	s_cbranch_execz .LBB2_3
; %bb.25:                               ;   in Loop: Header=BB2_2 Depth=1
	s_getpc_b64 s[8:9]
.Lpost_getpc3:
	s_add_u32 s8, s8, (.LBB2_2-.Lpost_getpc3)&4294967295
	s_addc_u32 s9, s9, (.LBB2_2-.Lpost_getpc3)>>32
	s_setpc_b64 s[8:9]
.LBB2_3:
	s_or_b64 exec, exec, s[2:3]
.LBB2_4:
	s_or_b64 exec, exec, s[0:1]
	s_movk_i32 s0, 0x80
	v_cmp_gt_u32_e32 vcc, s0, v3
	s_trap 2
	ds_write_b32 v0, v7
	s_waitcnt lgkmcnt(0)
	s_barrier
	s_and_saveexec_b64 s[0:1], vcc
	s_cbranch_execz .LBB2_6
; %bb.5:
	ds_read2st64_b32 v[0:1], v0 offset1:2
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v0, v1, v0
	ds_write_b32 v0, v0
.LBB2_6:
	s_or_b64 exec, exec, s[0:1]
	v_cmp_gt_u32_e32 vcc, 64, v3
	s_waitcnt lgkmcnt(0)
	s_barrier
	s_and_saveexec_b64 s[0:1], vcc
	s_cbranch_execz .LBB2_8
; %bb.7:
	ds_read2st64_b32 v[0:1], v0 offset1:1
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v0, v1, v0
	ds_write_b32 v0, v0
.LBB2_8:
	s_or_b64 exec, exec, s[0:1]
	v_cmp_gt_u32_e32 vcc, 32, v3
	s_waitcnt lgkmcnt(0)
	s_barrier
	s_and_saveexec_b64 s[0:1], vcc
	s_cbranch_execz .LBB2_10
; %bb.9:
	ds_read2_b32 v[0:1], v0 offset1:32
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v0, v1, v0
	ds_write_b32 v0, v0
.LBB2_10:
	s_or_b64 exec, exec, s[0:1]
	v_cmp_gt_u32_e32 vcc, 16, v3
	s_waitcnt lgkmcnt(0)
	s_barrier
	s_and_saveexec_b64 s[0:1], vcc
	s_cbranch_execz .LBB2_12
; %bb.11:
	ds_read2_b32 v[0:1], v0 offset1:16
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v0, v1, v0
	ds_write_b32 v0, v0
.LBB2_12:
	s_or_b64 exec, exec, s[0:1]
	v_cmp_gt_u32_e32 vcc, 8, v3
	s_waitcnt lgkmcnt(0)
	s_barrier
	s_and_saveexec_b64 s[0:1], vcc
	s_cbranch_execz .LBB2_14
; %bb.13:
	ds_read2_b32 v[0:1], v0 offset1:8
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v0, v1, v0
	ds_write_b32 v0, v0
.LBB2_14:
	s_or_b64 exec, exec, s[0:1]
	v_cmp_gt_u32_e32 vcc, 4, v3
	s_waitcnt lgkmcnt(0)
	s_barrier
	s_and_saveexec_b64 s[0:1], vcc
	s_cbranch_execz .LBB2_16
; %bb.15:
	ds_read2_b32 v[0:1], v0 offset1:4
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v0, v1, v0
	ds_write_b32 v0, v0
.LBB2_16:
	s_or_b64 exec, exec, s[0:1]
	v_cmp_gt_u32_e32 vcc, 2, v3
	s_waitcnt lgkmcnt(0)
	s_barrier
	s_and_saveexec_b64 s[0:1], vcc
	s_cbranch_execz .LBB2_18
; %bb.17:
	ds_read2_b32 v[0:1], v0 offset1:2
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v0, v1, v0
	ds_write_b32 v0, v0
.LBB2_18:
	s_or_b64 exec, exec, s[0:1]
	v_cmp_eq_u32_e32 vcc, 0, v3
	s_waitcnt lgkmcnt(0)
	s_barrier
	s_and_saveexec_b64 s[0:1], vcc
	s_cbranch_execz .LBB2_20
; %bb.19:
	ds_read2_b32 v[0:1], v0 offset1:1
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v0, v1, v0
	ds_write_b32 v0, v0
.LBB2_20:
	s_or_b64 exec, exec, s[0:1]
	s_waitcnt lgkmcnt(0)
	s_barrier
	s_and_saveexec_b64 s[0:1], vcc
	s_cbranch_execz .LBB2_22
; %bb.21:
	s_trap 2
	ds_read_b32 v2, v0
	s_mov_b32 s13, 0
	v_lshl_add_u64 v[0:1], s[12:13], 2, v[12:13]
	s_waitcnt lgkmcnt(0)
	global_store_dword v[0:1], v2, off
.LBB2_22:
	s_or_b64 exec, exec, s[0:1]
	v_readlane_b32 s31, v18, 1
	v_readlane_b32 s30, v18, 0
	s_mov_b32 s32, s33
	s_xor_saveexec_b64 s[0:1], -1
	scratch_load_dword v18, off, s33        ; 4-byte Folded Reload
	s_mov_b64 exec, s[0:1]
	s_mov_b32 s33, s6
	s_waitcnt vmcnt(0)
	s_setpc_b64 s[30:31]
.Lfunc_end2:
	.size	__clang_ocl_kern_imp_saxpy_loop, .Lfunc_end2-__clang_ocl_kern_imp_saxpy_loop
                                        ; -- End function
	.set __clang_ocl_kern_imp_saxpy_loop.num_vgpr, max(32, scale_and_add.num_vgpr)
	.set __clang_ocl_kern_imp_saxpy_loop.num_agpr, max(0, scale_and_add.num_agpr)
	.set __clang_ocl_kern_imp_saxpy_loop.numbered_sgpr, max(34, scale_and_add.numbered_sgpr)
	.set __clang_ocl_kern_imp_saxpy_loop.num_named_barrier, max(0, scale_and_add.num_named_barrier)
	.set __clang_ocl_kern_imp_saxpy_loop.private_seg_size, 16+max(scale_and_add.private_seg_size)
	.set __clang_ocl_kern_imp_saxpy_loop.uses_vcc, or(1, scale_and_add.uses_vcc)
	.set __clang_ocl_kern_imp_saxpy_loop.uses_flat_scratch, or(0, scale_and_add.uses_flat_scratch)
	.set __clang_ocl_kern_imp_saxpy_loop.has_dyn_sized_stack, or(0, scale_and_add.has_dyn_sized_stack)
	.set __clang_ocl_kern_imp_saxpy_loop.has_recursion, or(0, scale_and_add.has_recursion)
	.set __clang_ocl_kern_imp_saxpy_loop.has_indirect_call, or(0, scale_and_add.has_indirect_call)
	.section	.AMDGPU.csdata,"",@progbits
; Function info:
; codeLenInByte = 776
; TotalNumSgprs: 40
; NumVgprs: 32
; NumAgprs: 0
; TotalNumVgprs: 32
; ScratchSize: 16
; MemoryBound: 0
	.text
	.p2alignl 6, 3212836864
	.fill 256, 4, 3212836864
	.section	.AMDGPU.gpr_maximums,"",@progbits
	.set amdgpu.max_num_vgpr, 32
	.set amdgpu.max_num_agpr, 0
	.set amdgpu.max_num_sgpr, 34
	.set amdgpu.max_num_named_barrier, 0
	.text
	.ident	"Debian clang version 22.1.8 (1~deb12u1)"
	.section	".note.GNU-stack","",@progbits
	.addrsig
	.amdgpu_metadata
---
amdhsa.kernels:
  - .agpr_count:     0
    .args:
      - .address_space:  global
        .is_restrict:    true
        .offset:         0
        .size:           8
        .type_name:      'float*'
        .value_kind:     global_buffer
      - .actual_access:  read_only
        .address_space:  global
        .is_const:       true
        .is_restrict:    true
        .offset:         8
        .size:           8
        .type_name:      'float*'
        .value_kind:     global_buffer
      - .offset:         16
        .size:           4
        .type_name:      float
        .value_kind:     by_value
      - .offset:         20
        .size:           4
        .type_name:      uint
        .value_kind:     by_value
      - .offset:         24
        .size:           4
        .type_name:      uint
        .value_kind:     by_value
      - .actual_access:  write_only
        .address_space:  global
        .is_restrict:    true
        .offset:         32
        .size:           8
        .type_name:      'float*'
        .value_kind:     global_buffer
    .group_segment_fixed_size: 1024
    .kernarg_segment_align: 8
    .kernarg_segment_size: 40
    .language:       OpenCL C
    .language_version:
      - 2
      - 0
    .max_flat_workgroup_size: 256
    .name:           saxpy_loop
    .private_segment_fixed_size: 0
    .reqd_workgroup_size:
      - 256
      - 1
      - 1
    .sgpr_count:     39
    .sgpr_spill_count: 0
    .symbol:         saxpy_loop.kd
    .uses_dynamic_stack: false
    .vgpr_count:     10
    .vgpr_spill_count: 0
    .wavefront_size: 64
amdhsa.target:   amdgcn-amd-amdhsa--gfx942
amdhsa.version:
  - 1
  - 2
...

	.end_amdgpu_metadata
