# A gfx kernel of straight-line VALU code past the CP's 32640-byte window
# with a branch diamond: paths.s for sw-instruction-prefetch.test.
# Argument: the processor.
import sys


# gfx90a and gfx94x descriptors must state where AGPRs start.
ACCUM = "    .amdhsa_accum_offset 4\n" if sys.argv[1] in ("gfx90a", "gfx942", "gfx950") else ""


def adds(n):
    return "  v_add_f32_e32 v0, v1, v2\n" * n


print(f'''  .amdgcn_target "amdgcn-amd-amdhsa--{sys.argv[1]}"
  .text
  .p2align 8
  .globl paths
  .type paths,@function
paths:
  s_mov_b32 s2, 0
{adds(8158)}  s_cmp_eq_u32 s2, 0
  s_cbranch_scc1 .Lelse
{adds(1500)}  s_branch .Ljoin
.Lelse:
{adds(1500)}.Ljoin:
{adds(100)}  s_endpgm
.Lfunc_end0:
  .size paths, .Lfunc_end0-paths
  .rodata
  .p2align 6
  .amdhsa_kernel paths
    .amdhsa_next_free_vgpr 3
    .amdhsa_next_free_sgpr 8
{ACCUM}  .end_amdhsa_kernel''')
