// A small gfx1250 kernel: a loop, a long branch (rocisa SLongBranchPositive)
// over a dead block, an activation call (SGetPositivePCOffset feeding
// s_swappc_b64) to a body placed after s_endpgm.
	.amdgcn_target "amdgcn-amd-amdhsa--gfx1250"
	.text
	.globl k
	.p2align 8
	.type k,@function
k:
	s_mov_b32 s0, 0
label_Loop:
	s_add_u32 s0, s0, 1
	s_cmp_lt_u32 s0, 10
	s_cbranch_scc1 label_Loop
	s_getpc_b64 s[80:81]
	s_add_i32 s82, label_End, 0x4
	s_add_u32 s80, s80, s82
	s_addc_u32 s81, s81, 0
	s_setpc_b64 s[80:81]
label_Dead:
	s_nop 0
label_End:
	s_getpc_b64 s[12:13]
	s_add_i32 s8, label_Activation_Relu, 0x4
	s_add_u32 s12, s12, s8
	s_addc_u32 s13, s13, 0
	s_swappc_b64 s[30:31], s[12:13]
	s_endpgm
label_Activation_Relu:
	v_max_f32 v0, 0, v0
	s_setpc_b64 s[30:31]
.Lfunc_end0:
	.size	k, .Lfunc_end0-k
