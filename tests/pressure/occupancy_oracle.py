#!/usr/bin/env python3
"""Occupancy oracle: stinkytofu-opt's occupancy_by_registers against clang's.

For every kernel of tests/kernels/*.cl (and tests/pressure/kernels/*.cl,
whose LDS and workgroup sizes limit) on every target and -O level, clang
writes `.s` with a `; Occupancy:` comment after each kernel descriptor: a
number, or an MC expression occupancy(MaxWaves, Granule, TotalVGPRs,
Generation, InitOccupancy, SGPRs, VGPRs). InitOccupancy carries the limits
that are not registers (LDS, workgroup size, attributes); it is replaced by
MaxWaves, and the VGPR floor LLVM derives from the same limits (the last
argument of `max(totalnumvgprs(...), 1, N)`) by 0, so that the figure is
occupancy from registers alone. llvm-mc
evaluates each expression (appended as `.long` data in a section of its
own); the script reads the section from the object. Then
`stinkytofu-opt --print-pressure --pressure-format=json` must give the same
occupancy_by_registers for the kernel, its occupancy (every limit: LDS and
the workgroup size from the metadata) must equal the comment's expression
as clang wrote it, and its live maxima must not exceed the allocation. A
number comment (a kernel without calls) is the occupancy from every limit:
it is compared with occupancy only (where nothing but registers limits,
the two figures are the same).

Callable functions (`.type f,@function`, not kernels; docs/pressure.md):
the live maxima of the text report, counted by the calling convention,
must not exceed the function's own register counts, the first argument of
clang's `.set f.num_vgpr, max(N, <callees>)` (and num_agpr, num_sgpr).

Prints one line per target and a summary; exits 1 on any difference.
"""
import argparse
import concurrent.futures
import json
import os
import re
import struct
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from sweep_sample import in_sample  # noqa: E402

TARGETS = ("gfx900 gfx906 gfx908 gfx90a gfx942 gfx950 gfx1030 gfx1100 gfx1200 "
           "gfx1201 gfx1250").split()
DESCRIPTOR = re.compile(r"^\s*\.amdhsa_kernel (\S+)\n.*?\.end_amdhsa_kernel", re.M | re.S)
OCCUPANCY = re.compile(r"^; Occupancy: ([^\n]*)$", re.M)
CALL = re.compile(r"occupancy\((\d+), (\d+), (\d+), (\d+), (\d+),")
# The VGPRs LLVM raises a kernel to for its waves-per-EU range.
VGPR_FLOOR = re.compile(r"(max\(totalnumvgprs\([^()]*\), 1, )\d+\)")
FUNCTION_PRESSURE = re.compile(
    r"^pressure of @(\S+): max vgpr (\d+) agpr (\d+) sgpr (\d+)(.*)$", re.M)


def own_registers(asm, name, what):
    """N of `.set name.num_<what>, max(N, ...)` (or `, N`): the function's own."""
    m = re.search(r"^\s*\.set\s+" + re.escape(name) + r"\.num_" + what + r",\s*(?:max\()?(\d+)",
                  asm, re.M)
    return int(m.group(1)) if m else None


def check_callables(job, asm, kernels, args):
    """The live maxima of each callable function within its own counts."""
    r = run([args.opt, asm, "--print-pressure"])
    if r.returncode:
        return [(job, None, f"stinkytofu-opt failed: {r.stderr[:300]}", "callable")]
    text = open(asm).read()
    results = []
    for m in FUNCTION_PRESSURE.finditer(r.stdout):
        name, rest = m.group(1), m.group(5)
        if name in kernels:
            continue
        if "unknown callees" in rest:
            results.append((job, name, "", "callable-unknown-callee"))
            continue
        problems = []
        for what, live in (("vgpr", int(m.group(2))), ("agpr", int(m.group(3))),
                           ("sgpr", int(m.group(4)))):
            own = own_registers(text, name, what)
            if own is not None and live > own:
                problems.append(f"live {what} {live} > its own {own}")
        results.append((job, name, "; ".join(problems), "callable"))
    return results


def run(cmd):
    return subprocess.run(cmd, capture_output=True, text=True)


def section_bytes(obj_path, name):
    """The contents of section `name` of an ELF64 little-endian object."""
    data = open(obj_path, "rb").read()
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    def header(i):
        return struct.unpack_from("<IIQQQQ", data, shoff + i * shentsize)
    strtab = header(shstrndx)
    for i in range(shnum):
        nm, _, _, _, off, size = header(i)
        end = data.index(b"\0", strtab[4] + nm)
        if data[strtab[4] + nm:end].decode() == name:
            return data[off:off + size]
    raise RuntimeError(f"{obj_path}: no section {name}")


def llvm_occupancy(asm, target, work, args):
    """(kernel, occupancy from registers, occupancy) of every kernel of `asm`."""
    kernels = []
    for m in DESCRIPTOR.finditer(asm):
        full = OCCUPANCY.search(asm, m.end()).group(1).strip()
        # The limits other than registers: InitOccupancy := MaxWaves.
        occ = CALL.sub(lambda c: "occupancy(%s, %s, %s, %s, %s," % (
            c.group(1), c.group(2), c.group(3), c.group(4), c.group(1)), full, count=1)
        occ = VGPR_FLOOR.sub(r"\g<1>0)", occ)
        kernels.append((m.group(1), occ, full))
    src = work + ".eval.s"
    with open(src, "w") as f:
        f.write(asm + '\n\t.section .occupancy_oracle,"a",@progbits\n')
        f.writelines(f"\t.long {occ}\n\t.long {full}\n" for _, occ, full in kernels)
    obj = work + ".eval.o"
    r = run([args.llvm_mc, "-triple=amdgcn-amd-amdhsa", f"-mcpu={target}",
             "-filetype=obj", src, "-o", obj])
    if r.returncode:
        raise RuntimeError(f"{src}: llvm-mc failed: {r.stderr[:400]}")
    raw = section_bytes(obj, ".occupancy_oracle")
    # A number comment is the occupancy from every limit: it says nothing
    # of registers alone.
    return [(name, None if full.isdigit() else struct.unpack_from("<I", raw, 8 * i)[0],
             struct.unpack_from("<I", raw, 8 * i + 4)[0])
            for i, (name, _, full) in enumerate(kernels)]


def check(job, args):
    kernel_file, target, opt = job
    base = os.path.join(args.work, f"{os.path.basename(kernel_file)[:-3]}-{target}-{opt}")
    asm = base + ".s"
    r = run([args.clang, "-x", "cl", "-Xclang", "-finclude-default-header",
             "--target=amdgcn-amd-amdhsa", f"-mcpu={target}", "-nogpulib", f"-{opt}",
             "-S", kernel_file, "-o", asm])
    if r.returncode:
        return [(job, None, f"clang failed: {r.stderr[:300]}", "")]
    expected = llvm_occupancy(open(asm).read(), target, base, args)
    r = run([args.opt, asm, "--print-pressure", "--pressure-format=json"])
    if r.returncode:
        return [(job, None, f"stinkytofu-opt failed: {r.stderr[:300]}", "")]
    ours = {k["kernel"]: k for k in json.loads(r.stdout)}
    results = []
    for name, llvm, llvm_full in expected:
        k = ours.get(name)
        if k is None:
            results.append((job, name, "no report", ""))
            continue
        problems = []
        if llvm is not None and k["occupancy_by_registers"] != llvm:
            problems.append(f"occupancy_by_registers {k['occupancy_by_registers']} != "
                            f"LLVM's {llvm}")
        if k["occupancy"] != llvm_full:
            problems.append(f"occupancy {k['occupancy']} != LLVM's {llvm_full} "
                            f"(LDS {k['allocated']['lds']}, workgroup "
                            f"{k['workgroup_size']['min']}-{k['workgroup_size']['max']})")
        alloc, live = k["allocated"], k["live_max"]
        if k["unknown_calls"]:
            # A callee outside the module (or one calling such) may read
            # anything (CallEffects.h): everything is live before the call.
            # Counted, not compared.
            results.append((job, name, "; ".join(problems), "unknown-callee"))
            continue
        if live["sgpr"] > alloc["sgpr"]:
            problems.append(f"live sgpr {live['sgpr']} > allocated {alloc['sgpr']}")
        if live["vgpr"] > alloc["vgpr"]:
            problems.append(f"live vgpr {live['vgpr']} > allocated {alloc['vgpr']}")
        if "agpr" in alloc and live["agpr"] > max(alloc["agpr"], 0):
            problems.append(f"live agpr {live['agpr']} > allocated {alloc['agpr']}")
        results.append((job, name, "; ".join(problems), ""))
    return results + check_callables(job, asm, set(ours), args)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--opt", required=True)
    ap.add_argument("--clang", required=True)
    ap.add_argument("--llvm-mc", required=True)
    ap.add_argument("--kernels-dir", required=True, action="append",
                    help="a directory of .cl kernels; may be given more than once")
    ap.add_argument("--work", required=True)
    ap.add_argument("--targets", default=",".join(TARGETS))
    ap.add_argument("--opt-levels", default="O0,O2")
    ap.add_argument("-j", type=int, default=2)
    ap.add_argument("--sample", type=int, default=1,
                    help="check every N-th kernel of each target, a different third (N=3) "
                         "on the next target, so every kernel and target still runs")
    args = ap.parse_args()
    os.makedirs(args.work, exist_ok=True)
    kernels = sorted(os.path.join(d, f) for d in args.kernels_dir
                     for f in os.listdir(d) if f.endswith(".cl"))
    targets = args.targets.split(",")
    jobs = [(k, t, o) for ti, t in enumerate(targets) for ki, k in enumerate(kernels)
            if in_sample(ki, ti, args.sample) for o in args.opt_levels.split(",")]
    with concurrent.futures.ThreadPoolExecutor(args.j) as pool:
        results = [r for rs in pool.map(lambda j: check(j, args), jobs) for r in rs]
    failed = 0
    kernels = [r for r in results if not r[3].startswith("callable")]
    for target in targets:
        for what, tag in (("kernels", ""), ("callables", "callable")):
            mine = [r for r in results
                    if r[0][1] == target and r[3].startswith("callable") == bool(tag)]
            bad = [r for r in mine if r[2]]
            unknown = sum(1 for r in mine if r[3].endswith("unknown-callee"))
            failed += len(bad)
            print(f"{target}: {len(mine)} {what}, {len(bad)} failed, "
                  f"{unknown} with unknown callees (live counts not compared)")
            for (kernel_file, _, opt), name, why, _ in bad:
                print(f"  FAIL {os.path.basename(kernel_file)} -{opt} {name}: {why}")
    print(f"summary: {len(kernels)} kernels, {len(results) - len(kernels)} callables, "
          f"{failed} failed")
    print("occupancy oracle: " + ("OK" if failed == 0 else "FAILED"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
