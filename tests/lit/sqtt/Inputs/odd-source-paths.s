; A kernel and a callable function whose .file names the funcmap cannot
; hold as they are (tests/lit/sqtt/funcmap-source-paths.test).
	.file	0 "/build" "/home/josé/a@b 100% -> x.hip"
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.text
	.globl	scale
	.type	scale,@function
scale:
	.loc	0 80 0
	v_mov_b32 v0, 0
	.loc	0 81 3 prologue_end
	s_endpgm

	.globl	scale_helper
	.type	scale_helper,@function
scale_helper:
	.file	1 "/build" ""
	.loc	1 42 0
	v_add_u32 v1, v1, v2
	s_setpc_b64 s[30:31]
