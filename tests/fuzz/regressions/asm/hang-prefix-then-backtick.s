	.amdgcn_target "amdgcn-amd-amdhsa--gfx1250"
	.text
	v_add_f32 foo:`
