#!/usr/bin/env python3
"""AMD-built code objects: every kernel of a host library's .hip_fatbin round trip and verified.

For each selected offload bundle of the library's `.hip_fatbin` and each of
its code object entries (the host entry aside):
  1. `stinkytofu-opt K.co -o K.s` (the binary disassembled into the IR and
     written as assembly), `stinkytofu-opt K.s --print-output -o K.stir` and
     `stinkytofu-opt --arch T K.stir --emit-asm -o K.stir.s`;
  2. each `.s` assembled by llvm-mc and linked by ld.lld -shared; its `.text`
     must be the original's byte for byte and every kernel descriptor its
     64 bytes (tests/binary/binary_roundtrip.py's comparison);
  3. `--verify-waitcnt --verify-hazards` over all its kernels (after the CFG
     passes, as bench/corpus_check.py runs them): the findings are counted by
     rule (hazards: the rule's name; waits: the message with registers and
     numbers taken out) and written, one per line, to WORK/findings.txt.
With --bench, the code objects of the bundle with the most `.text` (or of
--bench-bundles) are disassembled one at a time by `llvm-objdump -d` and by
`stinkytofu-opt K.co -o /dev/null`, and the CPU times are printed side by
side with their ratio.

Usage: library_check.py --library LIB.so --work DIR [--bundles SPEC]
         [--targets gfx90a:xnack-,...] [--bench] [--bench-bundles SPEC]
         [--no-roundtrip] [-j N] [--opt PATH]
  SPEC: `all`, or comma-separated indices and ranges `A-B`, a range with a
  step `A-B/S` (0-110/10: every tenth bundle).
Exit status 1 when a round trip or a step fails (findings do not fail it).
"""

import argparse
import os
import re
import struct
import subprocess
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "waitcnt"))
sys.path.insert(0, str(ROOT / "tests" / "binary"))
sys.path.insert(0, str(ROOT / "bench"))
import waitlib  # noqa: E402
from binary_roundtrip import elf_sections, text_and_descriptors  # noqa: E402
from corpus_check import VERIFY, mc_flags  # noqa: E402
from waitlib import find_tool, parallel_map, run  # noqa: E402

BUNDLE_MAGIC = b"__CLANG_OFFLOAD_BUNDLE__"


def fatbin_bundles(library):
    """[(bundle index, [(entry id, code object bytes)])] of the library's
    .hip_fatbin: uncompressed bundles one after the other."""
    data = Path(library).read_bytes()
    sections, _ = elf_sections(data)
    if ".hip_fatbin" not in sections:
        sys.exit("%s: no .hip_fatbin section" % library)
    _, _, off, size, _ = sections[".hip_fatbin"]
    fatbin = data[off:off + size]
    bundles, pos = [], 0
    while True:
        start = fatbin.find(BUNDLE_MAGIC, pos)
        if start < 0:
            break
        count, = struct.unpack_from("<Q", fatbin, start + len(BUNDLE_MAGIC))
        p, end, entries = start + len(BUNDLE_MAGIC) + 8, start + 1, []
        for _ in range(count):
            e_off, e_size, id_len = struct.unpack_from("<QQQ", fatbin, p)
            entry_id = fatbin[p + 24:p + 24 + id_len].decode()
            p += 24 + id_len
            end = max(end, start + e_off + e_size)
            if e_size and not entry_id.startswith("host-"):
                entries.append((entry_id, fatbin[start + e_off:start + e_off + e_size]))
        bundles.append((len(bundles), entries))
        pos = end
    return bundles


def select(spec, count):
    """The indices a SPEC names (module docstring)."""
    if spec == "all":
        return list(range(count))
    chosen = []
    for part in spec.split(","):
        m = re.fullmatch(r"(\d+)(?:-(\d+)(?:/(\d+))?)?", part)
        if not m:
            sys.exit("bad bundle selection: " + part)
        first, last = int(m.group(1)), int(m.group(2) or m.group(1))
        chosen += range(first, min(last, count - 1) + 1, int(m.group(3) or 1))
    return sorted(set(chosen))


def text_size(code_object):
    sections, _ = elf_sections(code_object)
    return sections[".text"][3] if ".text" in sections else 0


def finding_class(message):
    """A verifier finding without its places: the hazard rule's name, or the
    wait message with registers, numbers and the path taken out."""
    m = re.match(r"(\w+): \d+ more wait states? needed", message)
    if m:
        return "hazard " + m.group(1)
    message = message.split("; path")[0]
    message = re.sub(r"\b[vsa]\[\d+:\d+\]|\b[vsa]\d+\b", "REG", message)
    message = re.sub(r" at line \d+", "", message)
    message = re.sub(r"\d+", "N", message)
    return "wait " + message


def check(item, args):
    """(kernels, failures, findings) of one code object."""
    bundle, entry_id, path = item
    tid = entry_id.split("--")[-1]
    stem = str(path)[:-3]
    failures = []

    def step(cmd, what):
        r = run(cmd, timeout=3600)
        if r.rc != 0:
            failures.append("%s: %s" % (what, (r.err or r.out).strip()[:1500]))
        return r

    if step([args.opt, path, "-o", stem + ".s"], "disassembling").rc != 0:
        return 0, failures, []
    want_text, want_kds = text_and_descriptors(path)
    if not args.no_roundtrip:
        outputs = [stem + ".s"]
        if (step([args.opt, stem + ".s", "--print-output", "-o", stem + ".stir"],
                 ".s -> .stir").rc == 0
                and step([args.opt, "--arch", tid, stem + ".stir", "--emit-asm",
                          "-o", stem + ".stir.s"], ".stir -> .s").rc == 0):
            outputs.append(stem + ".stir.s")
        for asm in outputs:
            obj, linked = asm + ".o", asm + ".co"
            if (step([args.llvm_mc, "-triple=amdgcn-amd-amdhsa", *mc_flags(tid),
                      "-filetype=obj", asm, "-o", obj], "llvm-mc " + Path(asm).name).rc
                    or step([args.lld, "-shared", obj, "-o", linked],
                            "ld.lld " + Path(asm).name).rc):
                continue
            text, kds = text_and_descriptors(linked)
            if text != want_text:
                at = next((i for i, (a, b) in enumerate(zip(text, want_text)) if a != b),
                          min(len(text), len(want_text)))
                failures.append("%s: .text differs at offset 0x%x" % (Path(asm).name, at))
            for name, (fields, entry_ok) in want_kds.items():
                got = kds.get(name)
                if got is None or got[0] != fields or not (entry_ok and got[1]):
                    failures.append("%s: descriptor %s.kd differs" % (Path(asm).name, name))
        for out in outputs:
            for suffix in (".o", ".co"):
                Path(out + suffix).unlink(missing_ok=True)
        for name in (stem + ".stir", stem + ".stir.s"):
            Path(name).unlink(missing_ok=True)
    r = run([args.opt, stem + ".s", *VERIFY, "-o", os.devnull], timeout=3600)
    findings = [re.sub(r"^.*?error: ", "", l) for l in r.err.splitlines() if " error: " in l]
    if r.rc != 0 and not findings:
        failures.append("verification: " + r.err.strip()[:1500])
    findings = [(bundle, tid, l) for l in findings]
    Path(stem + ".s").unlink(missing_ok=True)
    return len(want_kds), failures, findings


def cpu_time(cmd, stdout=subprocess.DEVNULL):
    """(CPU seconds, wall seconds) of a command (user + system)."""
    start = time.monotonic()
    proc = subprocess.Popen([str(c) for c in cmd], stdout=stdout, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode:
        sys.exit("failed (exit %d): %s" % (proc.returncode, " ".join(map(str, cmd))))
    return usage.ru_utime + usage.ru_stime, time.monotonic() - start


def bench(items, args):
    objdump = [0.0, 0.0]
    ours = [0.0, 0.0]
    for _, _, path in items:
        for totals, cmd in ((objdump, [args.objdump, "-d", path]),
                            (ours, [args.opt, path, "-o", os.devnull])):
            cpu, wall = cpu_time(cmd)
            totals[0] += cpu
            totals[1] += wall
    size = sum(text_size(Path(p).read_bytes()) for _, _, p in items)
    print("bench: %d code objects, %.1f MB of .text" % (len(items), size / 1e6))
    print("  %-34s %9s %9s" % ("command", "CPU s", "wall s"))
    print("  %-34s %9.2f %9.2f" % ("llvm-objdump -d K.co", *objdump))
    print("  %-34s %9.2f %9.2f" % ("stinkytofu-opt K.co -o /dev/null", *ours))
    print("  ratio (CPU): %.2f" % (ours[0] / objdump[0] if objdump[0] else float("nan")))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--library", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--bundles", default="all")
    parser.add_argument("--targets", help="comma-separated target ids (default: all)")
    parser.add_argument("--bench", action="store_true")
    parser.add_argument("--bench-bundles", help="default: the bundle with the most .text")
    parser.add_argument("--no-roundtrip", action="store_true",
                        help="disassemble and verify only")
    parser.add_argument("--opt", default=str(waitlib.DEFAULT_OPT))
    parser.add_argument("-j", type=int, default=2)
    args = parser.parse_args()
    args.llvm_mc = find_tool(None, ["llvm-mc"])
    args.lld = find_tool(None, ["ld.lld"])
    args.objdump = find_tool(None, ["llvm-objdump"])
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    targets = set(args.targets.split(",")) if args.targets else None

    bundles = fatbin_bundles(args.library)
    print("%s: %d bundles in .hip_fatbin, %d code objects" %
          (args.library, len(bundles), sum(len(e) for _, e in bundles)))

    def write(indices):
        items = []
        for index in indices:
            for entry_id, data in bundles[index][1]:
                tid = entry_id.split("--")[-1]
                if targets and tid not in targets:
                    continue
                if tid.split(":")[0] not in waitlib.TARGETS:
                    skipped[tid] += 1
                    continue
                path = work / ("b%03d-%s.co" % (index, tid.replace(":", "_")))
                path.write_bytes(data)
                items.append((index, entry_id, str(path)))
        return items

    status = 0
    skipped = Counter()  # entries for processors StinkyTofu does not target
    if args.bundles != "none":
        items = write(select(args.bundles, len(bundles)))
        results = parallel_map(lambda i: check(i, args), items, args.j)
        per_target = defaultdict(lambda: [0, 0, 0])
        classes, kernels_with = Counter(), defaultdict(set)
        with open(work / "findings.txt", "w") as out:
            for (bundle, entry_id, path), (kernels, failures, findings) in zip(items, results):
                tid = entry_id.split("--")[-1]
                per_target[tid][0] += 1
                per_target[tid][1] += kernels
                if failures:
                    per_target[tid][2] += 1
                    status = 1
                    print("FAIL %s" % path)
                    for f in failures[:4]:
                        print("  " + f.replace("\n", "\n  "))
                for b, t, message in findings:
                    out.write("%s (bundle %d, %s): %s\n" % (Path(path).name, b, t, message))
                    cls = finding_class(message)
                    classes[cls] += 1
                    kernels_with[cls].add(path)
        what = "disassembled and verified" if args.no_roundtrip else \
            "round trip identical (.s and .stir)"
        for tid in sorted(per_target):
            objects, kernels, failed = per_target[tid]
            print("%s: %d code objects, %d kernels, %d %s, %d failed" %
                  (tid, objects, kernels, objects - failed, what, failed))
        totals = [sum(v[i] for v in per_target.values()) for i in range(3)]
        print("total: %d code objects, %d kernels, %d targets, %d %s, %d failed" %
              (totals[0], totals[1], len(per_target), totals[0] - totals[2], what, totals[2]))
        for tid, n in sorted(skipped.items()):
            print("%s: %d code objects skipped (not a StinkyTofu target)" % (tid, n))
        print("findings: %d (%s)" % (sum(classes.values()), work / "findings.txt"))
        for cls, n in classes.most_common():
            print("  %6d in %4d code objects  %s" % (n, len(kernels_with[cls]), cls[:160]))
    if args.bench:
        if args.bench_bundles:
            chosen = select(args.bench_bundles, len(bundles))
        else:
            chosen = [max(range(len(bundles)),
                          key=lambda i: sum(text_size(d) for _, d in bundles[i][1]))]
        print("bench bundles: %s" % ",".join(map(str, chosen)))
        bench(write(chosen), args)
    return status


if __name__ == "__main__":
    sys.exit(main())
