	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.text
	.globl	kern
	.p2align	8
	.type	kern,@function
kern:
	s_load_dwordx2 s[0:1], s[4:5], 0x0
	s_mov_b32 s2, 4
	v_mov_b32_e32 v0, 0
.LBB0_1:
	v_add_f32_e32 v0, 1.0, v0
	s_sub_u32 s2, s2, 1
	s_cmp_lg_u32 s2, 0
	s_cbranch_scc1 .LBB0_1
	s_waitcnt lgkmcnt(0)
	global_store_dword v0, v0, s[0:1]
	s_endpgm
.Lfunc_end0:
	.size	kern, .Lfunc_end0-kern
