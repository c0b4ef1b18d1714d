#!/usr/bin/env python3
"""A capture of every instruction of an assembled object, and its check.

  objdump_capture.py scenario OBJDUMP NM [--labels] > SCN
      From `llvm-objdump -d` output: a code.json row per instruction (code
      object 1, loaded at 0x10000; with --labels a `; name` row per symbol)
      and one wave executing, in address order, each instruction inside a
      function (`llvm-nm -S` output NM: symbol address and size); the
      padding between functions is never executed. The addresses are the
      assembler's: what `sqtt-trace hotspots --source` must find again from
      the .s alone.
  objdump_capture.py check JSON OBJDUMP NM SOURCE
      The hotspots JSON maps every executed address: no unmapped address,
      every instruction has a line, and that line of SOURCE holds the
      instruction's mnemonic.
"""
import json
import re
import sys

BASE = 0x10000
INSTRUCTION = re.compile(r"^\s+(\S.*?)\s*//\s*([0-9A-Fa-f]+):")
SYMBOL = re.compile(r"^[0-9A-Fa-f]+ <(.+)>:$")


def read_objdump(path):
    rows = []
    for line in open(path):
        m = SYMBOL.match(line.rstrip("\n"))
        if m:
            rows.append(("label", m.group(1), None))
            continue
        m = INSTRUCTION.match(line)
        if m:
            rows.append(("inst", m.group(1), int(m.group(2), 16)))
    return rows


def function_ranges(nm_path):
    ranges = []
    for line in open(nm_path):
        parts = line.split()
        if len(parts) == 4 and parts[2] in "Tt":
            start = int(parts[0], 16)
            ranges.append((start, start + int(parts[1], 16)))
    return ranges


def executed_rows(objdump_path, nm_path):
    ranges = function_ranges(nm_path)
    return [r for r in read_objdump(objdump_path)
            if r[0] == "inst" and any(a <= r[2] < b for a, b in ranges)]


def scenario(path, nm_path, labels):
    rows = read_objdump(path)
    inside = {r[2] for r in executed_rows(path, nm_path)}
    out = ["kernel 1 k"]
    executed = []
    for i, (kind, text, addr) in enumerate(rows):
        if kind == "label":
            nxt = next((r for r in rows[i + 1:] if r[0] == "inst"), None)
            if labels and nxt:
                out.append("code 1 %#x ; %s" % (BASE + nxt[2], text))
            continue
        out.append("code 1 %#x %s" % (BASE + addr, text))
        if addr in inside:
            executed.append(addr)
    out.append("wave 0 1 0 0 kernel=1 begin=0 end=%d" % (8 * len(executed) + 100))
    out += ["  %d inst %#x" % (10 + 8 * i, BASE + a) for i, a in enumerate(executed)]
    print("\n".join(out))


def check(report_path, objdump_path, nm_path, source_path):
    report = json.load(open(report_path))
    lines = open(source_path).read().split("\n")
    executed = executed_rows(objdump_path, nm_path)
    if report["unmapped"]:
        sys.exit("FAIL: unmapped: %s" % report["unmapped"][:5])
    mapped = [i for i in report["instructions"] if i["executions"]]
    if len(mapped) != len(executed):
        sys.exit("FAIL: %d executed instructions in the report, %d in the object"
                 % (len(mapped), len(executed)))
    for i in mapped:
        if "line" not in i:
            sys.exit("FAIL: no line for %s" % i)
        mnemonic = i["isa"].split()[0]
        base = re.sub(r"_(e32|e64|sdwa|dpp)$", "", mnemonic)
        if "padding_before" in i:
            base = ".p2align" if mnemonic == "s_nop" else "?"
        if base not in lines[i["line"] - 1] and "padding_before" not in i:
            sys.exit("FAIL: line %d (%r) is not %s" % (i["line"], lines[i["line"] - 1], mnemonic))
    print("ok: %d executed addresses mapped to %s lines, %d functions placed"
          % (len(mapped), source_path.split("/")[-1], len(report["source"]["placed"])))


if __name__ == "__main__":
    if sys.argv[1] == "scenario":
        scenario(sys.argv[2], sys.argv[3], "--labels" in sys.argv[4:])
    else:
        check(*sys.argv[2:6])
