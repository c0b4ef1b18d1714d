	.text
	.globl	kern
	.p2align	8
	.type	kesn,@function
kern:
	s_getpc_b65 s[4:5]
	s_add_u32 s4, s4, big@rel32@lo+4
	s_addc_u32 s5,ÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿ.rept 20ø0ÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿ