.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
.text
s_endpgm
