#!/usr/bin/env python3
"""Waits per loop body: a kernel against what stinkytofu-opt makes of it.

For each kernel K (an .s file, or an .s.txt copied to .s) and each pipeline
(`-O3`, and remove + insert: `--StinkyRemoveWaitCntPass
--StinkyWaitCntInsertionPass`), the input and the output are assembled with
llvm-mc and disassembled with llvm-objdump. The code is compared as the
hardware runs it, so kernels whose code is `.long` words (whose waits a
count of the text does not see) are compared like the others.

A loop body is the code from a backward branch's target to the last branch
back to that target; the loops of the three are paired in address order
(the passes keep the control flow; a kernel whose loops differ in number is
reported, not compared). Per loop body:
  - waits: the s_waitcnt instructions (vmcnt / expcnt / lgkmcnt, and the
    s_waitcnt_vscnt / _lgkmcnt forms);
  - stricter: "more" when one side has more waits than the other; a
    counter when, with each side's counts on it sorted from the strictest,
    one of the side's is smaller than the other's at the same rank (its
    k-th strictest wait waits for more than the other's k-th strictest), or
    it waits on the counter more often.
Remove + insert passes a loop when it is no stricter than the input, or,
where the input is not correct (`-O3`, which keeps every wait of the input
and adds those the input's own findings need, is stricter than the input
there), no stricter than `-O3`'s.

Usage: loop_waits.py [--opt PATH] [--work DIR] [-v] KERNEL...
Exit status 1 when a loop does not pass.
"""

import argparse
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LLVM_BIN = Path("/usr/lib/llvm-22/bin")
PIPELINES = {
    "o3": ["-O3"],
    "ri": ["--StinkyRemoveWaitCntPass", "--StinkyWaitCntInsertionPass"],
}
TARGET = re.compile(r'amdgcn-amd-amdhsa--(gfx[0-9a-f]+)')
# objdump: `\tmnemonic operands   // ADDRESS: WORDS`
LINE = re.compile(r'^\s+(\S+)\s*(.*?)\s*//\s*([0-9A-Fa-f]+):\s*([0-9A-Fa-f]{8})')
COUNTER = re.compile(r'(vmcnt|expcnt|lgkmcnt|vscnt)\((\d+)\)')


def run(cmd):
    r = subprocess.run([str(c) for c in cmd], capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit("%s: %s" % (" ".join(str(c) for c in cmd), r.stderr.strip()[:800]))
    return r.stdout


def disassemble(src, target, work):
    """(address, mnemonic, operands, first word) of every instruction of
    \p src."""
    obj = work / (src.stem + ".o")
    run([LLVM_BIN / "llvm-mc", "-triple=amdgcn-amd-amdhsa", "-mcpu=" + target,
         "-filetype=obj", src, "-o", obj])
    insts = []
    for line in run([LLVM_BIN / "llvm-objdump", "-d", "--mcpu=" + target, obj]).splitlines():
        m = LINE.match(line)
        if m:
            insts.append((int(m.group(3), 16), m.group(1), m.group(2), int(m.group(4), 16)))
    return insts


def branch_target(address, mnemonic, word):
    """Where a SOPP branch goes: its simm16 is the low half of its word
    (objdump prints a label for it where the object has one)."""
    if not (mnemonic.startswith("s_cbranch_") or mnemonic == "s_branch"):
        return None
    simm16 = word & 0xffff
    simm16 -= 0x10000 if simm16 & 0x8000 else 0
    return address + 4 + 4 * simm16


def loops(insts):
    """[(start, end)] of every loop body: a backward branch's target and the
    last branch back to it, in address order."""
    last_back = {}
    for address, mnemonic, _, word in insts:
        t = branch_target(address, mnemonic, word)
        if t is not None and t <= address:
            last_back[t] = address
    return sorted(last_back.items())


def waits(insts, start, end):
    """The counts of each s_waitcnt in [start, end]: {counter: count}, an
    absent counter not waited on."""
    out = []
    for address, mnemonic, operands, _ in insts:
        if start <= address <= end and mnemonic.startswith("s_waitcnt"):
            counts = {c: int(n) for c, n in COUNTER.findall(operands)}
            if mnemonic in ("s_waitcnt_vscnt", "s_waitcnt_lgkmcnt"):
                field = "vscnt" if mnemonic == "s_waitcnt_vscnt" else "lgkmcnt"
                imm = operands.split(",")[-1].strip()
                counts = {field: int(imm, 0)} if re.fullmatch(r"(0x)?[0-9a-fA-F]+", imm) else {}
            if counts:
                out.append(counts)
    return out


def stricter(theirs, ours):
    """The counters on which \p ours (waits of the output) is stricter than
    \p theirs (the input's), by rank."""
    bad = []
    for counter in sorted({c for w in theirs + ours for c in w}):
        a = sorted(w[counter] for w in theirs if counter in w)
        b = sorted(w[counter] for w in ours if counter in w)
        if len(b) > len(a) or any(y < x for x, y in zip(a, b)):
            bad.append(counter)
    return bad


def spell(ws):
    return " ".join(sorted("%s%d" % (c[0], n) for w in ws for c, n in w.items()))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("kernels", nargs="+")
    p.add_argument("--opt", default=str(ROOT / "build/bin/stinkytofu-opt"))
    p.add_argument("--work", default="/tmp/loop-waits")
    p.add_argument("-v", action="store_true", help="print the counts of each loop's waits")
    args = p.parse_args()
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    failed = 0
    print("kernel | loop | waits in / o3 / ri | stricter: o3 vs in, ri vs in, ri vs o3 | verdict")
    for k in args.kernels:
        text = Path(k).read_text(errors="replace")
        m = TARGET.search(text)
        if not m:
            print("%s: no .amdgcn_target" % k)
            failed += 1
            continue
        target = m.group(1)
        name = Path(k).name.replace(".s.txt", "").replace(".s", "")
        src = work / (name + ".in.s")
        src.write_text(text)
        code = {"in": disassemble(src, target, work)}
        for pipe, flags in PIPELINES.items():
            out = work / ("%s.%s.s" % (name, pipe))
            run([args.opt, src] + flags + ["-o", out])
            code[pipe] = disassemble(out, target, work)
        bodies = {side: loops(insts) for side, insts in code.items()}
        if len({len(b) for b in bodies.values()}) != 1:
            print("%s | loops differ: %s" % (name, {s: len(b) for s, b in bodies.items()}))
            failed += 1
            continue
        for n in range(len(bodies["in"])):
            w = {side: waits(code[side], *bodies[side][n]) for side in code}

            def worse(ref, side):
                bad = stricter(w[ref], w[side])
                if len(w[side]) > len(w[ref]):
                    bad.insert(0, "more")
                return bad

            o3_in, ri_in, ri_o3 = worse("in", "o3"), worse("in", "ri"), worse("o3", "ri")
            # -O3 keeps the input's waits and adds those the input's own
            # findings need: the input made correct, the reference where the
            # input is not.
            if not ri_in:
                verdict = "ok"
            elif not ri_o3 and o3_in:
                verdict = "ok against -O3 (input's findings)"
            else:
                verdict = "FAIL"
                failed += 1
            print("%s | %d (0x%x-0x%x) | %d / %d / %d | %s; %s; %s | %s" % (
                name, n, *bodies["in"][n], len(w["in"]), len(w["o3"]), len(w["ri"]),
                ",".join(o3_in) or "-", ",".join(ri_in) or "-", ",".join(ri_o3) or "-", verdict))
            if args.v:
                for side in code:
                    print("    %-3s %s" % (side, spell(w[side])))
    print("loop waits: %s" % ("OK" if not failed else "%d loops FAILED" % failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
