#!/usr/bin/env python3
"""Mutation check of the wait-count verifier on LLVM's waits.

For every kernel file of tests/kernels/*.cl x target x -O level (the same
matrix and options as waitcnt_oracle.py), compiled by clang, and for every
memory-counter wait LLVM placed in a function, one mutant per change:
  delete   the wait is replaced by a comment (line numbers stay the same);
  weaken   for each counter the wait waits on with count N (below the
           field's maximum), that count becomes N+1, the other counters of a
           combined wait unchanged.
Each mutant goes through `stinkytofu-opt M.s --verify-waitcnt`. It is killed
when the verifier exits with 1 and prints an error the unmutated file does
not get (with a clean unmutated file: any error); it survives when the
verifier finds nothing new. An exit status other than 0 or 1, or 1 without
an error line, is a crash / odd result, reported separately.

Printed: the kill rate overall, per target, per -O level and per mutation
kind; then every survivor (compiled file, line, the mutation, the wait, the
next instructions after it in file order) grouped by the next relevant
instruction, because a wait LLVM placed for the memory model rather than for
a register may survive when the verifier does not model that rule:
  entry    the waits a callable function starts with (LLVM waits for all on
           entry of a non-kernel function);
  return   followed by s_setpc_b64 (LLVM waits for all but stores on return);
  barrier  followed by s_barrier / s_barrier_signal / s_barrier_wait;
  call     followed by s_swappc_b64 / s_call_b64;
  endpgm   followed by s_endpgm;
  atomic   followed by an atomic;
  cache    followed by a cache write-back or invalidate (buffer_wbl2,
           buffer_inv, buffer_gl*_inv, buffer_wbinvl1*, global_inv, global_wb);
  waits-for-nothing
           (checked first) the verifier calls the wait redundant on the
           unmutated file (--warn-redundant-waitcnt): nothing is outstanding
           on its counters there, so removing it changes nothing (e.g. the
           acquire wait right after a barrier LLVM already waited before);
  store-counter / xcnt / expcnt
           the mutated counter is vscnt/storecnt, xcnt or expcnt (ordering
           of stores, address translation, export data) and none of the
           above follows;
  other    anything else: each one needs an explanation (a wait LLVM placed
           stronger than needed, or a rule the verifier misses).
A survivor whose wait the verifier itself calls redundant on the unmutated
file (--warn-redundant-waitcnt) is marked [redundant].
All survivors also go to <work>/survivors.txt.

Exit status 1 on a crash, a failed compile, or a kill rate below
--min-kill-rate (percent, default 0).
--dry-run makes the mutants and assembles each with llvm-mc instead of
running the verifier (checks the mutants are valid assembly); nothing is
killed in a dry run.
"""

import argparse
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import waitlib  # noqa: E402
from waitlib import diagnostics, run  # noqa: E402

SKIP_AFTER = {"s_nop", "s_wait_alu", "s_waitcnt_depctr", "s_delay_alu"}
CACHE_OPS = ("buffer_wbl2", "buffer_inv", "buffer_wbinvl1", "buffer_gl0_inv", "buffer_gl1_inv",
             "global_inv", "global_wb", "s_dcache_", "s_icache_")


@dataclass
class Mutant:
    case: object
    source: Path
    line: int            # 0-based
    kind: str            # "delete" or "weaken"
    counter: str         # "" for delete
    before: int = -1
    original: str = ""
    text: str = ""       # the replacement line
    category: str = ""
    following: list = field(default_factory=list)
    redundant: bool = False
    status: str = ""     # killed / survived / crash / odd
    message: str = ""


@dataclass
class Baseline:
    case: object
    source: Path = None
    lines: list = None
    errors: set = field(default_factory=set)
    redundant_lines: set = field(default_factory=set)
    failure: str = ""


def prepare(case, args):
    b = Baseline(case)
    src, r = waitlib.compile_case(case, args.clang, Path(args.work))
    if r.rc != 0:
        b.failure = "compile failed: " + r.err.strip()[-400:]
        return b
    b.source = src
    b.lines = src.read_text(errors="replace").splitlines()
    if not args.dry_run:
        v = run([args.opt, src, "--verify-waitcnt", "--warn-redundant-waitcnt",
                 "-o", str(src) + ".verify.s"])
        b.errors = {(l, c, m) for l, c, k, m in diagnostics(v.err, "error")}
        b.redundant_lines = {l - 1 for l, c, k, m in diagnostics(v.err, "warning")}
        if v.rc not in (0, 1):
            b.failure = "verifier crashed on the unmutated file (exit %d): %s" % (
                v.rc, v.err.strip()[-400:])
    return b


def next_instructions(fn, lines, pos, count=3):
    out = []
    for i in fn.instructions[pos + 1:]:
        if waitlib.parse_wait(lines[i], "gfx942") is not None or \
                waitlib.mnemonic_of(lines[i]) in waitlib.WAIT_MNEMONICS:
            continue
        if waitlib.mnemonic_of(lines[i]) in SKIP_AFTER and not out:
            continue
        out.append((i, waitlib.code_of(lines[i])))
        if len(out) == count:
            break
    return out


def classify(fn, lines, pos, waits, counter, redundant):
    if redundant:
        return "waits-for-nothing"
    before = fn.instructions[:pos]
    if not fn.kernel and all(i in waits or waitlib.mnemonic_of(lines[i]) in SKIP_AFTER
                             for i in before):
        return "entry"
    following = next_instructions(fn, lines, pos, 1)
    mn = waitlib.mnemonic_of(lines[following[0][0]]) if following else ""
    if mn == "s_setpc_b64":
        return "return"
    if mn.startswith("s_barrier"):
        return "barrier"
    if mn in ("s_swappc_b64", "s_call_b64"):
        return "call"
    if mn == "s_endpgm":
        return "endpgm"
    if "atomic" in mn:
        return "atomic"
    if mn.startswith(CACHE_OPS):
        return "cache"
    if counter in ("vscnt", "storecnt"):
        return "store-counter"
    if counter in ("xcnt", "expcnt"):
        return counter
    return "other"


def mutants_of(b):
    target = b.case.target
    waits = waitlib.wait_lines(b.lines, target)
    out = []
    for fn in waitlib.functions(b.lines):
        for pos, i in enumerate(fn.instructions):
            if i not in waits:
                continue
            w = waits[i]
            fields = w.waiting(target)
            if not fields:
                continue
            following = next_instructions(fn, b.lines, pos)
            original = b.lines[i].strip()
            changes = [("delete", "", -1, "\t; waitcnt-mutate: deleted " + original)]
            for c, n in sorted(fields.items()):
                counts = dict(w.counts)
                counts[c] = n + 1
                changes.append(("weaken", c, n, waitlib.format_wait(b.lines[i], w, counts, target)))
            only = next(iter(fields)) if len(fields) == 1 else ""
            for kind, c, n, text in changes:
                # A deleted single-counter wait is classified by its counter.
                out.append(Mutant(b.case, b.source, i, kind, c, n, original, text,
                                  classify(fn, b.lines, pos, waits, c or only,
                                           i in b.redundant_lines),
                                  following, i in b.redundant_lines))
    return out


def try_mutant(m, baselines, args):
    b = baselines[m.case.tag]
    lines = list(b.lines)
    lines[m.line] = m.text
    suffix = "L%d.%s%s" % (m.line + 1, m.kind, "." + m.counter if m.counter else "")
    path = Path(args.work) / "mutants" / ("%s.%s.s" % (m.case.tag, suffix))
    path.write_text("\n".join(lines) + "\n")
    if args.dry_run:
        r = run([args.llvm_mc, "-triple=amdgcn-amd-amdhsa", "-mcpu=" + m.case.target,
                 "-filetype=obj", path, "-o", "/dev/null"])
        m.status = "survived" if r.rc == 0 else "crash"
        m.message = r.err.strip()[-300:]
    else:
        r = run([args.opt, path, "--verify-waitcnt", "-o", str(path) + ".out.s"], timeout=300)
        errors = {(l, c, msg) for l, c, k, msg in diagnostics(r.err, "error")}
        new = errors - b.errors
        if r.rc == 1 and new:
            m.status = "killed"
            m.message = sorted(new)[0][2]
        elif (r.rc == 0 and not errors) or (r.rc == 1 and errors and not new):
            # (exit 1 with only the unmutated file's errors: nothing new found)
            m.status = "survived"
        elif r.rc in (0, 1):
            m.status = "odd"
            m.message = "exit %d with %d error line(s)" % (r.rc, len(errors))
        else:
            m.status = "crash"
            m.message = "exit %d: %s" % (r.rc, r.err.strip()[-300:])
        Path(str(path) + ".out.s").unlink(missing_ok=True)
    if not args.keep_mutants and m.status in ("killed", "survived"):
        path.unlink(missing_ok=True)
    return m


def rate(ms):
    killed = sum(m.status == "killed" for m in ms)
    return killed, len(ms), (100.0 * killed / len(ms)) if ms else 0.0


def describe(m):
    what = "delete" if m.kind == "delete" else "%s %d->%d" % (m.counter, m.before, m.before + 1)
    nxt = " | ".join("%d: %s" % (i + 1, t) for i, t in m.following) or "(end of function)"
    return "%s:%d: [%s] '%s' -> next: %s%s" % (
        m.source.name, m.line + 1, what, m.original, nxt, "  [redundant]" if m.redundant else "")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    waitlib.add_common_options(parser)
    parser.add_argument("--keep-mutants", action="store_true",
                        help="keep every mutant file (default: only crashes and odd ones)")
    parser.add_argument("--progress", type=int, default=0, metavar="N",
                        help="print a progress line to stderr every N mutants")
    parser.add_argument("--min-kill-rate", type=float, default=0.0,
                        help="fail below this kill rate in percent (default 0)")
    args = waitlib.resolve_common(parser.parse_args())
    (Path(args.work) / "mutants").mkdir(parents=True, exist_ok=True)
    cases = waitlib.matrix(args.kernels_dir, args.kernels, args.targets, args.opt_levels,
                           args.sample)
    started = time.time()
    baselines = {b.case.tag: b for b in
                 waitlib.parallel_map(lambda c: prepare(c, args), cases, args.j)}
    mutants = []
    for c in cases:
        b = baselines[c.tag]
        if b.source is not None:
            mutants.extend(mutants_of(b))
    done = [0]
    total = len(mutants)

    def one(m):
        try_mutant(m, baselines, args)
        done[0] += 1
        if args.progress and done[0] % args.progress == 0:
            print("waitcnt-mutate: %d/%d mutants, %.0fs" % (done[0], total, time.time() - started),
                  file=sys.stderr, flush=True)
        return m

    mutants = waitlib.parallel_map(one, mutants, args.j)
    elapsed = time.time() - started

    print("waitcnt mutation check: %d cases, %d mutants, stinkytofu-opt %s%s"
          % (len(cases), len(mutants), args.opt, " [dry run: llvm-mc only]" if args.dry_run else ""))
    print("work folder: %s" % args.work)
    bad_baselines = [b for b in baselines.values() if b.failure]
    dirty = [b for b in baselines.values() if b.errors]
    for b in bad_baselines:
        print("FAILED %s: %s" % (b.case.tag, b.failure))
    if dirty:
        print("unmutated files with verifier errors (their mutants count only new errors): %s"
              % ", ".join(b.case.tag for b in dirty))

    k, n, r = rate(mutants)
    print("\nkill rate: %d/%d = %.1f%%" % (k, n, r))
    for label, key in (("target", lambda m: m.case.target), ("-O", lambda m: m.case.opt),
                       ("kind", lambda m: m.kind), ("kernel", lambda m: m.case.kernel)):
        groups = {}
        for m in mutants:
            groups.setdefault(key(m), []).append(m)
        order = waitlib.TARGETS if label == "target" else sorted(groups)
        parts = []
        for g in order:
            if g in groups:
                k, n, r = rate(groups[g])
                parts.append("%s %d/%d (%.1f%%)" % (g, k, n, r))
        print("  per %-6s %s" % (label + ":", ", ".join(parts)))

    survivors = [m for m in mutants if m.status == "survived"]
    crashes = [m for m in mutants if m.status in ("crash", "odd")]
    by_category = {}
    for m in survivors:
        by_category.setdefault(m.category, []).append(m)
    order = ["waits-for-nothing", "entry", "return", "barrier", "call", "endpgm", "atomic",
             "cache", "store-counter", "xcnt", "expcnt", "other"]
    print("  survivors by next relevant instruction: " + ", ".join(
        "%s %d" % (c, len(by_category[c])) for c in order if c in by_category))
    redundant = sum(m.redundant for m in survivors)
    print("  survivors whose wait the verifier calls redundant: %d" % redundant)

    report = []
    for c in order:
        if c not in by_category:
            continue
        report.append("\n== survivors: %s (%d)" % (c, len(by_category[c])))
        for m in by_category[c]:
            report.append("%s %s" % (m.case.tag, describe(m)))
    if crashes:
        report.append("\n== crashes and odd results (%d; mutant files kept)" % len(crashes))
        for m in crashes:
            report.append("%s %s\n    %s" % (m.case.tag, describe(m), m.message))
    text = "\n".join(report)
    Path(args.work, "survivors.txt").write_text(text + "\n")
    print(text)
    print("\n%.1fs with -j %d" % (elapsed, args.j))
    k, n, r = rate(mutants)
    bad = bad_baselines or crashes or (n and r < args.min_kill_rate)
    print("waitcnt mutation check: %s" % ("FAILED" if bad else "done"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
