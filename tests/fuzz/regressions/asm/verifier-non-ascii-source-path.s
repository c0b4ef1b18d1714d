	.file	0 "/build" "/s”rc/kernel.hip"
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
	.loc	0 42 0
	s_mov_b32 s4, 1
	s_mov_b32 s5, 2
	s_mov_b32 s6, 3
	.loc	0 43 5
	s_setpc_b64 s[30:31]

	.globl	plain
	.p2align	2
	.type	plain,@function
	// no debug directive in this one
plain:
	s_mov_b32 s4, 1
	s_mov_b32 s5, 2
	s_mov_b32 s6, 3
	s_setpc_b64 s[30:31]
