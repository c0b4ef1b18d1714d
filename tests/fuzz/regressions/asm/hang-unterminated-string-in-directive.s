x%amdgcn_target "amd
	.text

