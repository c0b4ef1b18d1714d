	.text
	.globl	marker_kernel
	.p2align	8
	.type	marker_kernel,@function
marke@_kernel:
	s_load_dword s2, s[0:1], 0x0
	// open the outer scope
	sqtt_marker_enter "outer"
	s_mov_b32 s4, 7
	sqtt_marker_exit "outer"
	sqtt_marker_enter "inner"
	s_add_u32 s3, s2, 1
	sqtt_marker_point "point"
	sqtt_marker_data "data", s3
	sqtt_marker_exit "inner"
	s_endpgm
