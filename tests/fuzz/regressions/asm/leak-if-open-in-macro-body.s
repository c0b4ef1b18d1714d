	p, 1
.set UseFastPath, 1

/t D */
.macro GLOBAL_OFFSET_D vre vreq eq
vhl_2%
.if UseFastPath
 v1.0
.else
i
.endm

.pr
O_C 4
  GLOBAL_OFFSET_D vTmp, ], 