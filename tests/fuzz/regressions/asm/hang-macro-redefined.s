.macro M
  M
  M
  M
.endm
.macro M
  s_nop 0
.endm
M
