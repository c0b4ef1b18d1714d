#!/usr/bin/env python3
"""Hazard oracle: LLVM's s_nop / v_nop, s_delay_alu and s_wait_alu against ours.

For every kernel file of tests/kernels/*.cl x target x -O level, compiled to
assembly by clang (so LLVM's hazard recognizer, AMDGPUWaitSGPRHazards and
AMDGPUInsertDelayAlu placed them), and every mechanism chosen:
  (a) `stinkytofu-opt K.s --LongBranchLoweringPass --verify-hazards` reports no
      error on LLVM's file
      (the delay-alu check may warn);
  (b) the mechanism's remove pass leaves none of its instructions, and
      remove + insert + --verify-hazards succeeds, the output assembles with
      llvm-mc for the target and differs from LLVM's file in the
      mechanism's instructions only;
  (c) inserting again changes nothing (byte-identical output);
  (d) ours against LLVM's at the same positions (between the same two
      other statements): per target, how many of LLVM's instructions ours
      has there too (the match rate) and how many ours adds; for nops, the
      wait states each side spends (s_nop N is N+1, v_nop 1).
Mechanism `all` strips the three kinds and inserts them in LLVM's order
(nops, s_wait_alu, s_delay_alu); its (d) is reported per kind.

Exit status 1 when a case fails (a), (b) or (c) (or does not compile), or a
target's s_delay_alu / s_wait_alu match rate falls below --min-rate, or with
--max-nop-ratio ours spend more nop wait states than LLVM's times the ratio.
(LLVM's nops are not matched one for one: its spill code carries implicit
operands assembly does not show, docs/hazards.md.)

Mechanism `alu` does the same for the ALU waits only (s_wait_alu and
s_waitcnt_depctr, then s_delay_alu), what a user gets from RemoveWaitAluPass
RemoveDelayAluPass InsertWaitAluPass InsertDelayAluPass.

--device-libs DIR compiles with the ROCm device libraries of DIR (Debian's
/usr/lib/x86_64-linux-gnu/amdgcn/bitcode) instead of -nogpulib, so that
OpenCL's exp, log, pow, sin become the library's inline math. The package
has no oclc_isa_version bitcode for gfx11 and gfx12; the oracle writes one
(only __oclc_ISA_version, e.g. 11000 for gfx1100) into the work folder.

--inputs DIR takes compiled .s files (every *.s under DIR, such as the broad
corpus of bench/build-corpus.sh) instead of compiling the kernels folder; each
file is read for the processor of its .amdgcn_target, and only those of
--targets are checked. --no-more-than-llvm also fails a target where ours
has more s_delay_alu or s_wait_alu than LLVM's.

Usage: hazard_oracle.py --mechanism nop|delay-alu|wait-alu|alu|all [--targets ...]
         [--opt-levels O2] [--kernels matrix,loops] [--inputs DIR | --device-libs DIR]
         [--min-rate 95]
         [--no-more-than-llvm] [-j N] [--opt PATH] [--clang PATH] [--llvm-mc PATH] [--work DIR]
"""

import argparse
import re
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "waitcnt"))
import waitlib  # noqa: E402
from waitlib import code_of, diagnostics, mnemonic_of, run  # noqa: E402


@dataclass(frozen=True)
class Mechanism:
    name: str
    mnemonics: tuple
    remove: str
    insert: str
    targets: tuple


ALL_TARGETS = tuple(waitlib.TARGETS)
# gfx10.3 has the depctr wait but none of the modelled rules: LLVM writes no
# ALU wait there, and ours must not either.
ALU_WAIT_TARGETS = ("gfx1030", "gfx1100", "gfx1200", "gfx1201", "gfx1250")
MECHANISMS = {
    "nop": Mechanism("nop", ("s_nop", "v_nop"), "StinkyRemoveNopPass", "HazardRecognizerPass",
                     ALL_TARGETS),
    "wait-alu": Mechanism("wait-alu", ("s_wait_alu", "s_waitcnt_depctr"), "RemoveWaitAluPass",
                          "InsertWaitAluPass",
                          ALU_WAIT_TARGETS),
    "delay-alu": Mechanism("delay-alu", ("s_delay_alu",), "RemoveDelayAluPass",
                           "InsertDelayAluPass", ALU_WAIT_TARGETS),
}
# LLVM's order: the hazard recognizer, then the SGPR hazards, then delays.
ALL_ORDER = ("nop", "wait-alu", "delay-alu")
COMBINED = {"all": ALL_ORDER, "alu": ("wait-alu", "delay-alu")}


def nop_states(line):
    code = code_of(line).split()
    if code[0] == "v_nop":
        return 1
    return int(code[1], 0) + 1 if len(code) > 1 else 1


def gaps(lines, mnemonics, ignored=()):
    """The statements of the mechanism between each pair of other statements
    (those of the \p ignored mnemonics left out): a list parallel to the
    other statements (plus one for the end)."""
    out, current, others = [], [], []
    for line in lines:
        mn = mnemonic_of(line)
        code = code_of(line)
        if not code or mn in ignored:
            continue
        if mn in mnemonics:
            current.append(" ".join(code.split()))
            continue
        others.append(" ".join(code.split()))
        out.append(current)
        current = []
    out.append(current)
    return out, others


@dataclass
class Tally:
    cases: int = 0
    llvm: int = 0
    ours: int = 0
    matched: int = 0
    llvm_states: int = 0
    ours_states: int = 0
    mismatches: list = field(default_factory=list)


@dataclass
class Outcome:
    case: object
    failures: list = field(default_factory=list)
    tallies: dict = field(default_factory=dict)  # mechanism name -> Tally

    def fail(self, check, text):
        self.failures.append("(%s) %s" % (check, text))


def errors_of(result):
    return [d for d in diagnostics(result.err, "error")]


def compare(mech, llvm_lines, our_lines, tag, ignored):
    t = Tally(cases=1)
    theirs, their_others = gaps(llvm_lines, mech.mnemonics, ignored)
    ours, our_others = gaps(our_lines, mech.mnemonics, ignored)
    if their_others != our_others:
        return None
    for i, (a, b) in enumerate(zip(theirs, ours)):
        t.llvm += len(a)
        t.ours += len(b)
        common = Counter(a) & Counter(b)
        t.matched += sum(common.values())
        if mech.name == "nop":
            t.llvm_states += sum(nop_states(x) for x in a)
            t.ours_states += sum(nop_states(x) for x in b)
        if Counter(a) != Counter(b) and len(t.mismatches) < 4:
            where = their_others[i] if i < len(their_others) else "<end>"
            t.mismatches.append("%s: before `%s`: LLVM %s, ours %s" % (tag, where, a, b))
    return t


_TARGET_ID = re.compile(r'^\s*\.amdgcn_target\s+"amdgcn-amd-amdhsa--(gfx\w+)', re.M)


def input_cases(dirs, targets):
    """A case per compiled .s file under \p dirs whose processor is one of
    \p targets; its tag is the DIR's name and the path under it, flattened."""
    cases = []
    for d in dirs:
        root = Path(d)
        for path in sorted(root.rglob("*.s")):
            m = _TARGET_ID.search(path.read_text(errors="replace"))
            if not m or m.group(1) not in targets:
                continue
            tag = str(path.relative_to(root.parent).with_suffix("")).replace("/", "-")
            cases.append(waitlib.Case(tag, path, m.group(1), "input"))
    return cases


def isa_version(target):
    """__oclc_ISA_version of a processor: gfx1100 11000, gfx1201 12001,
    gfx1250 12050, gfx90a 9010."""
    digits = target[3:]
    major, minor, stepping = digits[:-2], digits[-2], digits[-1]
    return int(major) * 1000 + int(minor, 16) * 100 + int(stepping, 16)


def device_library_dir(args):
    """A folder with the device libraries of args.device_libs and the
    oclc_isa_version bitcode the targets need that it lacks."""
    libs = Path(args.work) / "device-libs"
    libs.mkdir(exist_ok=True)
    layout = ""
    for bc in sorted(Path(args.device_libs).glob("*.bc")):
        link = libs / bc.name
        if not link.exists():
            link.symlink_to(bc)
        if bc.name.startswith("oclc_isa_version_") and not layout:
            text = run([args.llvm_dis, bc, "-o", "-"]).out
            layout = next((l for l in text.splitlines() if l.startswith("target datalayout")), "")
    for target in args.targets:
        bc = libs / ("oclc_isa_version_%s.bc" % target[3:])
        if bc.exists():
            continue
        module = libs / (bc.stem + ".ll")
        module.write_text('%s\ntarget triple = "amdgcn-amd-amdhsa"\n'
                          "@__oclc_ISA_version = linkonce_odr protected local_unnamed_addr "
                          "addrspace(4) constant i32 %d, align 4\n" % (layout, isa_version(target)))
        r = run([args.llvm_as, module, "-o", bc])
        if r.rc != 0:
            sys.exit("llvm-as: " + r.err.strip())
    return libs


def compile_with_device_libs(case, args):
    out = Path(args.work) / (case.tag + ".s")
    r = run([args.clang, "-x", "cl", "-cl-std=CL2.0", "--target=amdgcn-amd-amdhsa",
             "-mcpu=" + case.target, "--rocm-device-lib-path=%s" % args.device_lib_dir,
             "-mcode-object-version=5", "-Wno-linker-warnings", "-" + case.opt, "-S",
             case.source, "-o", out])
    return out, r


def run_case(case, args):
    out = Outcome(case)
    if case.opt == "input":
        src = case.source
    elif args.device_libs:
        src, r = compile_with_device_libs(case, args)
        if r.rc != 0:
            out.fail("compile", r.err.strip()[:500])
            return out
    else:
        src, r = waitlib.compile_case(case, args.clang, args.work)
        if r.rc != 0:
            out.fail("compile", r.err.strip()[:500])
            return out
    llvm_lines = src.read_text().splitlines()
    mechs = [MECHANISMS[m] for m in COMBINED.get(args.mechanism, [args.mechanism])
             if case.target in MECHANISMS[m].targets and MECHANISMS[m].insert in args.passes]
    if not mechs:
        return out

    # Long branches (s_getpc/s_setpc) get their proven targets first, as in
    # stinkytofu-opt's own pipelines: otherwise their targets look unreachable
    # and each jump is taken for a tail call, which must wait for every write.
    v = run([args.opt, src, "--LongBranchLoweringPass", "--verify-hazards", "-o", "/dev/null"])
    if v.rc != 0 or errors_of(v):
        out.fail("a", "--verify-hazards on LLVM's file:\n" + v.err.strip()[:1500])

    removes = ["--LongBranchLoweringPass"] + ["--" + m.remove for m in mechs]
    inserts = ["--" + m.insert for m in mechs]
    stripped = Path(args.work) / (case.tag + ".stripped.s")
    r = run([args.opt, src, "--no-verify"] + removes + ["-o", stripped])
    if r.rc != 0:
        out.fail("b", "remove failed:\n" + r.err.strip()[:800])
        return out
    left = [l for l in stripped.read_text().splitlines()
            if any(mnemonic_of(l) in m.mnemonics for m in mechs)]
    if left:
        out.fail("b", "the remove passes left %d instructions, e.g. %s" % (len(left), left[0]))

    ours = Path(args.work) / (case.tag + ".ours.s")
    r = run([args.opt, src, "--no-verify"] + removes + inserts + ["--verify-hazards", "-o", ours])
    if r.rc != 0 or errors_of(r):
        out.fail("b", "remove + insert + --verify-hazards:\n" + r.err.strip()[:1500])
        return out
    mc = run([args.llvm_mc, "-triple=amdgcn-amd-amdhsa", "-mcpu=" + case.target,
              "-filetype=obj", ours, "-o", "/dev/null"])
    if mc.rc != 0:
        out.fail("b", "llvm-mc rejects our output:\n" + mc.err.strip()[:800])
    again = Path(args.work) / (case.tag + ".again.s")
    r = run([args.opt, ours, "--LongBranchLoweringPass"] + inserts + ["-o", again])
    if r.rc != 0 or again.read_text() != ours.read_text():
        out.fail("c", "a second insertion changed the file")

    our_lines = ours.read_text().splitlines()
    for m in mechs:
        others = {mn for o in mechs if o is not m for mn in o.mnemonics}
        t = compare(m, llvm_lines, our_lines, case.tag, others)
        if t is None:
            out.fail("b", "the output differs from LLVM's in other than %s" % "/".join(m.mnemonics))
            continue
        out.tallies[m.name] = t
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    waitlib.add_common_options(p)
    p.add_argument("--mechanism", required=True, choices=sorted(MECHANISMS) + sorted(COMBINED))
    p.add_argument("--inputs", action="append", default=[],
                   help="check the compiled .s files under this folder instead of "
                        "compiling the kernels folder (repeatable)")
    p.add_argument("--device-libs", help="compile with the ROCm device libraries of this "
                                          "folder instead of -nogpulib")
    p.add_argument("--no-more-than-llvm", action="store_true",
                   help="fail when a target's s_delay_alu or s_wait_alu outnumber LLVM's")
    p.add_argument("--min-rate", type=float, default=0.0,
                   help="fail when a target's s_delay_alu or s_wait_alu match rate "
                        "(percent) is below this")
    p.add_argument("--max-nop-ratio", type=float, default=0.0,
                   help="fail when our nop wait states exceed LLVM's times this (0: off)")
    args = waitlib.resolve_common(p.parse_args())
    listed = run([args.opt, "--list-passes"])
    args.passes = {line.split()[0] for line in listed.out.splitlines() if line.strip()}

    if args.device_libs:
        args.llvm_as = waitlib.find_tool(None, ["llvm-as"])
        args.llvm_dis = waitlib.find_tool(None, ["llvm-dis"])
        args.device_lib_dir = device_library_dir(args)
    if args.inputs:
        cases = input_cases(args.inputs, args.targets)
    else:
        cases = waitlib.matrix(args.kernels_dir, args.kernels, args.targets,
                               args.opt_levels, args.sample)
    print("hazard oracle (%s): %d cases" % (args.mechanism, len(cases)))
    outcomes = waitlib.parallel_map(lambda c: run_case(c, args), cases, args.j)

    failed = 0
    for o in outcomes:
        if o.failures:
            failed += 1
            print("FAIL %s" % o.case.tag)
            for f in o.failures:
                print("  " + f.replace("\n", "\n    "))
    by_target = defaultdict(lambda: defaultdict(Tally))
    for o in outcomes:
        for name, t in o.tallies.items():
            s = by_target[name][o.case.target]
            s.cases += 1
            s.llvm += t.llvm
            s.ours += t.ours
            s.matched += t.matched
            s.llvm_states += t.llvm_states
            s.ours_states += t.ours_states
            s.mismatches.extend(t.mismatches)
    bad_rate = False
    for name in ALL_ORDER:
        if name not in by_target:
            continue
        print("%s:" % name)
        for target in waitlib.TARGETS:
            s = by_target[name].get(target)
            if not s:
                continue
            rate = 100.0 * s.matched / s.llvm if s.llvm else 100.0
            line = "  %-8s cases %3d  llvm %5d  ours %5d  same place %5d  rate %6.2f%%" % (
                target, s.cases, s.llvm, s.ours, s.matched, rate)
            if name == "nop":
                line += "  wait states llvm %5d ours %5d" % (s.llvm_states, s.ours_states)
                if args.max_nop_ratio and s.ours_states > s.llvm_states * args.max_nop_ratio:
                    bad_rate = True
                    line += "  (more than LLVM)"
            if name != "nop" and s.llvm and rate < args.min_rate:
                bad_rate = True
                line += "  (below %.1f%%)" % args.min_rate
            if name != "nop" and args.no_more_than_llvm and s.ours > s.llvm:
                bad_rate = True
                line += "  (more than LLVM)"
            print(line)
            for m in s.mismatches[:3]:
                print("      " + m)
    print("summary: %d cases, %d failed" % (len(cases), failed))
    ok = not failed and not bad_rate
    print("hazard oracle: %s" % ("OK" if ok else "FAILED"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
