	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.text
	s_mov_b32 s0, 'a'
	s_mov_b32 s1, '''
	s_mov_b32 s2, '\n'
