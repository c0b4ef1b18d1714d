.rept 2
  s_nop 0
.end
.endr
