#!/usr/bin/env python3
"""Wait-count oracle: LLVM's waits against stinkytofu-opt's verifier and inserter.

tests/waitcnt/ holds this oracle, the mutation check (waitcnt_mutate.py) and
their shared code (waitlib.py); tests/lit/waitcnt runs them (a quick subset by
default, the full matrix with `lit --param waitcnt=full`).

For every kernel file of tests/kernels/*.cl x target x -O level, compiled to
assembly by clang (so LLVM's SIInsertWaitcnts placed the waits):
  (a) `stinkytofu-opt K.s --verify-waitcnt --warn-redundant-waitcnt` reports
      no missing wait (exit 0, no error line) and leaves the file as it was;
      the LLVM waits it calls redundant are counted (column "red");
  (s) `--StinkyRemoveWaitCntPass` alone leaves no memory-counter wait but
      those it keeps on purpose (the next instruction an atomic, a barrier or
      a cache write-back/invalidate: the memory model's waits LLVM placed;
      counted in the summary), `=all` leaves none, and neither changes
      anything but waits;
  (b) `--StinkyRemoveWaitCntPass --StinkyWaitCntInsertionPass` succeeds, the
      result passes --verify-waitcnt, assembles with llvm-mc for the target,
      and differs from LLVM's file in memory-counter waits only;
  (c) running --StinkyWaitCntInsertionPass again on that result changes
      nothing (byte-identical output);
  (d) our waits against LLVM's, per function: for each counter, n = wait
      instructions waiting on it (count below the field's maximum), zero =
      those waiting for 0, sum = the sum of their counts. Ours is stronger on
      a counter when n or zero is larger, or n is equal and sum smaller; ours
      has more waits when it has more wait instructions that wait on
      anything. Printed: one row per (kernel file, target, -O) with the totals
      over its functions (waits/fields/zero/sum, fields = n summed over the
      counters), then every function where ours has more or stronger waits
      (and, for information, where ours has fewer), with a diff of the waits
      written next to the outputs. Waits our verifier calls redundant in our
      own output are listed too (insertion should not make any), except the
      kept ones before an atomic or a barrier (counted in the summary).
Exit status 1 when any case fails (a), (s), (b) or (c) (or does not compile);
(d) is a report, not a failure, unless --strict-compare.

Usage: waitcnt_oracle.py [--targets gfx942,gfx1250] [--opt-levels O2]
         [--kernels waits,memory] [--opt PATH] [--clang PATH] [--llvm-mc PATH]
         [-j N] [--work DIR] [--dry-run] [--strict-compare] [--quiet]
--dry-run checks the harness without the wait passes: the Python stripper
stands in for StinkyRemoveWaitCntPass, insertion gives back LLVM's file, and
no verifier runs.
"""

import argparse
import difflib
import shutil
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import waitlib  # noqa: E402
from waitlib import diagnostics, run  # noqa: E402

MAX_MESSAGES = 8


@dataclass
class Outcome:
    case: object
    failures: list = field(default_factory=list)   # (check, text)
    llvm_total: dict = None
    ours_total: dict = None
    llvm_redundant: int = 0
    kept_releases: int = 0
    kept_redundant: int = 0
    ours_redundant: list = field(default_factory=list)
    stronger: list = field(default_factory=list)   # (function, detail)
    fewer: list = field(default_factory=list)
    seconds: float = 0.0

    def fail(self, check, text):
        self.failures.append((check, text.rstrip()))


def read_lines(path):
    return Path(path).read_text(errors="replace").splitlines()


def messages(text, kind="error"):
    diags = [l for l in text.splitlines() if (": %s: " % kind) in l]
    extra = len(diags) - MAX_MESSAGES
    out = diags[:MAX_MESSAGES]
    if extra > 0:
        out.append("... and %d more" % extra)
    return "\n".join(out)


def tail(text, n=6):
    return "\n".join(text.strip().splitlines()[-n:])


NOT_RELEVANT = {"s_nop", "s_wait_alu", "s_waitcnt_depctr", "s_delay_alu"}


# Cache write-backs and invalidates of the memory model (fences, acquire and
# release sequences).
CACHE_OPS = ("buffer_wbl2", "buffer_inv", "buffer_wbinvl1", "buffer_gl0_inv", "buffer_gl1_inv",
             "global_inv", "global_wb")


def release_wait(lines, i):
    """Is the next instruction after the wait at line i an atomic, a barrier or
    a cache write-back / invalidate (a memory-model wait the remove pass keeps)?"""
    for line in lines[i + 1:]:
        mn = waitlib.mnemonic_of(line)
        if mn is None or mn in NOT_RELEVANT or mn in waitlib.WAIT_MNEMONICS:
            continue
        return "atomic" in mn or mn.startswith("s_barrier") or mn.startswith(CACHE_OPS)
    return False


def per_function_waits(lines, target):
    waits = waitlib.wait_lines(lines, target)
    out = {}
    for f in waitlib.functions(lines):
        out[f.name] = (f, [(i, waits[i]) for i in f.instructions if i in waits])
    return out


def describe(total):
    return "%d/%d/%d/%d" % (total["waits"], total["fields"], total["zero"], total["sum"])


def function_diff(name, llvm_lines, llvm_fn, ours_lines, ours_fn):
    """Unified diff of one function in the two files (waits are the changes)."""
    a = llvm_lines[llvm_fn.start:llvm_fn.end]
    b = ours_lines[ours_fn.start:ours_fn.end]
    return "".join(difflib.unified_diff([x + "\n" for x in a], [x + "\n" for x in b],
                                        "llvm:" + name, "ours:" + name, n=4))


def compare(out, llvm_lines, ours_lines, target, work):
    llvm_fns = per_function_waits(llvm_lines, target)
    ours_fns = per_function_waits(ours_lines, target)
    llvm_all, ours_all = [], []
    diffs = []
    for name, (fn, waits) in llvm_fns.items():
        llvm_all.extend(w for _, w in waits)
        if name not in ours_fns:
            out.fail("b", "function %s is missing from the inserted output" % name)
            continue
        ofn, owaits = ours_fns[name]
        ours_all.extend(w for _, w in owaits)
        lt, lp = waitlib.strength([w for _, w in waits], target)
        ot, op = waitlib.strength([w for _, w in owaits], target)
        stronger = waitlib.stronger_counters(op, lp)
        weaker = waitlib.stronger_counters(lp, op)
        detail = "llvm %s, ours %s" % (describe(lt), describe(ot))
        per_counter = ", ".join(
            "%s llvm %d/%d/%d ours %d/%d/%d" % (
                c, lp.get(c, {}).get("n", 0), lp.get(c, {}).get("zero", 0),
                lp.get(c, {}).get("sum", 0), op.get(c, {}).get("n", 0),
                op.get(c, {}).get("zero", 0), op.get(c, {}).get("sum", 0))
            for c in sorted(set(lp) | set(op)))
        if ot["waits"] > lt["waits"] or stronger:
            what = []
            if ot["waits"] > lt["waits"]:
                what.append("more waits")
            if stronger:
                what.append("stronger on " + ",".join(stronger))
            out.stronger.append((name, "%s: %s (%s)" % ("; ".join(what), detail, per_counter)))
            diffs.append(function_diff(name, llvm_lines, fn, ours_lines, ofn))
        elif ot["waits"] < lt["waits"] or weaker:
            out.fewer.append((name, "%s (%s)" % (detail, per_counter)))
            diffs.append(function_diff(name, llvm_lines, fn, ours_lines, ofn))
    out.llvm_total, _ = waitlib.strength(llvm_all, target)
    out.ours_total, _ = waitlib.strength(ours_all, target)
    if diffs:
        Path(work, out.case.tag + ".waits.diff").write_text("".join(diffs))


def check(case, args):
    out = Outcome(case)
    start = time.time()
    work = Path(args.work)
    src, r = waitlib.compile_case(case, args.clang, work)
    if r.rc != 0:
        out.fail("compile", tail(r.err))
        return out
    llvm_lines = read_lines(src)
    target = case.target
    base = work / case.tag
    opt = args.opt

    # (a) LLVM's waits pass the verifier.
    if not args.dry_run:
        v = run([opt, src, "--verify-waitcnt", "--warn-redundant-waitcnt", "-o", str(base) + ".verify.s"])
        if v.rc != 0 or diagnostics(v.err, "error"):
            out.fail("a", "exit %d\n%s" % (v.rc, messages(v.err) or tail(v.err)))
        elif Path(str(base) + ".verify.s").read_bytes() != src.read_bytes():
            out.fail("a", "--verify-waitcnt changed the file (%s.verify.s)" % base)
        out.llvm_redundant = len(diagnostics(v.err, "warning"))

    # (s) The remove pass alone: every wait goes except those it keeps on
    # purpose (an atomic, a barrier or a cache operation follows: the memory
    # model's waits LLVM placed); with =all, every wait goes.
    for variant, suffix in (("", ".strip.s"), ("=all", ".strip-all.s")):
        stripped = Path(str(base) + suffix)
        if args.dry_run:
            stripped.write_text("\n".join(waitlib.strip_waits(llvm_lines, target)) + "\n")
        else:
            s = run([opt, src, "--no-verify", "--StinkyRemoveWaitCntPass" + variant, "-o", stripped])
            if s.rc != 0:
                out.fail("s", "StinkyRemoveWaitCntPass%s: exit %d\n%s" % (variant, s.rc, tail(s.err)))
                continue
        slines = read_lines(stripped)
        left = waitlib.wait_lines(slines, target)
        if not variant:
            kept = {i for i in left if release_wait(slines, i)}
            out.kept_releases = len(kept)
            left = {i: w for i, w in left.items() if i not in kept}
        if left:
            shown = ["%s:%d: %s" % (stripped.name, i + 1, slines[i].strip()) for i in sorted(left)]
            out.fail("s", "%d memory-counter wait(s) left by StinkyRemoveWaitCntPass%s%s:\n%s"
                     % (len(left), variant,
                        "" if variant else " (no atomic, barrier or cache operation follows)",
                        "\n".join(shown[:MAX_MESSAGES])))
        if waitlib.non_wait_code(slines, target) != waitlib.non_wait_code(llvm_lines, target):
            out.fail("s", "StinkyRemoveWaitCntPass%s changed more than waits (%s)" % (variant, stripped))

    # (b) Remove + insert.
    inserted = Path(str(base) + ".ins.s")
    if args.dry_run:
        shutil.copyfile(src, inserted)
    else:
        i = run([opt, src, "--no-verify", "--StinkyRemoveWaitCntPass", "--StinkyWaitCntInsertionPass",
                  "-o", inserted])
        if i.rc != 0:
            out.fail("b", "remove + insert: exit %d\n%s" % (i.rc, tail(i.err)))
            out.seconds = time.time() - start
            return out
    ours_lines = read_lines(inserted)
    if not args.dry_run:
        v = run([opt, inserted, "--verify-waitcnt", "--warn-redundant-waitcnt",
                 "-o", str(base) + ".ins.verify.s"])
        if v.rc != 0 or diagnostics(v.err, "error"):
            out.fail("b", "verifier on the inserted output (%s): exit %d\n%s"
                     % (inserted.name, v.rc, messages(v.err) or tail(v.err)))
        for line, _col, _kind, msg in diagnostics(v.err, "warning"):
            text = ours_lines[line - 1].strip() if 0 < line <= len(ours_lines) else ""
            if 0 < line <= len(ours_lines) and release_wait(ours_lines, line - 1):
                out.kept_redundant += 1    # a release the remove pass kept
                continue
            out.ours_redundant.append("%s:%d: %s  (%s)" % (inserted.name, line, msg, text))
    mc = run([args.llvm_mc, "-triple=amdgcn-amd-amdhsa", "-mcpu=" + target, "-filetype=obj",
              inserted, "-o", str(base) + ".ins.o"])
    if mc.rc != 0:
        out.fail("b", "llvm-mc rejects the inserted output:\n%s" % messages(mc.err))
    if waitlib.non_wait_code(ours_lines, target) != waitlib.non_wait_code(llvm_lines, target):
        a = waitlib.non_wait_code(llvm_lines, target)
        b = waitlib.non_wait_code(ours_lines, target)
        d = list(difflib.unified_diff(a, b, "llvm", "ours", n=1, lineterm=""))
        out.fail("b", "remove + insert changed more than memory-counter waits:\n%s"
                 % "\n".join(d[:20]))

    # (c) Idempotence.
    if not args.dry_run:
        again = Path(str(base) + ".ins2.s")
        i2 = run([opt, inserted, "--StinkyWaitCntInsertionPass", "-o", again])
        if i2.rc != 0:
            out.fail("c", "second insertion: exit %d\n%s" % (i2.rc, tail(i2.err)))
        elif again.read_bytes() != inserted.read_bytes():
            d = difflib.unified_diff(ours_lines, read_lines(again), inserted.name, again.name,
                                     n=2, lineterm="")
            out.fail("c", "a second insertion changed the output:\n%s" % "\n".join(list(d)[:24]))

    # (d) Compare.
    compare(out, llvm_lines, ours_lines, target, work)
    out.seconds = time.time() - start
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    waitlib.add_common_options(parser)
    parser.add_argument("--strict-compare", action="store_true",
                        help="also fail when ours has more or stronger waits than LLVM")
    parser.add_argument("--quiet", action="store_true", help="no per-case table rows")
    args = waitlib.resolve_common(parser.parse_args())
    cases = waitlib.matrix(args.kernels_dir, args.kernels, args.targets, args.opt_levels,
                           args.sample)
    started = time.time()
    outcomes = waitlib.parallel_map(lambda c: check(c, args), cases, args.j)
    elapsed = time.time() - started

    print("waitcnt oracle: %d cases (%d kernel files x %d targets x %s), stinkytofu-opt %s%s"
          % (len(cases), len({c.kernel for c in cases}), len(args.targets),
             "/".join(args.opt_levels), args.opt, " [dry run]" if args.dry_run else ""))
    print("work folder: %s" % args.work)
    print("totals per case over its functions: waits/fields/zero/sum "
          "(see the docstring); red = LLVM waits the verifier calls redundant")
    row = "%-14s %-8s %-3s %-16s %-16s %4s  %s"
    if not args.quiet:
        print(row % ("kernel", "target", "-O", "llvm", "ours", "red", "result"))
    for o in outcomes:
        c = o.case
        if o.failures:
            result = "FAIL " + ",".join(sorted({k for k, _ in o.failures}))
        elif o.stronger:
            result = "ours more/stronger in %d function(s)" % len(o.stronger)
        elif o.fewer:
            result = "ok (ours fewer/weaker in %d)" % len(o.fewer)
        else:
            result = "ok"
        if o.ours_redundant and not o.failures:
            result += "; %d redundant inserted" % len(o.ours_redundant)
        if not args.quiet:
            print(row % (c.kernel, c.target, c.opt,
                         describe(o.llvm_total) if o.llvm_total else "-",
                         describe(o.ours_total) if o.ours_total else "-",
                         o.llvm_redundant if not args.dry_run else "-", result))

    failed = [o for o in outcomes if o.failures]
    stronger = [o for o in outcomes if o.stronger]
    fewer = [o for o in outcomes if o.fewer]
    redundant = [o for o in outcomes if o.ours_redundant]
    if failed:
        print("\n== failures")
        for o in failed:
            for check_name, text in o.failures:
                print("[%s] %s (%s):" % (check_name, o.case.tag, o.case.source.name))
                for line in text.splitlines():
                    print("    " + line)
    if stronger:
        print("\n== functions where ours has more or stronger waits than LLVM "
              "(diffs: <work>/<case>.waits.diff)")
        for o in stronger:
            for fn, detail in o.stronger:
                print("%s %s: %s" % (o.case.tag, fn, detail))
    if fewer:
        print("\n== functions where ours has fewer or weaker waits than LLVM (information)")
        for o in fewer:
            for fn, detail in o.fewer:
                print("%s %s: %s" % (o.case.tag, fn, detail))
    if redundant:
        print("\n== waits in our output the verifier calls redundant (not counting those "
              "before an atomic, a barrier or a cache operation, which the remove pass keeps)")
        for o in redundant:
            for text in o.ours_redundant[:MAX_MESSAGES]:
                print("%s: %s" % (o.case.tag, text))
            if len(o.ours_redundant) > MAX_MESSAGES:
                print("%s: ... and %d more" % (o.case.tag, len(o.ours_redundant) - MAX_MESSAGES))

    counts = {}
    for o in failed:
        for k in {k for k, _ in o.failures}:
            counts[k] = counts.get(k, 0) + 1
    llvm_sum = {"waits": 0, "fields": 0, "zero": 0, "sum": 0}
    ours_sum = dict(llvm_sum)
    for o in outcomes:
        for k in llvm_sum:
            if o.llvm_total and o.ours_total:
                llvm_sum[k] += o.llvm_total[k]
                ours_sum[k] += o.ours_total[k]
    print("\nsummary: %d cases, %d failed (%s); ours more/stronger in %d case(s), fewer/weaker "
          "in %d; all cases llvm %s ours %s; %d release waits kept by the remove pass "
          "(%d of them redundant to the verifier); "
          "%.1fs with -j %d"
          % (len(cases), len(failed),
             ", ".join("%s: %d" % kv for kv in sorted(counts.items())) or "none",
             len(stronger), len(fewer), describe(llvm_sum), describe(ours_sum),
             sum(o.kept_releases for o in outcomes), sum(o.kept_redundant for o in outcomes),
             elapsed, args.j))
    bad = failed or (args.strict_compare and stronger)
    print("waitcnt oracle: %s" % ("FAILED" if bad else "OK"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
