#!/usr/bin/env python3
"""Code object round trip: disassembled by stinkytofu-opt, assembled back by LLVM.

For every kernel file of tests/kernels/*.cl x target x variant (-O0, -O2,
each with -nogpulib, with the device libraries (gfx900, gfx906, gfx908,
gfx90a, gfx1030: Debian's bitcode) and with long branches forced by
-mllvm -amdgpu-s-branch-bits=5), compiled by clang-22 and linked by ld.lld
into a code object (a -nogpulib kernel file that calls the device library
does not link: skipped, counted):
  1. `stinkytofu-opt K.co -o K.s` (the binary read into the IR, written as
     assembly) and `stinkytofu-opt K.co --print-output -o K.stir`, then
     `stinkytofu-opt --arch T K.stir --emit-asm -o K.stir.s`;
  2. each `.s` assembled by llvm-mc and linked by ld.lld -shared;
  3. the new code object's `.text` must be the original's byte for byte, and
     every kernel descriptor (`NAME.kd`) its 64 bytes (the code entry offset
     may differ only if the new one still points at the kernel's symbol).
Prints one line per target (code objects, kernels, failures) and
"binary round trip: OK" when nothing failed; exit status 1 otherwise.

Usage: binary_roundtrip.py [--targets gfx942,...] [--variants O0,O2,O2-longbr,...]
         [--kernels calls,loops] [--opt PATH] [--clang PATH] [--llvm-mc PATH]
         [--lld PATH] [-j N] [--work DIR]
"""

import argparse
import struct
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "waitcnt"))
sys.path.insert(0, str(ROOT / "bench"))
import build_corpus  # noqa: E402
import waitlib  # noqa: E402
from waitlib import find_tool, parallel_map, run, split_list  # noqa: E402

# The corpus sample's variants: -O0/-O2, with the device libraries (the
# targets Debian has them for) and with long branches forced.
VARIANTS = build_corpus.VARIANTS


def elf_sections(data):
    """{name: (addr, offset, size, type, link)} and the symbols of an ELF64LE file."""
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    headers = []
    for i in range(shnum):
        name, type_, flags, addr, off, size, link = struct.unpack_from(
            "<IIQQQQI", data, shoff + i * shentsize)
        headers.append((name, type_, addr, off, size, link))
    strtab = headers[shstrndx]

    def cstr(off):
        return data[off:data.index(b"\0", off)].decode()

    sections = {cstr(strtab[3] + h[0]): h[1:] for h in headers}
    symbols = {}
    for h in headers:
        if h[1] != 2:  # SHT_SYMTAB
            continue
        names = headers[h[5]]
        for off in range(h[3], h[3] + h[4], 24):
            name, info, other, shndx, value, size = struct.unpack_from("<IBBHQQ", data, off)
            if name and shndx:
                symbols[cstr(names[3] + name)] = value
    return sections, symbols


def text_and_descriptors(path):
    data = Path(path).read_bytes()
    sections, symbols = elf_sections(data)
    _, text_addr, text_off, text_size, _ = sections[".text"]
    text = data[text_off:text_off + text_size]
    descriptors = {}
    for name, value in symbols.items():
        if not name.endswith(".kd"):
            continue
        rodata = sections[".rodata"]
        kd = data[rodata[2] + value - rodata[1]:][:64]
        entry, = struct.unpack_from("<q", kd, 16)
        kernel = name[:-3]
        descriptors[kernel] = (kd[:16] + kd[24:], value + entry == symbols.get(kernel))
    return text, descriptors


def check_case(case, args):
    kernel, target, variant = case
    stem = Path(args.work) / ("%s-%s-%s" % (kernel, target, variant))
    failures = []

    def step(cmd, what):
        r = run(cmd)
        if r.rc != 0:
            failures.append("%s: %s" % (what, (r.err or r.out).strip()[:2000]))
        return r.rc == 0

    flags, devlib = VARIANTS[variant]
    source = Path(args.kernels_dir) / (kernel + ".cl")
    original = str(stem) + ".co"
    if not (step([args.clang, "-x", "cl", "-cl-std=CL2.0", "--target=amdgcn-amd-amdhsa",
                  "-mcpu=" + target] + flags + ["-c", source, "-o", str(stem) + ".o"], "clang")):
        return case, 0, failures
    r = run([args.lld, "-shared", str(stem) + ".o", "-o", original])
    if r.rc != 0:
        if not devlib and "undefined hidden symbol" in r.err:
            return case, None, []
        failures.append("ld.lld: " + r.err.strip()[:2000])
        return case, 0, failures
    outputs = [str(stem) + ".s", str(stem) + ".stir.s"]
    if not (step([args.opt, original, "-o", outputs[0]], "stinkytofu-opt .co -> .s")
            and step([args.opt, original, "--print-output", "-o", str(stem) + ".stir"],
                     "stinkytofu-opt .co -> .stir")
            and step([args.opt, "--arch", target, str(stem) + ".stir", "--emit-asm",
                      "-o", outputs[1]], "stinkytofu-opt .stir -> .s")):
        return case, 0, failures
    want_text, want_kds = text_and_descriptors(original)
    for asm in outputs:
        obj, linked = asm + ".o", asm + ".co"
        if not (step([args.llvm_mc, "-triple=amdgcn-amd-amdhsa", "-mcpu=" + target,
                      "-filetype=obj", asm, "-o", obj], "llvm-mc " + Path(asm).name)
                and step([args.lld, "-shared", obj, "-o", linked], "ld.lld " + Path(asm).name)):
            continue
        text, kds = text_and_descriptors(linked)
        if text != want_text:
            at = next((i for i, (a, b) in enumerate(zip(text, want_text)) if a != b),
                      min(len(text), len(want_text)))
            failures.append("%s: .text differs at offset 0x%x (%d vs %d bytes)"
                            % (Path(asm).name, at, len(text), len(want_text)))
        for name, (fields, entry_ok) in want_kds.items():
            got = kds.get(name)
            if got is None:
                failures.append("%s: no descriptor %s.kd" % (Path(asm).name, name))
            elif got[0] != fields:
                failures.append("%s: descriptor %s.kd differs" % (Path(asm).name, name))
            elif not (entry_ok and got[1]):
                failures.append("%s: descriptor %s.kd does not point at %s"
                                % (Path(asm).name, name, name))
    return case, len(want_kds), failures


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--targets", action="append", help="comma-separated (default: all 11)")
    parser.add_argument("--variants", action="append",
                        help="comma-separated of %s (default: all)" % ", ".join(VARIANTS))
    parser.add_argument("--kernels", action="append", help="kernel file stems (default: all)")
    parser.add_argument("--kernels-dir", default=str(waitlib.DEFAULT_KERNELS))
    parser.add_argument("--opt", default=str(waitlib.DEFAULT_OPT))
    parser.add_argument("--clang")
    parser.add_argument("--llvm-mc")
    parser.add_argument("--lld")
    parser.add_argument("-j", type=int, default=2)
    parser.add_argument("--work", required=True)
    args = parser.parse_args()
    targets = split_list(args.targets, waitlib.TARGETS, "target") or list(waitlib.TARGETS)
    variants = split_list(args.variants, list(VARIANTS), "variant") or list(VARIANTS)
    kernels = split_list(args.kernels, None, "kernel") or sorted(
        p.stem for p in Path(args.kernels_dir).glob("*.cl"))
    args.clang = find_tool(args.clang, ["clang"])
    args.llvm_mc = find_tool(args.llvm_mc, ["llvm-mc"])
    args.lld = find_tool(args.lld, ["ld.lld"])
    Path(args.work).mkdir(parents=True, exist_ok=True)

    cases = [(k, t, v) for t in targets for k in kernels for v in variants
             if not VARIANTS[v][1] or t in build_corpus.DEVICE_LIB_TARGETS]
    results = parallel_map(lambda c: check_case(c, args), cases, args.j)
    objects, kernel_count, failed = defaultdict(int), defaultdict(int), defaultdict(int)
    skipped = defaultdict(int)
    for (kernel, target, variant), count, failures in results:
        if count is None:
            skipped[target] += 1
            continue
        objects[target] += 1
        kernel_count[target] += count
        if failures:
            failed[target] += 1
            print("FAIL %s %s %s" % (kernel, target, variant))
            for f in failures[:4]:
                print("  " + f.replace("\n", "\n  "))
    for target in targets:
        print("%s: %d code objects, %d kernels, %d failed, %d skipped (need the device library)"
              % (target, objects[target], kernel_count[target], failed[target], skipped[target]))
    print("total: %d code objects, %d kernels round-tripped (.s and .stir), %d failed, "
          "%d skipped" % (sum(objects.values()), sum(kernel_count.values()),
                          sum(failed.values()), sum(skipped.values())))
    if any(failed.values()):
        return 1
    print("binary round trip: OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
