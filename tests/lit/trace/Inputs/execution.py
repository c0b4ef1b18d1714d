#!/usr/bin/env python3
"""execution.py ASM CODE_OBJECT < EXECUTION > SCENARIO

Turns a described execution of an instrumented kernel into a fixture
scenario whose records are the marker words that kernel's code writes: for
each `.. enter FUNC` the M0 value of FUNC's entry marker (the first
`s_mov_b32 m0, V` + `s_ttracedata` after its label in ASM), for `.. exit`
the value its return markers write. Lines other than enter/exit pass through.
EXECUTION starts with `kernel NAME`, then `wave SE CU SIMD SLOT begin=T end=T`
and `TIME enter FUNC` / `TIME exit` lines.
"""
import re
import sys

asm_path, code_object = sys.argv[1:3]
entry, exits = {}, set()
label, pending = None, None
for line in open(asm_path):
    m = re.match(r"^([A-Za-z_.$][\w.$]*):", line)
    if m:
        label = m.group(1)
        continue
    m = re.match(r"\s*s_mov_b32 m0, (\S+)", line)
    if m:
        pending = int(m.group(1), 0)
        continue
    if re.match(r"\s*s_ttracedata\b", line) and pending is not None:
        if pending & 3 == 2 and label not in entry:
            entry[label] = pending
        elif pending == 1:
            exits.add(pending)
        pending = None
    elif not re.match(r"\s*s_nop\b", line):
        pending = None
if exits != {1}:
    sys.exit("execution.py: no exit marker (m0 = 0x1) in " + asm_path)

out = ["codeobject 1 from " + code_object]
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "kernel":
        out += ["kernel 1 " + words[1]]
    elif words[0] == "wave":
        out.append(line.strip() + " kernel=1")
    elif words[1] == "enter":
        if words[2] not in entry:
            sys.exit("execution.py: %s has no entry marker" % words[2])
        out.append("%s raw %#x" % (words[0], entry[words[2]]))
    elif words[1] == "exit":
        out.append("%s raw 0x1" % words[0])
    else:
        out.append(line.strip())
print("\n".join(out))
