#!/usr/bin/env python3
"""Checks that no s_clause of an assembly file covers a non-memory instruction.

Usage: check-clauses.py FILE.s

`s_clause N` makes the N+1 instructions after it one memory clause. Each of
them must be a memory instruction or an s_set_vgpr_msb (which LLVM puts
among them and counts); inserted code (a scope check, a branch, a label, a
marker) inside a clause is reported. Prints `OK: <n> clauses` or the first
offender and exits 1.
"""
import re
import sys

MEMBER = re.compile(r"^(global_|buffer_|flat_|scratch_|ds_|s_load_|s_buffer_load_|image_|"
                    r"tbuffer_|s_prefetch_|s_set_vgpr_msb\b)")


def main():
    lines = open(sys.argv[1]).read().splitlines()
    clauses = 0
    for n, line in enumerate(lines):
        text = line.split(";")[0].strip()
        m = re.match(r"^s_clause\s+(\S+)$", text)
        if not m:
            continue
        clauses += 1
        left = int(m.group(1), 0) + 1
        k = n + 1
        while left and k < len(lines):
            member = lines[k].split(";")[0].strip()
            k += 1
            if member.endswith(":"):  # a label: a branch target in the clause
                print(f"{sys.argv[1]}:{k}: label '{member}' inside the s_clause at line {n + 1}")
                return 1
            if not member or member.startswith("."):  # a directive
                continue
            if not MEMBER.match(member):
                print(f"{sys.argv[1]}:{k}: '{member}' inside the s_clause at line {n + 1}")
                return 1
            left -= 1
    print(f"OK: {clauses} clauses")
    return 0


if __name__ == "__main__":
    sys.exit(main())
