	.teve 1
	s_andpg‘õ