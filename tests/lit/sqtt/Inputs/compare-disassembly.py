#!/usr/bin/env python3
"""Checks that an instrumented code object is the original plus inserted code.

Usage: compare-disassembly.py ORIGINAL.o INSTRUMENTED.o

Both are disassembled with llvm-objdump. The original's instructions must
appear, in order, in the instrumented one; everything else there must be
code the SQTT instrumentation inserts (trace markers, M0 and SCC save and
restore, scope checks). Branch targets and PC-relative constants are
compared without their values (the inserted code moves them).
Alignment padding (s_nop 0, s_code_end) is left out on both sides.
Prints `OK: <original> original, <inserted> inserted`, or the first mismatch
and exits 1.
"""
import re
import subprocess
import sys

# The SGPRs inserted code may take for its own values: a dead SGPR, a dead
# half of VCC, a dead M0.
SREG = r"(?:s\d+|vcc_lo|vcc_hi|m0)"
INSERTED = [re.compile(p.replace("SREG", SREG)) for p in (
    r"^s_ttracedata(_imm \S+)?$",
    r"^s_mov_b32 SREG, \S+$",
    r"^s_getreg_b32 SREG, hwreg\(.*\)$",
    r"^s_lshr_b32 (SREG), \S+, \1$",
    r"^s_and_b32 (SREG), \1, SREG$",
    r"^s_bitcmp1_b32 SREG, 0$",
    # the scope check's skip branch; any condition skips a marker on a
    # loop's edge (the edge's branch, or its inverse)
    r"^s_cbranch_\w+$",
    r"^s_cselect_b32 SREG, 1, 0$",
    r"^s_cmp_lg_u32 SREG, 0$",
    # a live SGPR parked in a VGPR lane and brought back
    r"^v_writelane_b32 v\d+, SREG, \d+$",
    r"^v_readlane_b32 SREG, v\d+, \d+$",
    # wait states the hazard repair gives inserted code (after a restore
    # by v_readlane, after an M0 write): gfx9/10 nops, gfx11/12 waits
    r"^s_nop \d+$",
    r"^v_nop$",
    r"^s_delay_alu instid0\(\w+\)( \| instskip\(\w+\))?( \| instid1\(\w+\))?$",
    r"^s_(wait_alu|waitcnt_depctr) (0x[0-9a-fA-F]+|\w+\(\d+\)( \w+\(\d+\))*)$",
    # gfx1250: the program's VGPR MSB state set again after inserted
    # branches (llvm-objdump forgets it at every branch)
    r"^s_set_vgpr_msb \S+$",
)]
# Scalar adds that may hold a label distance (long branches, Tensile's
# computed branch offsets): their constants move with the code.
PC_RELATIVE = re.compile(r"^(s_add_u32|s_addc_u32|s_sub_u32|s_subb_u32|s_add_i32|s_sub_i32|"
                         r"s_addk_i32|s_add_co_u32|s_add_co_ci_u32|s_sub_co_u32|"
                         r"s_sub_co_ci_u32|s_add_co_i32|s_sub_co_i32|s_add_pc_i64)\b")


def functions(obj):
    """Instructions per symbol, without the alignment padding at the end."""
    out = subprocess.run(["llvm-objdump", "-d", "--no-show-raw-insn", "--no-leading-addr",
                          obj], check=True, capture_output=True, text=True).stdout
    funcs = []
    for line in out.splitlines():
        m = re.match(r"^<(.*)>:$", line)
        if m:
            funcs.append((m.group(1), []))
            continue
        if not line.startswith("\t") or not funcs:
            continue
        text = line.split("//")[0].strip()
        funcs[-1][1].append(re.sub(r"\s+", " ", text))
    # `.p2align` pads with s_nop 0 (and s_code_end after the last function);
    # the padding moves with the code, so neither side keeps any.
    return [(name, [i for i in insts if i not in ("s_nop 0", "s_code_end")])
            for name, insts in funcs]


def normalize(inst):
    mnemonic = inst.split(" ")[0]
    if mnemonic.startswith("s_cbranch") or mnemonic == "s_branch":
        return mnemonic
    if PC_RELATIVE.match(inst):
        mnemonic, _, operands = inst.partition(" ")
        # gfx11+ print a literal as lit(0x2c), gfx1250's 64-bit one lit64(...)
        operands = ", ".join("<imm>" if re.fullmatch(r"(lit(64)?\()?-?(0x[0-9a-fA-F]+|\d+)\)?", op)
                             else op
                             for op in operands.split(", "))
        return f"{mnemonic} {operands}"
    return inst


def compare(name, orig, inst):
    """Matches the original instructions in order; an instrumented one that
    matches the next original but may also be inserted (a skip branch with
    the original branch's condition) is a choice, undone when the rest
    does not match."""
    i = j = inserted = 0
    choices = []  # (i, j, inserted) where inst[j] matched orig[i] but is insertable
    steps, limit = 0, 64 * (len(inst) + 1)
    failure = None
    while j < len(inst) or i != len(orig):
        steps += 1
        insertable = j < len(inst) and any(p.match(inst[j]) for p in INSERTED)
        if j < len(inst) and i < len(orig) and orig[i] == inst[j]:
            if insertable:
                choices.append((i, j, inserted))
            i += 1
            j += 1
            continue
        if insertable:
            inserted += 1
            j += 1
            continue
        if failure is None:
            failure = (i, j)
        if not choices or steps > limit:
            i, j = failure
            if j < len(inst):
                print(f"{name}: MISMATCH at instrumented instruction {j + 1}: '{inst[j]}', "
                      f"expected original instruction {i + 1}: "
                      f"'{orig[i] if i < len(orig) else '<end>'}'")
            else:
                print(f"{name}: MISSING original instruction {i + 1}: '{orig[i]}'")
            return None
        i, j, inserted = choices.pop()
        inserted += 1
        j += 1
    return inserted


def main():
    orig = functions(sys.argv[1])
    inst = functions(sys.argv[2])
    if [n for n, _ in orig] != [n for n, _ in inst]:
        # Inserted code between two labels of one address (a marker at the
        # start of an empty block) makes llvm-objdump show a symbol it hid:
        # compare the whole streams then.
        orig = [("<all>", [i for _, insts in orig for i in insts])]
        inst = [("<all>", [i for _, insts in inst for i in insts])]
    total_orig = total_inserted = 0
    for (name, o), (_, n) in zip(orig, inst):
        inserted = compare(name, [normalize(x) for x in o], [normalize(x) for x in n])
        if inserted is None:
            return 1
        total_orig += len(o)
        total_inserted += inserted
    print(f"OK: {total_orig} original, {total_inserted} inserted")
    return 0


if __name__ == "__main__":
    sys.exit(main())
