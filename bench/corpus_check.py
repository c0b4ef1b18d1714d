#!/usr/bin/env python3
"""The parallel corpus check: every assembly file under DIR, four checks.

The engine of `bench/corpus-check.sh --full` (the command line is documented
there and in docs/reliability.md). Python rather than bash because thousands
of files run in a job pool and their results become tables and failure
classes.

Checks, per file (each file is read with the processor and features of its
`.amdgcn_target` directive, gfx942 when it has none):
  roundtrip   .s -> .s, .s -> .stir -> .s and .stir -> .stir give the bytes back
  instrument  --LongBranchLoweringPass --CallTargetRecoveryPass
              --SQTTInstrumentPass=functions=1,barriers,memory=4:8,verify
              succeeds, its output assembles with llvm-mc, and the output's
              disassembly without the inserted code is the original's; the
              markers the pass refused (--stats) are counted
  o3          -O3 succeeds, its output assembles, and --verify-waitcnt
              --verify-hazards on it (after the two CFG passes above) finds
              nothing the input does not have
  input       the same verification of the input finds nothing
              (counted, not a failure: LLVM's own output should have none)
Files are grouped by variant and target: a file at DIR/<variant>/<target>/...
(the layout of bench/build-corpus.sh) is in the row of <variant>, any other
file in the row `.`; the column is the processor of its directive.
"""
import argparse
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COMPARE = ROOT / "tests" / "lit" / "sqtt" / "Inputs" / "compare-disassembly.py"
CHECKS = ["roundtrip", "instrument", "o3", "input"]
# Checks that fail the run; `input` only counts.
FAILING = {"roundtrip", "instrument", "o3"}
INSTRUMENT = ["--LongBranchLoweringPass", "--CallTargetRecoveryPass",
              "--SQTTInstrumentPass=functions=1,barriers,memory=4:8,verify"]
# The CFG passes first: without them the verifiers take a long branch's
# s_setpc_b64 for a return (findings at `.Lpost_getpc` labels).
VERIFY = ["--LongBranchLoweringPass", "--CallTargetRecoveryPass",
          "--verify-waitcnt", "--verify-hazards"]
TIMEOUT = 300
FIRST_LINES = 4


class Failed(Exception):
    """A check's failure: its first lines."""


def target_id(text):
    """The target id of the first .amdgcn_target directive (gfx90a:xnack-),
    gfx942 when there is none."""
    m = re.search(r'^\s*\.amdgcn_target\s+"([^"]*)"', text, re.M)
    return m.group(1).split("--")[-1] if m and m.group(1) else "gfx942"


def mc_flags(tid):
    """llvm-mc's -mcpu and -mattr for a target id: gfx90a:xnack-:sramecc+ ->
    -mcpu=gfx90a -mattr=-xnack,+sramecc."""
    cpu, *features = tid.split(":")
    flags = ["-mcpu=" + cpu]
    if features:
        flags.append("-mattr=" + ",".join(f[-1] + f[:-1] for f in features))
    return flags


def first_lines(text, n=FIRST_LINES):
    """The first n error lines of a tool's messages (warnings come before them
    in the text), else its first n lines."""
    lines = [l for l in text.splitlines() if l.strip()]
    errors = [l for l in lines if "error:" in l]
    return "\n".join(l[:300] for l in (errors or lines)[:n]) or "(no message)"


def first_difference(a, b):
    """The first line where two byte strings differ, both sides."""
    la, lb = a.split(b"\n"), b.split(b"\n")
    for i in range(max(len(la), len(lb))):
        x = la[i] if i < len(la) else b"<end of file>"
        y = lb[i] if i < len(lb) else b"<end of file>"
        if x != y:
            return f"line {i + 1}\n  expected: {x[:200]!r}\n  actual:   {y[:200]!r}"
    return "no line differs"


class Checker:
    def __init__(self, opt, llvm, checks):
        self.opt, self.llvm, self.checks = opt, llvm, checks
        self.env = dict(os.environ, PATH=f"{llvm}:{os.environ.get('PATH', '')}")

    def run(self, cmd, what):
        """Runs a tool; stdout as bytes (round trips compare bytes), stderr
        as text."""
        try:
            r = subprocess.run(cmd, capture_output=True, timeout=TIMEOUT, env=self.env)
        except subprocess.TimeoutExpired:
            raise Failed(f"{what}: timed out after {TIMEOUT} s")
        except OSError as e:
            raise Failed(f"{what}: cannot run {cmd[0]}: {e.strerror}")
        r.stderr = r.stderr.decode(errors="replace")
        return r

    def must(self, cmd, what):
        r = self.run(cmd, what)
        if r.returncode != 0:
            raise Failed(f"{what} failed (exit {r.returncode}):\n"
                         + first_lines(r.stderr or r.stdout.decode(errors="replace")))
        return r

    def assemble(self, tid, src, obj, what):
        self.must([f"{self.llvm}/llvm-mc", "-triple=amdgcn-amd-amdhsa", *mc_flags(tid),
                   "-filetype=obj", str(src), "-o", str(obj)], what)

    def findings(self, path):
        """The wait and hazard verifiers' errors on a file, each without its
        position (so that the input's and an output's can be compared), or a
        Failed when the file is not read."""
        r = self.run([self.opt, str(path), *VERIFY, "-o", os.devnull], "verification")
        errors = [re.sub(r"^.*?error: ", "", l) for l in r.stderr.splitlines()
                  if " error: " in l or l.startswith("error: ")]
        if r.returncode != 0 and not errors:
            raise Failed("verification failed:\n" + first_lines(r.stderr))
        # A finding names the producer's line; that moves with the code.
        return Counter(re.sub(r"\bline \d+", "line N", e) for e in errors)

    def roundtrip(self, f, t, tid, text):
        arch = tid.split(":")[0]
        out = self.must([self.opt, str(f), "-o", "-"], ".s -> .s").stdout
        if out != text:
            raise Failed(".s -> .s differs: " + first_difference(text, out))
        self.must([self.opt, str(f), "--print-output", "-o", str(t / "a.stir")], ".s -> .stir")
        back = self.must([self.opt, "--arch", arch, str(t / "a.stir"), "--emit-asm", "-o", "-"],
                         ".stir -> .s").stdout
        if back != text:
            raise Failed(".s -> .stir -> .s differs: " + first_difference(text, back))
        again = self.must([self.opt, "--arch", arch, str(t / "a.stir"), "-o", "-"],
                          ".stir -> .stir").stdout
        a = (t / "a.stir").read_bytes()
        if again != a:
            raise Failed(".stir -> .stir differs: " + first_difference(a, again))
        return {}

    def instrument(self, f, t, tid):
        stats = t / "sqtt.stats"
        self.must([self.opt, str(f), *INSTRUMENT, f"--stats-file={stats}",
                   "-o", str(t / "k.s")], "instrumenting")
        m = re.search(r"^total: .* refused (\d+),", stats.read_text(errors="replace"), re.M)
        refused = int(m.group(1)) if m else 0
        orig = t / "orig.o"
        self.assemble(tid, f, orig, "llvm-mc on the original")
        self.assemble(tid, t / "k.s", t / "k.o", "llvm-mc on the instrumented output")
        cmp = self.run([sys.executable, str(COMPARE), str(orig), str(t / "k.o")],
                       "disassembly compare")
        if cmp.returncode != 0:
            raise Failed("disassembly differs:\n"
                         + first_lines(cmp.stdout.decode(errors="replace") + cmp.stderr))
        return {"refused": refused}

    def o3(self, f, t, tid, before):
        self.must([self.opt, str(f), "-O3", "-o", str(t / "o3.s")], "-O3")
        self.assemble(tid, t / "o3.s", t / "o3.o", "llvm-mc on the -O3 output")
        after = self.findings(t / "o3.s")
        new = after - before
        if new:
            sample = "\n".join(f"{n}x {e[:240]}" for e, n in new.most_common(FIRST_LINES))
            raise Failed(f"-O3 output has {sum(new.values())} new wait/hazard findings:\n{sample}")
        return {}

    def check(self, f):
        """{check: (ok, first lines or '', extra counts)} for one file."""
        text = f.read_bytes()
        tid = target_id(text.decode(errors="replace"))
        results = {}
        with tempfile.TemporaryDirectory(prefix="corpus-check.") as tmp:
            t = Path(tmp)
            before = None
            if "input" in self.checks or "o3" in self.checks:
                try:
                    before = self.findings(f)
                    n = sum(before.values())
                    results["input"] = (n == 0, "" if n == 0 else
                                        f"input has {n} wait/hazard findings:\n"
                                        + first_lines("\n".join(before)), {})
                except Failed as e:
                    results["input"] = (False, str(e), {})
            for name in self.checks:
                if name == "input":
                    continue
                try:
                    if name == "roundtrip":
                        extra = self.roundtrip(f, t, tid, text)
                    elif name == "instrument":
                        extra = self.instrument(f, t, tid)
                    elif before is None:  # o3 without the input's findings
                        raise Failed(results["input"][1])
                    else:
                        extra = self.o3(f, t, tid, before)
                    results[name] = (True, "", extra)
                except Failed as e:
                    results[name] = (False, str(e), {})
        if "input" not in self.checks:
            results.pop("input", None)
        return tid.split(":")[0], results


def error_class(message):
    """A failure's class: its first error line (after a heading that ends in
    a colon) without positions, numbers and quoted names, so that the same
    cause in two kernels gives the same class."""
    lines = message.splitlines()
    line = next((l for l in lines if "error:" in l), None)
    if line is None:
        line = " ".join(lines[:2]) if lines and lines[0].endswith(":") else (lines or [""])[0]
    line = re.sub(r"^\S*?(:\d+:\d+)?: (?=error|warning)", "", line)
    # compare-disassembly: the function and the original instruction vary
    # with the kernel, the inserted instruction it did not expect is the class.
    line = re.sub(r"(^|: )\S+: (?=MISMATCH|MISSING)", r"\1", line)
    line = re.sub(r", expected original instruction.*", "", line)
    # A quoted instruction keeps its mnemonic, a quoted name goes.
    line = re.sub(r"'(\S+) [^']*'", r"'\1 …'", line)
    line = re.sub(r"'[^' ]*'", "'…'", line)
    return re.sub(r"\d+", "N", line)[:200]


def group_of(rel):
    parts = Path(rel).parts
    return parts[0] if len(parts) > 2 else "."


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("dirs", nargs="*", metavar="DIR")
    parser.add_argument("--opt", default=os.environ.get("STINKYTOFU_OPT",
                                                        str(ROOT / "build/bin/stinkytofu-opt")))
    parser.add_argument("--checks", default=",".join(CHECKS))
    parser.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--failures", help="write every failing file's first lines here")
    parser.add_argument("--match", metavar="REGEX",
                        help="only the files whose path under DIR matches (re.search)")
    parser.add_argument("--results", metavar="FILE",
                        help="append each file's results to FILE (JSON lines) as it is checked")
    parser.add_argument("--summarize", metavar="FILE",
                        help="print the tables of a --results file (of a run that may still go "
                             "on) instead of checking")
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")
    args = parser.parse_args()
    checks = [c for c in args.checks.split(",") if c]
    unknown = [c for c in checks if c not in CHECKS]
    if unknown:
        parser.error(f"unknown check {', '.join(unknown)} (known: {', '.join(CHECKS)})")
    if args.summarize:
        with open(args.summarize) as f:
            entries = [json.loads(line) for line in f if line.endswith("\n")]
        checks = [c for c in CHECKS if any(c in e["results"] for e in entries)]
        return summarize(entries, checks, args.opt, args.failures, None)
    if not args.dirs:
        parser.error("no DIR given")
    llvm = os.environ.get("LLVM_TOOLS_DIR", "/usr/lib/llvm-22/bin")
    for tool in [args.opt, f"{llvm}/llvm-mc", f"{llvm}/llvm-objdump"]:
        if not os.access(tool, os.X_OK):
            sys.exit(f"corpus-check: {tool} not found (build first, or set LLVM_TOOLS_DIR)")

    files = []
    for d in args.dirs:
        base = Path(d)
        if not base.is_dir():
            sys.exit(f"corpus-check: {d} is not a directory")
        files += [(base, p) for p in sorted(base.rglob("*"))
                  if p.is_file() and (p.name.endswith(".s") or p.name.endswith(".s.txt"))
                  and (not args.match or re.search(args.match, p.relative_to(base).as_posix()))]
    if not files:
        sys.exit(f"corpus-check: no .s or .s.txt file under {' '.join(args.dirs)}")
    # In an order that mixes variants, targets and suites: the files checked
    # so far are a fair sample of the whole (see --summarize).
    files.sort(key=lambda f: hashlib.sha1(str(f[1]).encode()).digest())

    checker = Checker(args.opt, llvm, checks)
    done = 0
    lock = threading.Lock()
    results_file = open(args.results, "a") if args.results else None

    def one(item):
        nonlocal done
        base, path = item
        target, res = checker.check(path)
        entry = {"path": str(path), "cell": [group_of(path.relative_to(base).as_posix()), target],
                 "results": res}
        with lock:
            done += 1
            if results_file:
                results_file.write(json.dumps(entry) + "\n")
                results_file.flush()
            if args.quiet:
                pass
            elif sys.stderr.isatty():
                print(f"\r{done}/{len(files)}", end="", file=sys.stderr, flush=True)
            elif done % max(25, len(files) // 20) == 0:
                print(f"{done}/{len(files)} files checked", file=sys.stderr, flush=True)
        return entry

    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        entries = list(pool.map(one, files))
    if not args.quiet and sys.stderr.isatty():
        print(file=sys.stderr)
    return summarize(entries, checks, args.opt, args.failures, len(files))


def summarize(entries, checks, opt, failures_path, total):
    """Prints the table and the failure classes of the checked files; 1 when a
    failing check failed."""
    # (variant, target) -> check -> [ok, total]; refusals; failure classes.
    table = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    refused = defaultdict(lambda: [0, 0])  # markers refused, files with a refusal
    classes = defaultdict(lambda: {"cells": Counter(), "example": None, "text": ""})
    failing = []
    for entry in sorted(entries, key=lambda e: e["path"]):
        path, cell = entry["path"], tuple(entry["cell"])
        for name, (ok, message, extra) in entry["results"].items():
            table[cell][name][1] += 1
            table[cell][name][0] += ok
            if name == "instrument" and ok and extra.get("refused"):
                refused[cell][0] += extra["refused"]
                refused[cell][1] += 1
            if not ok:
                cls = classes[(name, error_class(message))]
                cls["cells"][cell] += 1
                if cls["example"] is None:
                    cls["example"], cls["text"] = path, message
                failing.append((name, path, message))

    print_table(checks, table, refused)
    print_classes(classes, opt)
    if failures_path:
        with open(failures_path, "w") as out:
            for name, path, message in failing:
                out.write(f"FAIL {name} {path}\n" + "".join(f"    {l}\n"
                                                            for l in message.splitlines()))
    failed = sum(1 for name, _, _ in failing if name in FAILING)
    checked = f"{len(entries)} files" + ("" if total in (None, len(entries)) else f" of {total}")
    print(f"{checked}; {failed} failed checks "
          f"({', '.join(c for c in checks if c in FAILING) or 'no failing check'})"
          + ("; input findings are counted, not failures" if "input" in checks else ""))
    return 1 if failed else 0


def print_table(checks, table, refused):
    heads = [c if c != "input" else "input clean" for c in checks]
    if "instrument" in checks:
        heads.append("refused")
    print(f"{'variant':12} {'target':8} " + " ".join(f"{h:>14}" for h in heads))
    totals = defaultdict(lambda: [0, 0])
    for cell in sorted(table):
        row = [f"{table[cell][c][0]}/{table[cell][c][1]}" for c in checks]
        for c in checks:
            totals[c][0] += table[cell][c][0]
            totals[c][1] += table[cell][c][1]
        if "instrument" in checks:
            row.append(f"{refused[cell][0]} in {refused[cell][1]}")
        print(f"{cell[0]:12} {cell[1]:8} " + " ".join(f"{x:>14}" for x in row))
    row = [f"{totals[c][0]}/{totals[c][1]}" for c in checks]
    if "instrument" in checks:
        row.append(f"{sum(r[0] for r in refused.values())} in {sum(r[1] for r in refused.values())}")
    print(f"{'total':12} {'':8} " + " ".join(f"{x:>14}" for x in row))


def reproducer(name, path, opt):
    if name == "instrument":
        return f"{opt} {path} {' '.join(INSTRUMENT)} -o /tmp/k.s"
    if name == "o3":
        return (f"{opt} {path} -O3 -o /tmp/o3.s && "
                f"{opt} /tmp/o3.s {' '.join(VERIFY)} -o /dev/null")
    if name == "input":
        return f"{opt} {path} {' '.join(VERIFY)} -o /dev/null"
    return f"{opt} {path} -o /tmp/rt.s && cmp {path} /tmp/rt.s"


def print_classes(classes, opt):
    if not classes:
        return
    print("\nfailure classes (check: first error line, files, per variant/target):")
    for (name, cls), info in sorted(classes.items(), key=lambda kv: -sum(kv[1]["cells"].values())):
        cells = ", ".join(f"{v}/{t} {n}" for (v, t), n in sorted(info["cells"].items()))
        print(f"- {name}: {cls}\n  {sum(info['cells'].values())} files: {cells}\n"
              f"  e.g. {reproducer(name, info['example'], opt)}\n"
              + "".join(f"    | {l}\n" for l in info["text"].splitlines()[:FIRST_LINES + 1]))


if __name__ == "__main__":
    sys.exit(main())
