#!/usr/bin/env python3
"""Self-test of waitlib's wait decoding and encoding against llvm-mc.

For each target: wait instructions in every syntax waitlib reads are
assembled with `llvm-mc -show-encoding`; the 16-bit immediate LLVM encodes
must be what waitlib encodes from the counts it parsed, and each weakened
form (one counter + 1, as the mutation check writes it) must parse back to
the intended counts and assemble to waitlib's encoding. ALU waits
(s_waitcnt_depctr, s_wait_alu, ...) must not be read as memory-counter waits.
Usage: waitlib_selftest.py [--llvm-mc PATH]   (prints "waitlib self-test: OK")
"""

import argparse
import re
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import waitlib  # noqa: E402

CASES = {
    "gfx9": ["s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)", "s_waitcnt vmcnt(17) expcnt(3) lgkmcnt(5)",
             "s_waitcnt vmcnt(62)", "s_waitcnt lgkmcnt(14)", "s_waitcnt expcnt(6)",
             "s_waitcnt 0xc07f", "s_waitcnt vmcnt(1) lgkmcnt(0)"],
    "gfx10": ["s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)", "s_waitcnt vmcnt(40) lgkmcnt(33)",
              "s_waitcnt_vscnt null, 0x0", "s_waitcnt_vscnt null, 0x3e", "s_waitcnt lgkmcnt(62)",
              "s_waitcnt_lgkmcnt null, 0x2"],
    "gfx11": ["s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)", "s_waitcnt vmcnt(40) lgkmcnt(33)",
              "s_waitcnt expcnt(2)", "s_waitcnt_vscnt null, 0x5", "s_waitcnt 0xfc07"],
    "gfx12": ["s_wait_loadcnt 0x0", "s_wait_loadcnt_dscnt 0x302", "s_wait_storecnt_dscnt 0x0",
              "s_wait_kmcnt 0x1e", "s_wait_dscnt 0x3e", "s_wait_expcnt 0x6", "s_wait_samplecnt 0x0",
              "s_wait_bvhcnt 0x6", "s_wait_storecnt 0x3"],
}
CASES["gfx1250"] = [l for l in CASES["gfx12"] if "expcnt" not in l and "samplecnt" not in l
                    and "bvhcnt" not in l] + ["s_wait_xcnt 0x0", "s_wait_xcnt 0x3e", "s_wait_asynccnt 0x1",
                                     "s_wait_tensorcnt 0x0"]
TARGET_OF = {"gfx9": "gfx942", "gfx10": "gfx1030", "gfx11": "gfx1100", "gfx12": "gfx1201",
             "gfx1250": "gfx1250"}
NOT_WAITS = ["s_waitcnt_depctr 0xffe3", "s_wait_alu depctr_sa_sdst(0)", "s_nop 0",
             "s_wait_idle", "s_wait_event 0x2"]


def encodings(mc, target, lines):
    p = subprocess.run([mc, "-triple=amdgcn-amd-amdhsa", "-mcpu=" + target, "-show-encoding"],
                       input="\n".join(lines) + "\n", capture_output=True, text=True)
    if p.returncode != 0:
        raise SystemExit("llvm-mc rejects for %s:\n%s" % (target, p.stderr))
    out = []
    for line in p.stdout.splitlines():
        m = re.search(r"encoding: \[(.*)\]", line)
        if m:
            b = [int(x, 16) for x in m.group(1).split(",")]
            out.append(b[0] | (b[1] << 8))
    return out


def my_encoding(w, target):
    gen = waitlib.generation(target)
    if w.form in ("named", "simm16"):
        return waitlib._encode_simm16(gen, w.counts)
    if w.form in ("single", "sopk"):
        return list(w.counts.values())[0]
    hi, lo = waitlib._GFX12_COMBINED[w.mnemonic]
    return (w.counts[hi] << 8) | w.counts[lo]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--llvm-mc")
    args = parser.parse_args()
    mc = waitlib.find_tool(args.llvm_mc, ["llvm-mc"])
    problems = []
    checked = 0
    for gen, lines in CASES.items():
        target = TARGET_OF[gen]
        lines = ["\t" + l for l in lines]
        waits = [waitlib.parse_wait(l, target) for l in lines]
        for l, w in zip(lines, waits):
            if w is None:
                problems.append("%s: not read as a wait: %s" % (target, l.strip()))
        llvm = encodings(mc, target, lines)
        weakened, expected = [], []
        for l, w, enc in zip(lines, waits, llvm):
            if w is None:
                continue
            mine = my_encoding(w, target)
            # SOPK forms carry the count in simm16; the sdst is elsewhere.
            if mine != enc:
                problems.append("%s: %s: llvm-mc encodes 0x%x, waitlib 0x%x" % (target, l.strip(), enc, mine))
            checked += 1
            for c, n in w.waiting(target).items():
                counts = dict(w.counts)
                counts[c] = n + 1
                text = waitlib.format_wait(l, w, counts, target)
                back = waitlib.parse_wait(text, target)
                if back is None or back.counts != counts:
                    problems.append("%s: weakening %s of '%s' gives '%s', read back as %s, want %s"
                                    % (target, c, l.strip(), text.strip(),
                                       back and back.counts, counts))
                    continue
                weakened.append(text)
                expected.append(my_encoding(back, target))
        if weakened:
            got = encodings(mc, target, weakened)
            for text, want, enc in zip(weakened, expected, got):
                checked += 1
                if want != enc:
                    problems.append("%s: '%s': llvm-mc encodes 0x%x, waitlib 0x%x" % (target, text.strip(), enc, want))
        for l in NOT_WAITS:
            if waitlib.parse_wait("\t" + l, target) is not None:
                problems.append("%s: read as a memory-counter wait: %s" % (target, l))
    for p in problems:
        print("FAIL " + p)
    print("waitlib self-test: %s (%d encodings checked)" % ("FAILED" if problems else "OK", checked))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
