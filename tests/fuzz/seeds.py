#!/usr/bin/env python3
"""Writes a fuzz target's seed corpus: the repository's own test inputs.

    seeds.py asm  OUT [--clang CLANG --targets gfx942,...]
    seeds.py stir OUT [--clang CLANG --targets ... --opt STINKYTOFU_OPT]
    seeds.py funcmap OUT [--clang CLANG --targets ... --lld LD_LLD]

asm:  every .s file of tests/lit (Inputs included) and examples/, every
      `#--- name.s` section of a lit test, the regression inputs of
      tests/fuzz/regressions/asm, and with --clang each tests/kernels/*.cl
      compiled for each target (-O2), as clang writes real kernels.
stir: the same for .stir; with --opt the compiled kernels also go through
      stinkytofu-opt --print-output, so real kernels are seeds in .stir form.
funcmap: the .funcmap files and sections, and with --lld the compiled
      kernels assembled and linked into code objects.
One file per seed, named after where it came from.
"""
import argparse
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
# split-file's markers as the lit tests write them.
SECTION = re.compile(r"^(?:#|//|;)--- (\S+)\s*$")
SUFFIX = {"asm": ".s", "stir": ".stir", "funcmap": ".funcmap"}


def sections(test):
    """(name, text) of every split-file section of a lit test."""
    name, lines = None, []
    for line in test.read_text(errors="replace").splitlines(keepends=True):
        m = SECTION.match(line)
        if m:
            if name:
                yield name, "".join(lines)
            name, lines = m.group(1), []
        elif name:
            lines.append(line)
    if name:
        yield name, "".join(lines)


def flat(path):
    return str(path.relative_to(ROOT)).replace("/", "_")


def write_files(kind, out):
    suffix = SUFFIX[kind]
    sources = list((ROOT / "tests" / "lit").rglob("*" + suffix))
    sources += (ROOT / "examples").glob("*" + suffix)
    sources += (ROOT / "tests" / "fuzz" / "regressions" / kind).glob("*")
    for path in sources:
        (out / flat(path)).write_bytes(path.read_bytes())
    for test in (ROOT / "tests" / "lit").rglob("*.test"):
        for name, text in sections(test):
            if name.endswith(suffix):
                (out / (flat(test) + "_" + name)).write_text(text)


def compile_kernels(clang, targets, out, objects):
    """Each tests/kernels/*.cl for each target: the .s (or with \p objects
    the .o) files written."""
    written = []
    for target in targets:
        for kernel in sorted((ROOT / "tests" / "kernels").glob("*.cl")):
            output = out / ("kernel_%s_%s.%s" % (kernel.stem, target, "o" if objects else "s"))
            subprocess.run([clang, "-x", "cl", "-cl-std=CL2.0", "--target=amdgcn-amd-amdhsa",
                            "-mcpu=" + target, "-nogpulib", "-O2", "-c" if objects else "-S",
                            str(kernel), "-o", str(output)], check=True)
            written.append(output)
    return written


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kind", choices=sorted(SUFFIX))
    parser.add_argument("out", type=pathlib.Path)
    parser.add_argument("--clang", help="compile tests/kernels with this clang")
    parser.add_argument("--targets", default="gfx942,gfx1201",
                        help="comma-separated processors to compile the kernels for")
    parser.add_argument("--opt", help="stinkytofu-opt, to turn compiled kernels into .stir")
    parser.add_argument("--lld", help="ld.lld, to link compiled kernels into code objects")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    write_files(args.kind, args.out)
    if not args.clang:
        return 0
    objects = args.kind == "funcmap"
    if objects and not args.lld:
        return 0
    for output in compile_kernels(args.clang, args.targets.split(","), args.out, objects):
        if args.kind == "stir" and args.opt:
            subprocess.run([args.opt, "--print-output", str(output), "-o",
                            str(output.with_suffix(".stir"))], check=True)
        if objects:
            subprocess.run([args.lld, "-shared", str(output), "-o",
                            str(output.with_suffix(".co"))], check=True)
        if args.kind != "asm":
            output.unlink()
    return 0


if __name__ == "__main__":
    sys.exit(main())
