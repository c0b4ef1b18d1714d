	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.amdhsa_code_object_version 6
	.text
	.p2align	2                               ; -- Begin function scale
	.type	scale,@function
scale:                                  ; @scale
; %bb.0:
	s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)
	v_ashrrev_i32_e32 v2, 3, v0
	v_mad_u64_u32 v[0:1], s[0:1], v1, v0, v[2:3]
	s_setpc_b64 s[30:31]
.Lfunc_end0:
	.size	scale, .Lfunc_end0-scale
                                        ; -- End function
	.set .Lscale.num_vgpr, 4
	.set .Lscale.num_agpr, 0
	.set .Lscale.numbered_sgpr, 32
	.set .Lscale.num_named_barrier, 0
	.set .Lscale.private_seg_size, 0
	.set .Lscale.uses_vcc, 0
	.set .Lscale.uses_flat_scratch, 0
	.set .Lscale.has_dyn_sized_stack, 0
	.set .Lscale.has_recursion, 0
	.set .Lscale.has_indirect_call, 0
	.section	.AMDGPU.csdata,"",@progbits
; Function info:
; codeLenInByte = 20
; TotalNumSgprs: 38
; NumVgprs: 4
; NumAgprs: 0
; TotalNumVgprs: 4
; ScratchSize: 0
; MemoryBound: 0
	.text
	.protected	calls_simple            ; -- Begin function calls_simple
	.globl	calls_simple
	.p2align	8
	.type	calls_simple,@function
calls_simple:                           ; @calls_simple
; %bb.0:
	s_load_dwordx4 s[4:7], s[0:1], 0x0
	s_load_dword s3, s[0:1], 0x10
	v_lshl_add_u32 v0, s2, 6, v0
	v_mov_b32_e32 v1, 0
	v_lshlrev_b64 v[4:5], 2, v[0:1]
	s_waitcnt lgkmcnt(0)
	v_lshl_add_u64 v[0:1], s[6:7], 0, v[4:5]
	global_load_dword v0, v[0:1], off
	s_getpc_b64 s[0:1]
	s_add_u32 s0, s0, scale@rel32@lo+4
	s_addc_u32 s1, s1, scale@rel32@hi+12
	v_mov_b32_e32 v1, s3
	s_mov_b32 s32, 0
	s_swappc_b64 s[30:31], s[0:1]
	v_lshl_add_u64 v[2:3], s[4:5], 0, v[4:5]
	global_store_dword v[2:3], v0, off
	s_endpgm
	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel calls_simple
		.amdhsa_group_segment_fixed_size 0
		.amdhsa_private_segment_fixed_size 0
		.amdhsa_kernarg_size 20
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
		.amdhsa_next_free_vgpr 6
		.amdhsa_next_free_sgpr 33
		.amdhsa_accum_offset 8
		.amdhsa_reserve_vcc 0
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
	.size	calls_simple, .Lfunc_end1-calls_simple
                                        ; -- End function
	.set calls_simple.num_vgpr, max(6, .Lscale.num_vgpr)
	.set calls_simple.num_agpr, max(0, .Lscale.num_agpr)
	.set calls_simple.numbered_sgpr, max(33, .Lscale.numbered_sgpr)
	.set calls_simple.num_named_barrier, max(0, .Lscale.num_named_barrier)
	.set calls_simple.private_seg_size, 0+max(.Lscale.private_seg_size)
	.set calls_simple.uses_vcc, or(0, .Lscale.uses_vcc)
	.set calls_simple.uses_flat_scratch, or(0, .Lscale.uses_flat_scratch)
	.set calls_simple.has_dyn_sized_stack, or(0, .Lscale.has_dyn_sized_stack)
	.set calls_simple.has_recursion, or(0, .Lscale.has_recursion)
	.set calls_simple.has_indirect_call, or(0, .Lscale.has_indirect_call)
	.section	.AMDGPU.csdata,"",@progbits
; Kernel info:
; codeLenInByte = 108
; TotalNumSgprs: 39
; NumVgprs: 6
; NumAgprs: 0
; TotalNumVgprs: 6
; ScratchSize: 0
; MemoryBound: 0
; FloatMode: 240
; IeeeMode: 1
; LDSByteSize: 0 bytes/workgroup (compile time only)
; SGPRBlocks: 4
; VGPRBlocks: 0
; NumSGPRsForWavesPerEU: 39
; NumVGPRsForWavesPerEU: 6
; AccumOffset: 8
; Occupancy: 8
; WaveLimiterHint : 0
; COMPUTE_PGM_RSRC2:SCRATCH_EN: 0
; COMPUTE_PGM_RSRC2:USER_SGPR: 2
; COMPUTE_PGM_RSRC2:TRAP_HANDLER: 0
; COMPUTE_PGM_RSRC2:TGID_X_EN: 1
; COMPUTE_PGM_RSRC2:TGID_Y_EN: 0
; COMPUTE_PGM_RSRC2:TGID_Z_EN: 0
; COMPUTE_PGM_RSRC2:TIDIG_COMP_CNT: 0
; COMPUTE_PGM_RSRC3_GFX90A:ACCUM_OFFSET: 1
; COMPUTE_PGM_RSRC3_GFX90A:TG_SPLIT: 0
	.text
	.protected	__clang_ocl_kern_imp_calls_simple ; -- Begin function __clang_ocl_kern_imp_calls_simple
	.globl	__clang_ocl_kern_imp_calls_simple
	.p2align	2
	.type	__clang_ocl_kern_imp_calls_simple,@function
__clang_ocl_kern_imp_calls_simple:      ; @__clang_ocl_kern_imp_calls_simple
; %bb.0:
	s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)
	s_mov_b32 s2, s33
	s_mov_b32 s33, s32
	s_xor_saveexec_b64 s[0:1], -1
	scratch_store_dword off, v7, s33        ; 4-byte Folded Spill
	s_mov_b64 exec, s[0:1]
	v_mov_b32_e32 v6, v4
	v_mov_b32_e32 v4, v0
	v_and_b32_e32 v0, 0x3ff, v31
	v_mov_b32_e32 v5, v1
	v_lshl_add_u32 v0, s12, 6, v0
	v_mov_b32_e32 v1, 0
	v_lshlrev_b64 v[8:9], 2, v[0:1]
	v_lshl_add_u64 v[0:1], v[2:3], 0, v[8:9]
	global_load_dword v0, v[0:1], off
	s_add_i32 s32, s32, 16
	v_writelane_b32 v7, s30, 0
	s_getpc_b64 s[0:1]
	s_add_u32 s0, s0, scale@rel32@lo+4
	s_addc_u32 s1, s1, scale@rel32@hi+12
	v_mov_b32_e32 v1, v6
	v_writelane_b32 v7, s31, 1
	s_swappc_b64 s[30:31], s[0:1]
	v_lshl_add_u64 v[2:3], v[4:5], 0, v[8:9]
	global_store_dword v[2:3], v0, off
	v_readlane_b32 s31, v7, 1
	v_readlane_b32 s30, v7, 0
	s_mov_b32 s32, s33
	s_xor_saveexec_b64 s[0:1], -1
	scratch_load_dword v7, off, s33         ; 4-byte Folded Reload
	s_mov_b64 exec, s[0:1]
	s_mov_b32 s33, s2
	s_waitcnt vmcnt(0)
	s_setpc_b64 s[30:31]
.Lfunc_end2:
	.size	__clang_ocl_kern_imp_calls_simple, .Lfunc_end2-__clang_ocl_kern_imp_calls_simple
                                        ; -- End function
	.set __clang_ocl_kern_imp_calls_simple.num_vgpr, max(32, .Lscale.num_vgpr)
	.set __clang_ocl_kern_imp_calls_simple.num_agpr, max(0, .Lscale.num_agpr)
	.set __clang_ocl_kern_imp_calls_simple.numbered_sgpr, max(34, .Lscale.numbered_sgpr)
	.set __clang_ocl_kern_imp_calls_simple.num_named_barrier, max(0, .Lscale.num_named_barrier)
	.set __clang_ocl_kern_imp_calls_simple.private_seg_size, 16+max(.Lscale.private_seg_size)
	.set __clang_ocl_kern_imp_calls_simple.uses_vcc, or(0, .Lscale.uses_vcc)
	.set __clang_ocl_kern_imp_calls_simple.uses_flat_scratch, or(0, .Lscale.uses_flat_scratch)
	.set __clang_ocl_kern_imp_calls_simple.has_dyn_sized_stack, or(0, .Lscale.has_dyn_sized_stack)
	.set __clang_ocl_kern_imp_calls_simple.has_recursion, or(0, .Lscale.has_recursion)
	.set __clang_ocl_kern_imp_calls_simple.has_indirect_call, or(0, .Lscale.has_indirect_call)
	.section	.AMDGPU.csdata,"",@progbits
; Function info:
; codeLenInByte = 196
; TotalNumSgprs: 40
; NumVgprs: 32
; NumAgprs: 0
; TotalNumVgprs: 32
; ScratchSize: 16
; MemoryBound: 0
	.text
	.p2align	2                               ; -- Begin function scale_twice
	.type	scale_twice,@function
scale_twice:                            ; @scale_twice
; %bb.0:
	s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)
	s_mov_b32 s4, s33
	s_mov_b32 s33, s32
	s_xor_saveexec_b64 s[0:1], -1
	scratch_store_dword off, v5, s33        ; 4-byte Folded Spill
	s_mov_b64 exec, s[0:1]
	s_add_i32 s32, s32, 16
	v_writelane_b32 v5, s30, 0
	s_getpc_b64 s[2:3]
	s_add_u32 s2, s2, scale@rel32@lo+4
	s_addc_u32 s3, s3, scale@rel32@hi+12
	v_writelane_b32 v5, s31, 1
	v_mov_b32_e32 v3, v1
	s_swappc_b64 s[30:31], s[2:3]
	v_add_u32_e32 v1, 1, v3
	v_mov_b32_e32 v4, v0
	s_swappc_b64 s[30:31], s[2:3]
	v_xor_b32_e32 v0, v0, v4
	v_readlane_b32 s31, v5, 1
	v_readlane_b32 s30, v5, 0
	s_mov_b32 s32, s33
	s_xor_saveexec_b64 s[0:1], -1
	scratch_load_dword v5, off, s33         ; 4-byte Folded Reload
	s_mov_b64 exec, s[0:1]
	s_mov_b32 s33, s4
	s_waitcnt vmcnt(0)
	s_setpc_b64 s[30:31]
.Lfunc_end3:
	.size	scale_twice, .Lfunc_end3-scale_twice
                                        ; -- End function
	.set .Lscale_twice.num_vgpr, max(6, .Lscale.num_vgpr)
	.set .Lscale_twice.num_agpr, max(0, .Lscale.num_agpr)
	.set .Lscale_twice.numbered_sgpr, max(34, .Lscale.numbered_sgpr)
	.set .Lscale_twice.num_named_barrier, max(0, .Lscale.num_named_barrier)
	.set .Lscale_twice.private_seg_size, 16+max(.Lscale.private_seg_size)
	.set .Lscale_twice.uses_vcc, or(0, .Lscale.uses_vcc)
	.set .Lscale_twice.uses_flat_scratch, or(0, .Lscale.uses_flat_scratch)
	.set .Lscale_twice.has_dyn_sized_stack, or(0, .Lscale.has_dyn_sized_stack)
	.set .Lscale_twice.has_recursion, or(0, .Lscale.has_recursion)
	.set .Lscale_twice.has_indirect_call, or(0, .Lscale.has_indirect_call)
	.section	.AMDGPU.csdata,"",@progbits
; Function info:
; codeLenInByte = 140
; TotalNumSgprs: 40
; NumVgprs: 6
; NumAgprs: 0
; TotalNumVgprs: 6
; ScratchSize: 16
; MemoryBound: 0
	.text
	.p2align	2                               ; -- Begin function blend
	.type	blend,@function
blend:                                  ; @blend
; %bb.0:
	s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)
	v_sub_f32_e32 v1, v1, v0
	v_fmamk_f32 v0, v1, 0x3e800000, v0
	s_setpc_b64 s[30:31]
.Lfunc_end4:
	.size	blend, .Lfunc_end4-blend
                                        ; -- End function
	.set .Lblend.num_vgpr, 2
	.set .Lblend.num_agpr, 0
	.set .Lblend.numbered_sgpr, 32
	.set .Lblend.num_named_barrier, 0
	.set .Lblend.private_seg_size, 0
	.set .Lblend.uses_vcc, 0
	.set .Lblend.uses_flat_scratch, 0
	.set .Lblend.has_dyn_sized_stack, 0
	.set .Lblend.has_recursion, 0
	.set .Lblend.has_indirect_call, 0
	.section	.AMDGPU.csdata,"",@progbits
; Function info:
; codeLenInByte = 20
; TotalNumSgprs: 38
; NumVgprs: 2
; NumAgprs: 0
; TotalNumVgprs: 2
; ScratchSize: 0
; MemoryBound: 0
	.text
	.p2align	2                               ; -- Begin function store_pair
	.type	store_pair,@function
store_pair:                             ; @store_pair
; %bb.0:
	s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)
	v_mov_b32_e32 v5, v4
	v_mov_b32_e32 v4, v3
	v_lshlrev_b32_e32 v2, 1, v2
	v_mov_b32_e32 v3, 0
	v_lshl_add_u64 v[0:1], v[2:3], 2, v[0:1]
	global_store_dwordx2 v[0:1], v[4:5], off
	s_waitcnt vmcnt(0)
	s_setpc_b64 s[30:31]
.Lfunc_end5:
	.size	store_pair, .Lfunc_end5-store_pair
                                        ; -- End function
	.set .Lstore_pair.num_vgpr, 6
	.set .Lstore_pair.num_agpr, 0
	.set .Lstore_pair.numbered_sgpr, 32
	.set .Lstore_pair.num_named_barrier, 0
	.set .Lstore_pair.private_seg_size, 0
	.set .Lstore_pair.uses_vcc, 0
	.set .Lstore_pair.uses_flat_scratch, 0
	.set .Lstore_pair.has_dyn_sized_stack, 0
	.set .Lstore_pair.has_recursion, 0
	.set .Lstore_pair.has_indirect_call, 0
	.section	.AMDGPU.csdata,"",@progbits
; Function info:
; codeLenInByte = 44
; TotalNumSgprs: 38
; NumVgprs: 6
; NumAgprs: 0
; TotalNumVgprs: 6
; ScratchSize: 0
; MemoryBound: 0
	.text
	.protected	calls_nested            ; -- Begin function calls_nested
	.globl	calls_nested
	.p2align	8
	.type	calls_nested,@function
calls_nested:                           ; @calls_nested
; %bb.0:
	s_load_dwordx4 s[8:11], s[0:1], 0x0
	s_load_dwordx2 s[6:7], s[0:1], 0x10
	v_lshl_add_u32 v6, s2, 6, v0
	v_mov_b32_e32 v7, 0
	v_lshlrev_b64 v[8:9], 2, v[6:7]
	s_waitcnt lgkmcnt(0)
	v_lshl_add_u64 v[0:1], s[10:11], 0, v[8:9]
	global_load_dword v0, v[0:1], off
	s_load_dword s2, s[0:1], 0x18
	s_getpc_b64 s[0:1]
	s_add_u32 s0, s0, scale_twice@rel32@lo+4
	s_addc_u32 s1, s1, scale_twice@rel32@hi+12
	s_mov_b32 s32, 0
	s_waitcnt lgkmcnt(0)
	v_mov_b32_e32 v1, s2
	s_swappc_b64 s[30:31], s[0:1]
	v_mov_b32_e32 v3, v0
	v_lshl_add_u64 v[4:5], s[6:7], 0, v[8:9]
	v_add_u32_e32 v0, 1, v6
	v_mov_b32_e32 v1, v7
	v_lshl_add_u64 v[8:9], v[0:1], 2, s[6:7]
	global_load_dword v0, v[4:5], off
	global_load_dword v1, v[8:9], off
	s_getpc_b64 s[0:1]
	s_add_u32 s0, s0, blend@rel32@lo+4
	s_addc_u32 s1, s1, blend@rel32@hi+12
	s_swappc_b64 s[30:31], s[0:1]
	v_cvt_i32_f32_e32 v4, v0
	s_getpc_b64 s[0:1]
	s_add_u32 s0, s0, store_pair@rel32@lo+4
	s_addc_u32 s1, s1, store_pair@rel32@hi+12
	v_mov_b32_e32 v0, s8
	v_mov_b32_e32 v1, s9
	v_mov_b32_e32 v2, v6
	s_swappc_b64 s[30:31], s[0:1]
	s_endpgm
	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel calls_nested
		.amdhsa_group_segment_fixed_size 0
		.amdhsa_private_segment_fixed_size 16
		.amdhsa_kernarg_size 28
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_dispatch_ptr 0
		.amdhsa_user_sgpr_queue_ptr 0
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_user_sgpr_dispatch_id 0
		.amdhsa_user_sgpr_kernarg_preload_length 0
		.amdhsa_user_sgpr_kernarg_preload_offset 0
		.amdhsa_user_sgpr_private_segment_size 0
		.amdhsa_uses_dynamic_stack 0
		.amdhsa_enable_private_segment 1
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_system_sgpr_workgroup_id_y 0
		.amdhsa_system_sgpr_workgroup_id_z 0
		.amdhsa_system_sgpr_workgroup_info 0
		.amdhsa_system_vgpr_workitem_id 0
		.amdhsa_next_free_vgpr 10
		.amdhsa_next_free_sgpr 34
		.amdhsa_accum_offset 12
		.amdhsa_reserve_vcc 0
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
.Lfunc_end6:
	.size	calls_nested, .Lfunc_end6-calls_nested
                                        ; -- End function
	.set calls_nested.num_vgpr, max(10, .Lscale_twice.num_vgpr, .Lblend.num_vgpr, .Lstore_pair.num_vgpr)
	.set calls_nested.num_agpr, max(0, .Lscale_twice.num_agpr, .Lblend.num_agpr, .Lstore_pair.num_agpr)
	.set calls_nested.numbered_sgpr, max(33, .Lscale_twice.numbered_sgpr, .Lblend.numbered_sgpr, .Lstore_pair.numbered_sgpr)
	.set calls_nested.num_named_barrier, max(0, .Lscale_twice.num_named_barrier, .Lblend.num_named_barrier, .Lstore_pair.num_named_barrier)
	.set calls_nested.private_seg_size, 0+max(.Lscale_twice.private_seg_size, .Lblend.private_seg_size, .Lstore_pair.private_seg_size)
	.set calls_nested.uses_vcc, or(0, .Lscale_twice.uses_vcc, .Lblend.uses_vcc, .Lstore_pair.uses_vcc)
	.set calls_nested.uses_flat_scratch, or(0, .Lscale_twice.uses_flat_scratch, .Lblend.uses_flat_scratch, .Lstore_pair.uses_flat_scratch)
	.set calls_nested.has_dyn_sized_stack, or(0, .Lscale_twice.has_dyn_sized_stack, .Lblend.has_dyn_sized_stack, .Lstore_pair.has_dyn_sized_stack)
	.set calls_nested.has_recursion, or(0, .Lscale_twice.has_recursion, .Lblend.has_recursion, .Lstore_pair.has_recursion)
	.set calls_nested.has_indirect_call, or(0, .Lscale_twice.has_indirect_call, .Lblend.has_indirect_call, .Lstore_pair.has_indirect_call)
	.section	.AMDGPU.csdata,"",@progbits
; Kernel info:
; codeLenInByte = 212
; TotalNumSgprs: 40
; NumVgprs: 10
; NumAgprs: 0
; TotalNumVgprs: 10
; ScratchSize: 16
; MemoryBound: 0
; FloatMode: 240
; IeeeMode: 1
; LDSByteSize: 0 bytes/workgroup (compile time only)
; SGPRBlocks: 4
; VGPRBlocks: 1
; NumSGPRsForWavesPerEU: 40
; NumVGPRsForWavesPerEU: 10
; AccumOffset: 12
; Occupancy: 8
; WaveLimiterHint : 0
; COMPUTE_PGM_RSRC2:SCRATCH_EN: 1
; COMPUTE_PGM_RSRC2:USER_SGPR: 2
; COMPUTE_PGM_RSRC2:TRAP_HANDLER: 0
; COMPUTE_PGM_RSRC2:TGID_X_EN: 1
; COMPUTE_PGM_RSRC2:TGID_Y_EN: 0
; COMPUTE_PGM_RSRC2:TGID_Z_EN: 0
; COMPUTE_PGM_RSRC2:TIDIG_COMP_CNT: 0
; COMPUTE_PGM_RSRC3_GFX90A:ACCUM_OFFSET: 2
; COMPUTE_PGM_RSRC3_GFX90A:TG_SPLIT: 0
	.text
	.protected	__clang_ocl_kern_imp_calls_nested ; -- Begin function __clang_ocl_kern_imp_calls_nested
	.globl	__clang_ocl_kern_imp_calls_nested
	.p2align	2
	.type	__clang_ocl_kern_imp_calls_nested,@function
__clang_ocl_kern_imp_calls_nested:      ; @__clang_ocl_kern_imp_calls_nested
; %bb.0:
	s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)
	s_mov_b32 s5, s33
	s_mov_b32 s33, s32
	s_xor_saveexec_b64 s[0:1], -1
	scratch_store_dword off, v13, s33       ; 4-byte Folded Spill
	s_mov_b64 exec, s[0:1]
	v_mov_b32_e32 v12, v0
	v_and_b32_e32 v0, 0x3ff, v31
	v_lshl_add_u32 v8, s12, 6, v0
	v_mov_b32_e32 v9, 0
	v_lshlrev_b64 v[14:15], 2, v[8:9]
	v_mov_b32_e32 v11, v1
	v_lshl_add_u64 v[0:1], v[2:3], 0, v[14:15]
	global_load_dword v0, v[0:1], off
	s_add_i32 s32, s32, 16
	v_mov_b32_e32 v10, v6
	v_writelane_b32 v13, s30, 0
	s_getpc_b64 s[0:1]
	s_add_u32 s0, s0, scale_twice@rel32@lo+4
	s_addc_u32 s1, s1, scale_twice@rel32@hi+12
	v_mov_b32_e32 v1, v10
	v_writelane_b32 v13, s31, 1
	v_mov_b32_e32 v7, v5
	v_mov_b32_e32 v6, v4
	s_swappc_b64 s[30:31], s[0:1]
	v_mov_b32_e32 v3, v0
	v_lshl_add_u64 v[4:5], v[6:7], 0, v[14:15]
	v_add_u32_e32 v0, 1, v8
	v_mov_b32_e32 v1, v9
	v_lshl_add_u64 v[6:7], v[0:1], 2, v[6:7]
	global_load_dword v0, v[4:5], off
	global_load_dword v1, v[6:7], off
	s_getpc_b64 s[0:1]
	s_add_u32 s0, s0, blend@rel32@lo+4
	s_addc_u32 s1, s1, blend@rel32@hi+12
	s_swappc_b64 s[30:31], s[0:1]
	v_cvt_i32_f32_e32 v4, v0
	s_getpc_b64 s[0:1]
	s_add_u32 s0, s0, store_pair@rel32@lo+4
	s_addc_u32 s1, s1, store_pair@rel32@hi+12
	v_mov_b32_e32 v0, v12
	v_mov_b32_e32 v1, v11
	v_mov_b32_e32 v2, v8
	v_readlane_b32 s31, v13, 1
	v_readlane_b32 s30, v13, 0
	s_mov_b32 s32, s33
	s_xor_saveexec_b64 s[2:3], -1
	scratch_load_dword v13, off, s33        ; 4-byte Folded Reload
	s_mov_b64 exec, s[2:3]
	s_mov_b32 s33, s5
	s_setpc_b64 s[0:1]
.Lfunc_end7:
	.size	__clang_ocl_kern_imp_calls_nested, .Lfunc_end7-__clang_ocl_kern_imp_calls_nested
                                        ; -- End function
	.set __clang_ocl_kern_imp_calls_nested.num_vgpr, max(32, .Lscale_twice.num_vgpr, .Lblend.num_vgpr, .Lstore_pair.num_vgpr)
	.set __clang_ocl_kern_imp_calls_nested.num_agpr, max(0, .Lscale_twice.num_agpr, .Lblend.num_agpr, .Lstore_pair.num_agpr)
	.set __clang_ocl_kern_imp_calls_nested.numbered_sgpr, max(34, .Lscale_twice.numbered_sgpr, .Lblend.numbered_sgpr, .Lstore_pair.numbered_sgpr)
	.set __clang_ocl_kern_imp_calls_nested.num_named_barrier, max(0, .Lscale_twice.num_named_barrier, .Lblend.num_named_barrier, .Lstore_pair.num_named_barrier)
	.set __clang_ocl_kern_imp_calls_nested.private_seg_size, 16+max(.Lscale_twice.private_seg_size, .Lblend.private_seg_size, .Lstore_pair.private_seg_size)
	.set __clang_ocl_kern_imp_calls_nested.uses_vcc, or(0, .Lscale_twice.uses_vcc, .Lblend.uses_vcc, .Lstore_pair.uses_vcc)
	.set __clang_ocl_kern_imp_calls_nested.uses_flat_scratch, or(0, .Lscale_twice.uses_flat_scratch, .Lblend.uses_flat_scratch, .Lstore_pair.uses_flat_scratch)
	.set __clang_ocl_kern_imp_calls_nested.has_dyn_sized_stack, or(0, .Lscale_twice.has_dyn_sized_stack, .Lblend.has_dyn_sized_stack, .Lstore_pair.has_dyn_sized_stack)
	.set __clang_ocl_kern_imp_calls_nested.has_recursion, or(0, .Lscale_twice.has_recursion, .Lblend.has_recursion, .Lstore_pair.has_recursion)
	.set __clang_ocl_kern_imp_calls_nested.has_indirect_call, or(0, .Lscale_twice.has_indirect_call, .Lblend.has_indirect_call, .Lstore_pair.has_indirect_call)
	.section	.AMDGPU.csdata,"",@progbits
; Function info:
; codeLenInByte = 288
; TotalNumSgprs: 40
; NumVgprs: 32
; NumAgprs: 0
; TotalNumVgprs: 32
; ScratchSize: 32
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
        .offset:         0
        .size:           8
        .type_name:      'int*'
        .value_kind:     global_buffer
      - .address_space:  global
        .is_const:       true
        .offset:         8
        .size:           8
        .type_name:      'int*'
        .value_kind:     global_buffer
      - .offset:         16
        .size:           4
        .type_name:      int
        .value_kind:     by_value
    .group_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .kernarg_segment_size: 20
    .language:       OpenCL C
    .language_version:
      - 2
      - 0
    .max_flat_workgroup_size: 256
    .name:           calls_simple
    .private_segment_fixed_size: 0
    .sgpr_count:     39
    .sgpr_spill_count: 0
    .symbol:         calls_simple.kd
    .uses_dynamic_stack: false
    .vgpr_count:     6
    .vgpr_spill_count: 0
    .wavefront_size: 64
  - .agpr_count:     0
    .args:
      - .address_space:  global
        .offset:         0
        .size:           8
        .type_name:      'int*'
        .value_kind:     global_buffer
      - .address_space:  global
        .is_const:       true
        .offset:         8
        .size:           8
        .type_name:      'int*'
        .value_kind:     global_buffer
      - .address_space:  global
        .is_const:       true
        .offset:         16
        .size:           8
        .type_name:      'float*'
        .value_kind:     global_buffer
      - .offset:         24
        .size:           4
        .type_name:      int
        .value_kind:     by_value
    .group_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .kernarg_segment_size: 28
    .language:       OpenCL C
    .language_version:
      - 2
      - 0
    .max_flat_workgroup_size: 256
    .name:           calls_nested
    .private_segment_fixed_size: 16
    .sgpr_count:     40
    .sgpr_spill_count: 0
    .symbol:         calls_nested.kd
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
