	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.text
	global_load_b32 scope:'a
