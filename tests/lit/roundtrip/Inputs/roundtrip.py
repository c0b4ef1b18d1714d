#!/usr/bin/env python3
"""The round trips of one target over the test kernels.

    roundtrip.py --target GFX --clang CLANG --opt STINKYTOFU_OPT --work DIR

Compiles calls, memory, atomics and loops (tests/kernels) at -O0 and -O2, and
loops at -O2 with -mllvm -amdgpu-s-branch-bits=5 (LLVM relaxes its branches
into long-branch sequences), into DIR/s/<kernel>-<level>[-bb5].s. Each must
come back byte for byte from
    .s -> .s,   .s -> .stir -> .s,   .stir -> .stir.
Each direction is one batch run of stinkytofu-opt over every file (batch
outputs are those of single runs, tool/batch.test): one process per
direction instead of one per file, which is most of this test's time under
the sanitizers. Prints one line per file that differs and a count; exit 1 on
any difference or failure.
"""

import argparse
import difflib
import subprocess
import sys
from pathlib import Path

KERNELS_DIR = Path(__file__).resolve().parents[3] / "kernels"
VARIANTS = [(kernel, level, []) for kernel in ("calls", "memory", "atomics", "loops")
            for level in ("O0", "O2")] + [("loops", "O2", ["-mllvm", "-amdgpu-s-branch-bits=5"])]


def run(cmd):
    r = subprocess.run([str(c) for c in cmd], capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit("roundtrip: %s failed (exit %d):\n%s" % (" ".join(map(str, cmd[:3])),
                                                            r.returncode, r.stderr))


def differs(expected, actual, what):
    a, b = expected.read_text(), actual.read_text()
    if a == b:
        return False
    print("roundtrip: %s: %s/%s differs from %s/%s" % (what, actual.parent.name, actual.name,
                                                       expected.parent.name, expected.name))
    sys.stdout.writelines(list(difflib.unified_diff(a.splitlines(True), b.splitlines(True),
                                                    str(expected), str(actual), n=1))[:20])
    return True


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--target", required=True)
    parser.add_argument("--clang", required=True)
    parser.add_argument("--opt", required=True)
    parser.add_argument("--work", required=True, type=Path)
    args = parser.parse_args()

    dirs = {name: args.work / name for name in ("s", "rt", "stir", "stir-s", "rt-stir")}
    for d in dirs.values():
        d.mkdir(parents=True, exist_ok=True)
    sources = []
    for kernel, level, flags in VARIANTS:
        source = dirs["s"] / ("%s-%s%s.s" % (kernel, level, "-bb5" if flags else ""))
        run([args.clang, "-x", "cl", "-cl-std=CL2.0", "--target=amdgcn-amd-amdhsa",
             "-mcpu=" + args.target, "-nogpulib", "-" + level, *flags, "-S",
             KERNELS_DIR / (kernel + ".cl"), "-o", source])
        sources.append(source)
    stirs = [dirs["stir"] / (s.stem + ".stir") for s in sources]
    # Assembly takes its target from .amdgcn_target; .stir inputs get --arch.
    run([args.opt, *sources, "-o", dirs["rt"]])
    run([args.opt, *sources, "--print-output", "--output-dir", dirs["stir"],
         "--output-suffix", ".stir"])
    run([args.opt, "--arch", args.target, *stirs, "--emit-asm", "--output-dir", dirs["stir-s"],
         "--output-suffix", ".s"])
    run([args.opt, "--arch", args.target, *stirs, "--output-dir", dirs["rt-stir"],
         "--output-suffix", ".stir"])

    failures = 0
    for source, stir in zip(sources, stirs):
        failures += differs(source, dirs["rt"] / source.name, ".s -> .s")
        failures += differs(source, dirs["stir-s"] / source.name, ".s -> .stir -> .s")
        failures += differs(stir, dirs["rt-stir"] / stir.name, ".stir -> .stir")
    print("%s: %d files, %d round trips, %d differ" % (args.target, len(sources),
                                                      3 * len(sources), failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
