#!/usr/bin/env python3
"""Builds the broad corpus: public OpenCL benchmark suites compiled by clang-22.

The engine behind bench/build-corpus.sh (the options are documented there and in
docs/reliability.md). Python rather than bash because each suite has its own
file filter, include directories and defines, the compiles run in a job pool,
and the per-variant, per-target and per-suite counts are tables.

Layout of OUT (default corpus-broad/ of the checkout, git-ignored):
  OUT/sources/<suite>/...                       the suite's files, as fetched
  OUT/<variant>/<target>/<suite>/<path>.s       one assembly file per kernel file
  OUT/build-failures.txt                        each file that did not compile,
                                                with clang's first error line
"""
import argparse
import hashlib
import os
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

TARGETS = ["gfx900", "gfx906", "gfx908", "gfx90a", "gfx942", "gfx950",
           "gfx1030", "gfx1100", "gfx1200", "gfx1201", "gfx1250"]
# Debian's rocm-device-libs has bitcode (oclc_isa_version_*.bc) for these only.
DEVICE_LIB_TARGETS = {"gfx900", "gfx906", "gfx908", "gfx90a", "gfx1030"}
DEVICE_LIB_DIR = "/usr/lib/x86_64-linux-gnu/amdgcn/bitcode"
NO_LIBS = ["-nogpulib"]
DEVICE_LIBS = ["--rocm-device-lib-path=" + DEVICE_LIB_DIR, "-mcode-object-version=5"]
LONG_BRANCHES = ["-mllvm", "-amdgpu-s-branch-bits=5"]
# variant -> (clang flags, uses the device libraries)
VARIANTS = {
    "O0": (["-O0"] + NO_LIBS, False),
    "O2": (["-O2"] + NO_LIBS, False),
    "O0-devlib": (["-O0"] + DEVICE_LIBS, True),
    "O2-devlib": (["-O2"] + DEVICE_LIBS, True),
    "O0-longbr": (["-O0"] + NO_LIBS + LONG_BRANCHES, False),
    "O2-longbr": (["-O2"] + NO_LIBS + LONG_BRANCHES, False),
}


class Suite:
    """A benchmark suite: where it is fetched from, which files are kernels, and
    the include directories (relative to the suite's root) and -D defines its
    kernels expect from their host programs."""

    def __init__(self, name, repo, kernels, includes=(), defines=()):
        self.name, self.repo, self.kernels = name, repo, re.compile(kernels)
        self.includes, self.defines = list(includes), list(defines)


SUITES = [
    Suite("polybench", "sgrauerg/polybenchGpu", r"^OpenCL/.*\.cl$"),
    Suite("rodinia", "yuhc/gpu-rodinia", r"^opencl/.*\.cl$",
          includes=["opencl/util", "opencl/common"],
          defines=["BLOCK_SIZE=16", "RD_WG_SIZE_0=16", "RD_WG_SIZE_0_0=16", "RD_WG_SIZE=16",
                   "fp=float", "NUMBER_PAR_PER_BOX=100", "NUMBER_THREADS=128",
                   "DEFAULT_ORDER=256", "DEFAULT_ORDER_2=256"]),
    Suite("shoc", "vetter/shoc", r"^src/opencl/.*\.cl$",
          includes=["src/opencl/level2/s3d", "src/common"],
          defines=["K_DOUBLE_PRECISION", "DIM=8", "N_GP=1024", "LROWS=8", "LCOLS=256"]),
    Suite("parboil", "abduld/Parboil", r"^benchmarks/.*\.cl$",
          includes=["common/include"], defines=["TILE_N=16", "TILE_TB_HEIGHT=8"]),
]


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


# The files a kernel compile reads: OpenCL sources and the headers they include.
SOURCE_SUFFIXES = (".cl", ".h", ".hpp", ".hh", ".inc", ".clh")


def extract_sources(git_dir, dest):
    """Copies the source files of HEAD out of a bare repository. A mirror may
    lack some large blobs (data files): only the sources are read, and one that
    is missing is skipped."""
    listing = subprocess.run(["git", "--git-dir", str(git_dir), "ls-tree", "-r", "-z", "HEAD"],
                             capture_output=True)
    if listing.returncode != 0:
        return f"git ls-tree in {git_dir} failed: {listing.stderr.decode().strip()[:200]}"
    entries = []
    for record in listing.stdout.split(b"\0"):
        if not record:
            continue
        meta, path = record.split(b"\t", 1)
        mode, kind, sha = meta.split()
        if kind == b"blob" and mode != b"120000" and path.decode().endswith(SOURCE_SUFFIXES):
            entries.append((sha.decode(), path.decode()))
    batch = subprocess.run(["git", "--git-dir", str(git_dir), "cat-file", "--batch"],
                           input="".join(sha + "\n" for sha, _ in entries).encode(),
                           capture_output=True)
    data, pos = batch.stdout, 0
    for _, path in entries:
        end = data.index(b"\n", pos)
        header = data[pos:end].split()
        pos = end + 1
        if header[-1] == b"missing":
            continue
        size = int(header[2])
        target = dest / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data[pos:pos + size])
        pos += size + 1
    return None


def fetch(suite, sources, mirror, refresh):
    """Puts the suite's files under sources/<suite>: from a bare mirror
    (MIRROR/owner+name/repo: the source files of HEAD) or `git clone --depth 1`."""
    dest = sources / suite.name
    if dest.is_dir() and not refresh:
        return None
    shutil.rmtree(dest, ignore_errors=True)
    if mirror:
        git_dir = Path(mirror) / suite.repo.replace("/", "+") / "repo"
        if not git_dir.is_dir():
            git_dir = Path(mirror) / suite.repo.replace("/", "+")
        return extract_sources(git_dir, dest)
    result = run(["git", "clone", "--quiet", "--depth", "1",
                  f"https://github.com/{suite.repo}", str(dest)])
    if result.returncode != 0:
        shutil.rmtree(dest, ignore_errors=True)
        return f"git clone of {suite.repo} failed: {result.stderr.strip()[:200]}"
    return None


def kernel_files(suite, root):
    """The suite's kernel files, relative to its root; a file whose bytes
    another one already has (suites keep copies in several folders) once."""
    seen, files = set(), []
    for path in sorted(p for p in root.rglob("*.cl") if p.is_file()):
        rel = path.relative_to(root).as_posix()
        if not suite.kernels.search(rel):
            continue
        digest = hashlib.sha1(path.read_bytes()).digest()
        if digest not in seen:
            seen.add(digest)
            files.append(rel)
    return files


def compile_one(clang, suite, root, rel, variant, target, out):
    """Compiles one kernel file; returns (ok, first error line)."""
    flags, _ = VARIANTS[variant]
    dest = out / variant / target / suite.name / (rel[:-len(".cl")] + ".s")
    src = root / rel
    if dest.exists() and dest.stat().st_mtime >= src.stat().st_mtime:
        return True, ""
    dest.parent.mkdir(parents=True, exist_ok=True)
    # Older suites pass a pointer of another element type where OpenCL C 2.0
    # wants a cast; the kernel is still what they run.
    cmd = [clang, "-x", "cl", "-cl-std=CL2.0", "-target", "amdgcn-amd-amdhsa",
           "-mcpu=" + target, *flags, "-Wno-error=incompatible-pointer-types",
           "-I", str(src.parent)]
    cmd += [f"-I{root / d}" for d in suite.includes]
    cmd += [f"-D{d}" for d in suite.defines]
    cmd += ["-S", str(src), "-o", str(dest) + ".tmp"]
    try:
        result = run(cmd, timeout=600)
    except subprocess.TimeoutExpired:
        return False, "clang timed out after 600 s"
    if result.returncode != 0:
        Path(str(dest) + ".tmp").unlink(missing_ok=True)
        errors = [l for l in result.stderr.splitlines() if "error:" in l]
        return False, (errors or result.stderr.splitlines() or ["no message"])[0]
    os.replace(str(dest) + ".tmp", dest)
    return True, ""


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", default=str(Path(__file__).resolve().parent.parent / "corpus-broad"))
    parser.add_argument("--mirror", help="directory of bare git mirrors owner+name/repo")
    parser.add_argument("--refresh", action="store_true", help="fetch the suites again")
    parser.add_argument("--suites", default=",".join(s.name for s in SUITES))
    parser.add_argument("--variants", default=",".join(VARIANTS))
    parser.add_argument("--targets", default=",".join(TARGETS))
    parser.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--clang", default=os.environ.get("CLANG", "clang-22"))
    parser.add_argument("--sources", metavar="DIR",
                        help="compile the *.cl files of DIR (suite `local`) instead of the suites")
    parser.add_argument("--sample", type=int, metavar="N",
                        help="compile about N of the files x variants x targets, stratified")
    parser.add_argument("--strict", action="store_true",
                        help="exit 1 when a file does not compile")
    args = parser.parse_args()

    def pick(text, known, what):
        names = [n for n in text.split(",") if n]
        unknown = [n for n in names if n not in known]
        if unknown:
            parser.error(f"unknown {what}: {', '.join(unknown)} (known: {', '.join(known)})")
        return names

    if args.sources:
        suites = [Suite("local", None, r"\.cl$")]
    else:
        suites = [s for s in SUITES
                  if s.name in pick(args.suites, [s.name for s in SUITES], "suite")]
    variants = pick(args.variants, list(VARIANTS), "variant")
    targets = pick(args.targets, TARGETS, "target")
    if shutil.which(args.clang) is None:
        sys.exit(f"build-corpus: {args.clang} not found (Debian package clang-22)")
    if any(VARIANTS[v][1] for v in variants) and not Path(DEVICE_LIB_DIR).is_dir():
        sys.exit(f"build-corpus: {DEVICE_LIB_DIR} not found (Debian package rocm-device-libs)")
    out = Path(args.out)
    sources = out / "sources"
    sources.mkdir(parents=True, exist_ok=True)

    jobs = []
    for suite in suites:
        if args.sources:
            root = Path(args.sources).resolve()
        else:
            problem = fetch(suite, sources, args.mirror, args.refresh)
            if problem:
                print(f"build-corpus: {suite.name}: {problem}", file=sys.stderr)
                continue
            root = sources / suite.name
        files = kernel_files(suite, root)
        print(f"{suite.name}: {len(files)} kernel files")
        for f, rel in enumerate(files):
            for v, variant in enumerate(variants):
                for t, target in enumerate(targets):
                    if VARIANTS[variant][1] and target not in DEVICE_LIB_TARGETS:
                        continue
                    jobs.append(((f, v, t), (suite, root, rel, variant, target)))
    if args.sample and args.sample < len(jobs):
        jobs = stratified(jobs, args.sample)
    jobs = [job for _, job in jobs]

    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        results = list(pool.map(lambda j: compile_one(args.clang, *j, out), jobs))

    failures = []
    per_cell, per_suite = {}, {}
    for (suite, root, rel, variant, target), (ok, error) in zip(jobs, results):
        cell = per_cell.setdefault((variant, target), [0, 0])
        row = per_suite.setdefault(suite.name, [0, 0])
        cell[1] += 1
        row[1] += 1
        if ok:
            cell[0] += 1
            row[0] += 1
        else:
            failures.append(f"{variant}/{target}/{suite.name}/{rel}: {error}")
    (out / "build-failures.txt").write_text("".join(f + "\n" for f in failures))

    print("compiled/total per variant (rows) and target (columns)")
    print(f"{'':10}" + "".join(f"{t:>10}" for t in targets))
    for variant in variants:
        cells = [per_cell.get((variant, t)) for t in targets]
        print(f"{variant:10}" + "".join(f"{f'{c[0]}/{c[1]}' if c else '-':>10}" for c in cells))
    for name, (ok, total) in per_suite.items():
        print(f"{name}: {ok}/{total} compiled, {total - ok} did not")
    done = sum(r[0] for r in per_suite.values())
    print(f"total: {done}/{len(jobs)} assembly files in {out}"
          + (f"; failures in {out / 'build-failures.txt'}" if failures else ""))
    if args.strict and failures:
        print("".join(f"  {f}\n" for f in failures[:10]), end="")
        return 1
    return 0


def stratified(jobs, size):
    """Between half of `size` and `size` of the jobs, keyed (file, variant,
    target) by index: a job is kept when the sum of its indices falls on the
    stride, so every file and variant keeps some targets and every target sees
    each variant. The stride is a power of two, so a smaller sample is part of
    a larger one (the sanitizer build's corpus sample replays the normal
    build's compiles, tests/clang-cache)."""
    stride = 1 << (-(-len(jobs) // size) - 1).bit_length()
    return [job for job in jobs if sum(job[0]) % stride == 0]


if __name__ == "__main__":
    sys.exit(main())
