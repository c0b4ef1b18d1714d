#!/usr/bin/env python3
"""Writes a Tensile-style kernel with CALLS activation calls (gfx90a): each
call computes its callee's address with s_getpc_b64 + s_add_u32/s_addc_u32
of a label difference and enters it with s_swappc_b64; the activation
bodies are labels after the kernel's s_endpgm that return with s_setpc_b64,
as hipBLASLt writes them. The kernel has a descriptor, so markers may take
SGPRs above its count.

usage: gen-activation-kernel.py CALLS [FUNCTIONS] > k.s
"""
import sys


def main(argv):
    calls = int(argv[1])
    functions = int(argv[2]) if len(argv) > 2 else 4
    w = sys.stdout.write
    w('\t.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"\n\t.text\n\t.globl act_kernel\n'
      '\t.p2align 8\n\t.type act_kernel,@function\nact_kernel:\n'
      '\ts_load_dwordx2 s[20:21], s[0:1], 0x0\n'
      '\tv_lshlrev_b32_e32 v0, 2, v0\n\tv_mov_b32_e32 v1, 0\n'
      '\ts_waitcnt lgkmcnt(0)\n')
    for i in range(calls):
        callee = f"label_Activation_{i % functions}"
        w(f'\tglobal_load_dword v2, v0, s[20:21] offset:{(i % 64) * 4}\n'
          '\ts_waitcnt vmcnt(0)\n'
          '\ts_getpc_b64 s[40:41]\n'
          f'.Lact_pc_{i}:\n'
          f'\ts_add_u32 s40, s40, ({callee}-.Lact_pc_{i})&4294967295\n'
          f'\ts_addc_u32 s41, s41, ({callee}-.Lact_pc_{i})>>32\n'
          '\ts_swappc_b64 s[42:43], s[40:41]\n'
          f'\tglobal_store_dword v0, v2, s[20:21] offset:{(i % 64) * 4}\n')
        if i % 16 == 15:
            w('\ts_barrier\n')
    w('\ts_endpgm\n')
    for f in range(functions):
        w(f'label_Activation_{f}:\n'
          '\tv_max_f32_e32 v2, 0, v2\n'
          f'\tv_mul_f32_e32 v2, {float(f + 1)}, v2\n'
          '\ts_setpc_b64 s[42:43]\n')
    w('.Lact_kernel_end:\n\t.size act_kernel, .Lact_kernel_end-act_kernel\n\n'
      '\t.rodata\n\t.p2align 6\n\t.amdhsa_kernel act_kernel\n'
      '\t\t.amdhsa_user_sgpr_kernarg_segment_ptr 1\n'
      '\t\t.amdhsa_next_free_vgpr 8\n\t\t.amdhsa_next_free_sgpr 48\n'
      '\t\t.amdhsa_accum_offset 8\n\t.end_amdhsa_kernel\n')


if __name__ == "__main__":
    main(sys.argv)
