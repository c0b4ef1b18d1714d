#!/usr/bin/env python3
"""execution.py ASM CODE_OBJECT < EXECUTION > SCENARIO

Turns a described execution of an instrumented kernel into a fixture
scenario whose records are the marker words that kernel's code writes, in
the form it writes them:
  s_mov_b32 m0, V / s_nop / s_ttracedata         -> TIME raw V
  s_ttracedata_imm V                             -> TIME raw V imm
  s_getreg_b32 sX, hwreg(HW_REG_SHADER_CYCLES_LO, ..) / s_lshl_b32 /
  s_or_b32 m0, sX, V / s_ttracedata              -> TIME packed value V delay=D
For `TIME enter FUNC` the word is FUNC's entry marker (the first marker
after its label), for `TIME exit` the return marker (0x1). EXECUTION starts
with `kernel NAME`, then `wave SE CU SIMD SLOT begin=T end=T` and the
enter/exit lines, each optionally ending in `delay=D` (the cycles the record
takes to reach the trace: only clock-packed headers let the decoder see it).
"""
import re
import sys

asm_path, code_object = sys.argv[1:3]
entry, exit_form = {}, None
label, pending = None, None
for line in open(asm_path):
    m = re.match(r"^([A-Za-z_.$][\w.$]*):", line)
    if m:
        label, pending = m.group(1), None
        continue
    m = re.match(r"\s*s_mov_b32 m0, (\S+)", line)
    if m:
        pending = ("raw", int(m.group(1), 0))
        continue
    m = re.match(r"\s*s_or_b32 m0, s\d+, (\S+)", line)
    if m:
        pending = ("packed", int(m.group(1), 0))
        continue
    m = re.match(r"\s*s_ttracedata_imm (\S+)", line)
    marker = ("imm", int(m.group(1), 0)) if m else None
    if re.match(r"\s*s_ttracedata\s*$", line) and pending:
        marker = pending
    if marker:
        if marker[1] & 3 == 2:
            entry.setdefault(label, marker)
        elif marker[1] == 1:
            exit_form = marker
        pending = None
    elif not re.match(r"\s*(s_nop|s_getreg_b32|s_lshl_b32)\b", line):
        pending = None
if not exit_form:
    sys.exit("execution.py: no exit marker in " + asm_path)


def record(time, marker, delay):
    form, value = marker
    if form == "packed":
        return "%s packed value %#x delay=%d" % (time, value, delay)
    return "%s raw %#x%s" % (time, value, " imm" if form == "imm" else "")


out = ["codeobject 1 from " + code_object]
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    delay = 0
    if words[-1].startswith("delay="):
        delay = int(words.pop()[len("delay="):])
    if words[0] == "kernel":
        out.append("kernel 1 " + words[1])
    elif words[0] == "wave":
        out.append(" ".join(words) + " kernel=1")
    elif words[1] == "enter":
        if words[2] not in entry:
            sys.exit("execution.py: %s has no entry marker" % words[2])
        out.append(record(words[0], entry[words[2]], delay))
    elif words[1] == "exit":
        out.append(record(words[0], exit_form, delay))
    else:
        out.append(" ".join(words))
print("\n".join(out))
