/* A small kernel in the shape of an older Tensile gfx900 kernel: the skip
   over the main loop uses the old long-branch form (s_getpc_B64, offset by
   s_add_u32 with 0x4, commuted s_addc_u32 sD+1, 0, sD+1, a target label
   without the label_ prefix), wrapped in a conditional short branch. */
.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
.text
.globl old_form
.p2align 8
.type old_form,@function
.set sgprLoopCounterL, 12
.set vgprValuC, 0
.macro MAC_2x1 vA vB
  v_mac_f32 v[vgprValuC+0], v[\vA] v[\vB]
.endm
old_form:
  s_load_dword s[sgprLoopCounterL], s[0:1], 0x0
  v_mov_b32 v[vgprValuC+0], 0x0                      // initC
  s_waitcnt lgkmcnt(0)
  s_cmp_eq_u32 s[sgprLoopCounterL], 0                // at last iteration?

/* after InitC, skip to end of prefetch last iter if numIter==0 */
  s_cbranch_scc0 label_NoBranch_10                   // Only branch on scc1
  s_getpc_B64 s[66:67]                               // addr of next instr
  s_add_u32 s68, PrefetchGlobalLastIterEnd_4, 0x4    // target branch offset
  s_add_u32 s66, s66, s68                            // add target branch offset
  s_addc_u32 s67, 0, s67                             // add high and carry
  s_setpc_b64 s[66:67]                               // branch to PrefetchGlobalLastIterEnd_4
label_NoBranch_10:
label_0001:
  MAC_2x1 1 2
  s_sub_u32 s[sgprLoopCounterL], s[sgprLoopCounterL], 1 // dec counterL
  s_cmp_eq_i32 s[sgprLoopCounterL], 0x0              // counterL==0
  s_cbranch_scc0 label_0001                          // restart LoopL
PrefetchGlobalLastIterEnd_4:
  s_endpgm
.Lfunc_end0:
  .size old_form, .Lfunc_end0-old_form
