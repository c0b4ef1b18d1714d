.macro M
  M
  M
  M
.endm
.macro 
M
