.irpc c, 01
.macro M
.endr
