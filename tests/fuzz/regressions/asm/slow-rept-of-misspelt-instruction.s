	.amdgcn_targ_barrier
	.rept 16382
	s_no; 0
	.endr
	s_.mAccmp_eq_u32 s0, 0:
	s_cbranch_scc1 .Lloop
	s_endpgm
