.macro m n
.ifacro m n
.i \n > 0
	m lobl	plain
	.p2 \n-1-1
.end
.endm
m 18
