.re.rept 2000/Ùß·žload_dwordx4 v[vgprValuC:vgprValuC+3], v2, s[sgprSrdD:sgprSrdD+1]
  s_cmpk_eq_u32 s[sgprActivaPP4, V.rept 2000 0,ªOP3ªªPª