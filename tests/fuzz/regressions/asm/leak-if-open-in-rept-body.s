.rept 2
.if 1
.else
.endr
