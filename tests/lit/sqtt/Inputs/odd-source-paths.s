	.file	0 "/build" "/home/josé/a@b 100% -> x.hip"
	.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"
	.text
	.globl	kern
	.type	kern,@function
kern:
	.loc	0 80 0
	s_mov_b32 s0, 0
	.loc	0 81 3 prologue_end
	s_endpgm

	.globl	helper
	.p2align	2
	.type	helper,@function
helper:
	.file	1 "/build" ""
	.loc	1 42 0
	s_mov_b32 s4, 1
	s_setpc_b64 s[30:31]
