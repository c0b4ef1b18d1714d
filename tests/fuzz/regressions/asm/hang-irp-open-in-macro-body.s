.macro Z
.irp r, 1, 2
s_nop 0
.endm
Z
