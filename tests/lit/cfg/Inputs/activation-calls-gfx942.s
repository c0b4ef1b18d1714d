/* A small kernel in the style of a TensileLite activation-call kernel
   (004 "Activation function-call flow"), ActivationType=all: the
   InsertActFuncCallAddrCalc dispatch picks one label_To_Activation_* block,
   each computes a callee address with SGetPositivePCOffset and branches to
   label_ActivationSetPCAddrEnd (a .set alias); two global-write batches call
   through s_swappc_b64; the activation bodies follow s_endpgm and return
   with s_setpc_b64 through the pair the call wrote. */
.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
.text
.protected act_all
.globl act_all
.p2align 8
.type act_all,@function
.set sgprKernArgAddress, 0
.set sgprSrdD, 4
.set sgprActivationType, 20
.set sgprOffsetActivation, 10
.set sgprOffsetBack, 62
.set vgprValuC, 4
.set label_ActivationSetPCAddrEnd, label_GW_B0_E0
act_all:
  s_load_dword s[sgprActivationType], s[sgprKernArgAddress:sgprKernArgAddress+1], 0x0
  s_load_dwordx2 s[sgprSrdD:sgprSrdD+1], s[sgprKernArgAddress:sgprKernArgAddress+1], 0x8
  v_lshlrev_b32 v2, 4, v0                            // byte offset of 4 floats
  s_waitcnt lgkmcnt(0)
  global_load_dwordx4 v[vgprValuC:vgprValuC+3], v2, s[sgprSrdD:sgprSrdD+1]
  s_cmpk_eq_u32 s[sgprActivationType], 1             // activationType == 1
  s_cbranch_scc1 label_To_Activation_Abs_VW4         // Branch if true
  s_cmpk_eq_u32 s[sgprActivationType], 5             // activationType == 5
  s_cbranch_scc1 label_To_Activation_Relu_VW4        // Branch if true
  s_cmpk_eq_u32 s[sgprActivationType], 7             // activationType == 7
  s_cbranch_scc1 label_To_Activation_Tanh_VW4        // Branch if true
label_To_Activation_None_VW4:
  s_getpc_b64 s[10:11]                               // addr of next instr
  s_add_i32 s9, label_Activation_None_VW4, 0x4       // target branch offset
  s_add_u32 s10, s10, s9                             // add target branch offset
  s_addc_u32 s11, s11, 0                             // add high and carry
  s_branch label_ActivationSetPCAddrEnd
label_To_Activation_Abs_VW4:
  s_getpc_b64 s[10:11]                               // addr of next instr
  s_add_i32 s9, label_Activation_Abs_VW4, 0x4        // target branch offset
  s_add_u32 s10, s10, s9                             // add target branch offset
  s_addc_u32 s11, s11, 0                             // add high and carry
  s_branch label_ActivationSetPCAddrEnd
label_To_Activation_Relu_VW4:
  s_getpc_b64 s[10:11]                               // addr of next instr
  s_add_i32 s9, label_Activation_Relu_VW4, 0x4       // target branch offset
  s_add_u32 s10, s10, s9                             // add target branch offset
  s_addc_u32 s11, s11, 0                             // add high and carry
  s_branch label_ActivationSetPCAddrEnd
label_To_Activation_Tanh_VW4:
  s_getpc_b64 s[10:11]                               // addr of next instr
  s_add_i32 s9, label_Activation_Tanh_VW4, 0x4       // target branch offset
  s_add_u32 s10, s10, s9                             // add target branch offset
  s_addc_u32 s11, s11, 0                             // add high and carry
  s_branch label_ActivationSetPCAddrEnd
label_GW_B0_E0:

/******************************************/
/* Global Write Batch #0 (d1,d0,vc1,vc0) = */
/******************************************/
  s_waitcnt vmcnt(0)
  s_swappc_b64 s[sgprOffsetBack:sgprOffsetBack+1], s[sgprOffsetActivation:sgprOffsetActivation+1]
  global_store_dwordx4 v2, v[vgprValuC:vgprValuC+3], s[sgprSrdD:sgprSrdD+1]

/******************************************/
/* Global Write Batch #1 (d1,d0,vc1,vc0) = */
/******************************************/
  global_load_dwordx4 v[vgprValuC:vgprValuC+3], v2, s[sgprSrdD:sgprSrdD+1] offset:1024
  s_waitcnt vmcnt(0)
  s_swappc_b64 s[sgprOffsetBack:sgprOffsetBack+1], s[sgprOffsetActivation:sgprOffsetActivation+1]
  global_store_dwordx4 v2, v[vgprValuC:vgprValuC+3], s[sgprSrdD:sgprSrdD+1] offset:1024
label_GW_End:
  s_endpgm                                           // Kernel End
label_Activation_None_VW4:
  s_setpc_b64 s[62:63]
label_Activation_Abs_VW4:
  v_and_b32 v4, 0x7fffffff, v4                       // Remove sign bit
  v_and_b32 v5, 0x7fffffff, v5                       // Remove sign bit
  v_and_b32 v6, 0x7fffffff, v6                       // Remove sign bit
  v_and_b32 v7, 0x7fffffff, v7                       // Remove sign bit
  s_setpc_b64 s[62:63]
label_Activation_Relu_VW4:
  v_max_f32 v4, v4, 0                                // x = max(0, x)
  v_max_f32 v5, v5, 0                                // x = max(0, x)
  v_max_f32 v6, v6, 0                                // x = max(0, x)
  v_max_f32 v7, v7, 0                                // x = max(0, x)
  s_setpc_b64 s[62:63]
label_Activation_Tanh_VW4:
  v_mul_f32 v4, 0x4038aa3b, v4                       //  (fused 2)
  v_exp_f32 v4, v4                                   // exp step 2
  s_nop 0                                            // 1 wait states
  v_add_f32 v4, 1.0, v4                              // e^2x + 1
  v_rcp_f32 v4, v4                                   // 1 / (e^2x + 1)
  s_nop 0                                            // 1 wait states
  v_fma_f32 v4, -2.0, v4, 1.0                        // (-2) * (1 / (e^2x + 1)) + 1
  s_setpc_b64 s[62:63]
.Lfunc_end0:
  .size act_all, .Lfunc_end0-act_all

.rodata
.p2align 6
.amdhsa_kernel act_all
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 64
  .amdhsa_accum_offset 8
.end_amdhsa_kernel
