#!/usr/bin/env python3
"""Instruments every test kernel for every target at -O0 and -O2 and prints,
per target and level, the markers refused (the `refused N` of the --stats
total) and the runs that failed (the verifier included).

usage: refusals.py [--sample N] CLANG STINKYTOFU_OPT KERNEL_DIR WORK_DIR -- PIPELINE...

--sample N instruments every N-th kernel of each target and level, a
different one on the next, so every kernel, target and level still runs.
"""
import concurrent.futures
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), *[os.pardir] * 3))
from sweep_sample import in_sample  # noqa: E402

TARGETS = ["gfx900", "gfx906", "gfx908", "gfx90a", "gfx942", "gfx950",
           "gfx1030", "gfx1100", "gfx1200", "gfx1201", "gfx1250"]
LEVELS = ["-O0", "-O2"]


def compile_kernel(clang, kernel_dir, work, target, level, kernel):
    """One kernel, in the form the other oracles compile it (waitcnt/waitlib.py),
    so that the tests' clang cache replays it (docs/reliability.md)."""
    out = os.path.join(work, target + level, kernel + ".s")
    os.makedirs(os.path.dirname(out), exist_ok=True)
    subprocess.run([clang, "-x", "cl", "-cl-std=CL2.0", "--target=amdgcn-amd-amdhsa",
                    f"-mcpu={target}", "-nogpulib", level, "-S",
                    os.path.join(kernel_dir, kernel + ".cl"), "-o", out], check=True)
    return target, level, kernel, out


def instrument(opt, pipeline, target, level, kernel, path):
    r = subprocess.run([opt, path, *pipeline, "--stats", "-o", path + ".out.s"],
                       capture_output=True, text=True)
    m = re.search(r"^total: .* refused (\d+),", r.stderr, re.M)
    failed = r.returncode != 0 or not m
    return target, level, kernel, int(m.group(1)) if m else 0, failed


def main(argv):
    sample = 1
    if argv[1] == "--sample":
        sample = int(argv[2])
        argv = argv[2:]
    clang, opt, kernel_dir, work = argv[1:5]
    pipeline = argv[argv.index("--") + 1:]
    kernels = sorted(f[:-3] for f in os.listdir(kernel_dir) if f.endswith(".cl"))
    groups = [(t, l) for t in TARGETS for l in LEVELS]

    def sampled(group):
        return [k for i, k in enumerate(kernels) if in_sample(i, groups.index(group), sample)]
    refused, failures = {}, []
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as pool:
        files = list(pool.map(lambda job: compile_kernel(clang, kernel_dir, work, *job),
                              [(t, l, k) for t, l in groups for k in sampled((t, l))]))
        for target, level, kernel, n, failed in pool.map(
                lambda f: instrument(opt, pipeline, *f), files):
            refused[(target, level)] = refused.get((target, level), 0) + n
            if failed:
                failures.append(f"{kernel} {target} {level}")
    for t in TARGETS:
        for l in LEVELS:
            print(f"{t} {l}: refused {refused[(t, l)]}")
    for f in failures:
        print(f"FAILED {f}")
    print(f"{len(files)} runs, {len(failures)} failed")


if __name__ == "__main__":
    main(sys.argv)
