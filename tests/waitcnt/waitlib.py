"""Shared pieces of the wait-count oracle and mutation check (tests/waitcnt).

What is here:
  - the targets and the largest count each wait field encodes on them
    (a field at or above its maximum waits for nothing);
  - parse_wait(): a memory-counter wait instruction of any generation
    (s_waitcnt with named fields or an immediate, s_waitcnt_vscnt & co.,
    gfx12's s_wait_<counter> and the two combined forms) as {counter: count};
  - format_wait(): the same instruction with other counts, in the syntax of
    the line it came from (used to weaken a wait);
  - functions(): the functions of a compiled .s file with their instruction
    lines, so waits are counted per function;
  - strip_waits(): the file without its memory-counter waits (what
    StinkyRemoveWaitCntPass is meant to leave), used to check that a
    rewrite changed waits only;
  - the compile / run / diagnostics helpers and the (kernel, target, -O)
    matrix both scripts walk.

Not a test by itself; tests/waitcnt/waitcnt_oracle.py and
tests/waitcnt/waitcnt_mutate.py import it.
"""

import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from sweep_sample import in_sample  # noqa: E402

TARGETS = ["gfx900", "gfx906", "gfx908", "gfx90a", "gfx942", "gfx950",
           "gfx1030", "gfx1100", "gfx1200", "gfx1201", "gfx1250"]
OPT_LEVELS = ["O0", "O2"]

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
DEFAULT_KERNELS = ROOT / "tests" / "kernels"
DEFAULT_OPT = ROOT / "build" / "bin" / "stinkytofu-opt"
LLVM_BIN = Path("/usr/lib/llvm-22/bin")


def generation(target):
    """'gfx9', 'gfx10', 'gfx11', 'gfx12' or 'gfx1250'."""
    if target == "gfx1250":
        return "gfx1250"
    number = target[3:]
    if len(number) == 3:
        return "gfx9"
    return "gfx" + number[:2]


# Largest count a field encodes (hw-dependencies-reference.md 1.2). A wait
# with a field at this value does not wait on that counter. asynccnt and
# tensorcnt (gfx1250) are not in the table; their SOPP immediate is taken to
# be 6 bits wide like the other gfx12 counters.
_MAX = {
    "gfx9": {"vmcnt": 63, "expcnt": 7, "lgkmcnt": 15},
    "gfx10": {"vmcnt": 63, "expcnt": 7, "lgkmcnt": 63, "vscnt": 63},
    "gfx11": {"vmcnt": 63, "expcnt": 7, "lgkmcnt": 63, "vscnt": 63},
    "gfx12": {"loadcnt": 63, "expcnt": 7, "dscnt": 63, "storecnt": 63, "samplecnt": 63,
              "bvhcnt": 7, "kmcnt": 31},
}
# gfx1250 has no s_wait_expcnt, s_wait_samplecnt or s_wait_bvhcnt (llvm-mc).
_MAX["gfx1250"] = {c: n for c, n in _MAX["gfx12"].items() if c not in ("expcnt", "samplecnt", "bvhcnt")}
_MAX["gfx1250"].update(xcnt=63, asynccnt=63, tensorcnt=63)


def counter_max(target):
    return _MAX[generation(target)]


# ---------------------------------------------------------------------------
# Wait instructions.

_COMMENT = re.compile(r"/\*.*?\*/|;.*$|//.*$")
_FIELD = re.compile(r"\b(vmcnt|expcnt|lgkmcnt)(_sat)?\(\s*(0x[0-9a-fA-F]+|\d+)\s*\)")
# gfx12+ single-counter waits; s_wait_alu and s_wait_event are not counters.
_GFX12_SINGLE = {"s_wait_loadcnt": "loadcnt", "s_wait_storecnt": "storecnt",
                 "s_wait_samplecnt": "samplecnt", "s_wait_bvhcnt": "bvhcnt",
                 "s_wait_expcnt": "expcnt", "s_wait_xcnt": "xcnt", "s_wait_dscnt": "dscnt",
                 "s_wait_kmcnt": "kmcnt", "s_wait_asynccnt": "asynccnt",
                 "s_wait_tensorcnt": "tensorcnt"}
_GFX12_COMBINED = {"s_wait_loadcnt_dscnt": ("loadcnt", "dscnt"),
                   "s_wait_storecnt_dscnt": ("storecnt", "dscnt")}
# gfx10/gfx11 SOPK forms: s_waitcnt_vscnt null, N and friends.
_SOPK = {"s_waitcnt_vscnt": "vscnt", "s_waitcnt_vmcnt": "vmcnt",
         "s_waitcnt_expcnt": "expcnt", "s_waitcnt_lgkmcnt": "lgkmcnt"}
WAIT_MNEMONICS = set(_GFX12_SINGLE) | set(_GFX12_COMBINED) | set(_SOPK) | {"s_waitcnt"}


def code_of(line):
    """The statement of a line without its comment, stripped."""
    return _COMMENT.sub("", line).strip()


def mnemonic_of(line):
    code = code_of(line)
    if not code or code.startswith(".") or code.endswith(":") or code.startswith("#"):
        return None
    m = re.match(r"([A-Za-z_][\w.]*)", code)
    return m.group(1).lower() if m else None


def _int(text):
    text = text.strip().lower()
    if text.startswith(("0x", "-0x")):
        return int(text, 16)
    return int(text, 10)


def _decode_simm16(gen, value):
    """Fields of an s_waitcnt immediate (hw-dependencies-reference.md 1.3)."""
    if gen == "gfx11":
        return {"vmcnt": (value >> 10) & 0x3F, "expcnt": value & 7, "lgkmcnt": (value >> 4) & 0x3F}
    vm = (value & 0xF) | (((value >> 14) & 3) << 4)
    lgkm = (value >> 8) & (0xF if gen == "gfx9" else 0x3F)
    return {"vmcnt": vm, "expcnt": (value >> 4) & 7, "lgkmcnt": lgkm}


def _encode_simm16(gen, fields):
    if gen == "gfx11":
        return ((fields["vmcnt"] & 0x3F) << 10) | (fields["expcnt"] & 7) | \
               ((fields["lgkmcnt"] & 0x3F) << 4)
    vm = fields["vmcnt"]
    lgkm_bits = 0xF if gen == "gfx9" else 0x3F
    return (vm & 0xF) | (((vm >> 4) & 3) << 14) | ((fields["expcnt"] & 7) << 4) | \
           ((fields["lgkmcnt"] & lgkm_bits) << 8)


@dataclass
class Wait:
    mnemonic: str
    counts: dict          # every counter the instruction encodes -> count
    form: str             # "named", "simm16", "sopk", "single", "combined"

    def waiting(self, target):
        """{counter: count} for the counters it really waits on."""
        limits = counter_max(target)
        return {c: n for c, n in self.counts.items() if n < limits.get(c, 1 << 30)}


def parse_wait(line, target):
    """A Wait for a memory-counter wait instruction, else None.

    s_waitcnt_depctr / s_wait_alu (ALU dependencies) and s_wait_event are not
    memory-counter waits. A field the text leaves out is at its maximum.
    """
    mn = mnemonic_of(line)
    if mn not in WAIT_MNEMONICS:
        return None
    gen = generation(target)
    limits = counter_max(target)
    operands = code_of(line)[len(mn):].strip()
    if mn == "s_waitcnt":
        named = _FIELD.findall(operands)
        if named:
            counts = {c: limits[c] for c in ("vmcnt", "expcnt", "lgkmcnt")}
            for name, _sat, value in named:
                counts[name] = min(_int(value), limits[name])
            return Wait(mn, counts, "named")
        try:
            value = _int(operands)
        except ValueError:
            # A symbol or expression: unknown, so take it as waiting for all.
            return Wait(mn, {"vmcnt": 0, "expcnt": 0, "lgkmcnt": 0}, "named")
        return Wait(mn, _decode_simm16(gen, value), "simm16")
    if mn in _SOPK:
        parts = [p.strip() for p in operands.split(",")]
        value = _int(parts[-1]) if parts and parts[-1] else 0
        return Wait(mn, {_SOPK[mn]: min(value, limits.get(_SOPK[mn], value))}, "sopk")
    if mn in _GFX12_SINGLE:
        counter = _GFX12_SINGLE[mn]
        value = _int(operands) if operands else 0
        return Wait(mn, {counter: min(value, limits.get(counter, value))}, "single")
    hi, lo = _GFX12_COMBINED[mn]
    value = _int(operands) if operands else 0
    return Wait(mn, {hi: (value >> 8) & 0x3F, lo: value & 0x3F}, "combined")


def format_wait(line, wait, new_counts, target):
    """The line with the wait's counts replaced by new_counts (same syntax)."""
    m = re.match(r"^(\s*)(\S+)(.*)$", line.rstrip("\n"))
    indent, mn = m.group(1), m.group(2)
    gen = generation(target)
    limits = counter_max(target)
    if wait.form == "named":
        fields = []
        for c in ("vmcnt", "expcnt", "lgkmcnt"):
            if new_counts[c] < limits[c]:
                fields.append("%s(%d)" % (c, new_counts[c]))
        text = " ".join(fields) if fields else hex(_encode_simm16(gen, new_counts))
        return "%s%s %s" % (indent, mn, text)
    if wait.form == "simm16":
        return "%s%s 0x%x" % (indent, mn, _encode_simm16(gen, new_counts))
    if wait.form == "sopk":
        sdst = code_of(line)[len(mn):].split(",")[0].strip()
        return "%s%s %s, 0x%x" % (indent, mn, sdst, list(new_counts.values())[0])
    if wait.form == "single":
        return "%s%s 0x%x" % (indent, mn, list(new_counts.values())[0])
    hi, lo = _GFX12_COMBINED[mn.lower()]
    return "%s%s 0x%x" % (indent, mn, (new_counts[hi] << 8) | new_counts[lo])


# ---------------------------------------------------------------------------
# Functions of a compiled file.

@dataclass
class Function:
    name: str
    start: int                      # 0-based line index of the label
    end: int                        # 0-based index past the last line
    kernel: bool = False
    instructions: list = field(default_factory=list)   # 0-based line indices


def functions(lines):
    """Functions (.type NAME,@function) with their instruction line indices."""
    typed = set()
    kernels = set()
    for line in lines:
        m = re.match(r"\s*\.type\s+([\w.$]+)\s*,\s*@function", line)
        if m:
            typed.add(m.group(1))
        m = re.match(r"\s*\.amdhsa_kernel\s+([\w.$]+)", line)
        if m:
            kernels.add(m.group(1))
    result = []
    current = None
    for i, line in enumerate(lines):
        code = code_of(line)
        m = re.match(r"^([\w.$]+):", code)
        if m and m.group(1) in typed:
            if current:
                current.end = i
                result.append(current)
            current = Function(m.group(1), i, len(lines), m.group(1) in kernels)
            continue
        if current is None:
            continue
        if m and m.group(1).startswith(".Lfunc_end"):
            current.end = i
            result.append(current)
            current = None
            continue
        if mnemonic_of(line):
            current.instructions.append(i)
    if current:
        result.append(current)
    return result


def wait_lines(lines, target):
    """{line index: Wait} for every memory-counter wait of the file."""
    out = {}
    for i, line in enumerate(lines):
        w = parse_wait(line, target)
        if w is not None:
            out[i] = w
    return out


# Strength of a list of waits, per counter (the oracle's comparison):
#   n    wait instructions that wait on the counter (count below its maximum),
#   zero how many of those wait for 0,
#   sum  the sum of their counts.
# One set of waits is stronger than another on a counter when it has more
# waits on it, or more waits to 0, or as many waits with a smaller sum.
def strength(waits, target):
    per = {}
    instructions = 0
    for w in waits:
        fields = w.waiting(target)
        if fields:
            instructions += 1
        for c, n in fields.items():
            s = per.setdefault(c, {"n": 0, "zero": 0, "sum": 0})
            s["n"] += 1
            s["zero"] += n == 0
            s["sum"] += n
    total = {"waits": instructions,
             "fields": sum(s["n"] for s in per.values()),
             "zero": sum(s["zero"] for s in per.values()),
             "sum": sum(s["sum"] for s in per.values())}
    return total, per


def stronger_counters(ours, theirs):
    """Counters on which the per-counter strength `ours` exceeds `theirs`."""
    out = []
    for c in sorted(set(ours) | set(theirs)):
        a = ours.get(c, {"n": 0, "zero": 0, "sum": 0})
        b = theirs.get(c, {"n": 0, "zero": 0, "sum": 0})
        if a["n"] > b["n"] or a["zero"] > b["zero"] or (a["n"] == b["n"] and a["sum"] < b["sum"]):
            out.append(c)
    return out


def strip_waits(lines, target):
    """The lines without memory-counter waits (a Python StinkyRemoveWaitCntPass)."""
    return [line for line in lines if parse_wait(line, target) is None]


def non_wait_code(lines, target):
    """Statements other than memory-counter waits, comments and blank lines dropped."""
    out = []
    for line in lines:
        if parse_wait(line, target) is not None:
            continue
        code = code_of(line)
        if code:
            out.append(re.sub(r"\s+", " ", code))
    return out


# ---------------------------------------------------------------------------
# Tools and the matrix.

def find_tool(explicit, names):
    if explicit:
        return str(explicit)
    for name in names:
        candidate = LLVM_BIN / name
        if candidate.exists():
            return str(candidate)
    for name in names:
        for d in os.environ.get("PATH", "").split(os.pathsep):
            candidate = Path(d) / (name + "-22")
            if candidate.exists():
                return str(candidate)
            candidate = Path(d) / name
            if candidate.exists():
                return str(candidate)
    return names[0]


@dataclass
class Result:
    rc: int
    out: str
    err: str


def run(cmd, timeout=600):
    try:
        p = subprocess.run([str(c) for c in cmd], capture_output=True, text=True,
                           timeout=timeout, errors="replace")
        return Result(p.returncode, p.stdout, p.stderr)
    except subprocess.TimeoutExpired:
        return Result(124, "", "timed out after %ds: %s" % (timeout, " ".join(map(str, cmd))))
    except OSError as e:
        return Result(127, "", "cannot run %s: %s" % (cmd[0], e))


_DIAG = re.compile(r"^(?P<file>[^:\n]*):(?P<line>\d+):(?P<col>\d+): (?P<kind>error|warning): (?P<msg>.*)$",
                   re.M)


def diagnostics(text, kind=None):
    """(line, col, kind, message) of every file:line:col: kind: message."""
    return [(int(m.group("line")), int(m.group("col")), m.group("kind"), m.group("msg"))
            for m in _DIAG.finditer(text) if kind is None or m.group("kind") == kind]


@dataclass
class Case:
    kernel: str       # file stem
    source: Path
    target: str
    opt: str          # "O0" / "O2"

    @property
    def tag(self):
        return "%s-%s-%s" % (self.kernel, self.target, self.opt)


def matrix(kernels_dir, kernels, targets, opt_levels, sample=1):
    """The cases: every kernel on every target and level, or with `sample` N
    every N-th kernel of each target, a different one on the next target."""
    sources = sorted(Path(kernels_dir).glob("*.cl"))
    if kernels:
        wanted = set(kernels)
        sources = [s for s in sources if s.stem in wanted]
        missing = wanted - {s.stem for s in sources}
        if missing:
            sys.exit("no such kernel file in %s: %s" % (kernels_dir, ", ".join(sorted(missing))))
    return [Case(s.stem, s, t, o) for si, s in enumerate(sources)
            for ti, t in enumerate(targets) if in_sample(si, ti, sample) for o in opt_levels]


def compile_case(case, clang, work):
    out = Path(work) / (case.tag + ".s")
    r = run([clang, "-x", "cl", "-cl-std=CL2.0", "--target=amdgcn-amd-amdhsa",
             "-mcpu=" + case.target, "-nogpulib", "-" + case.opt, "-S", case.source, "-o", out])
    return out, r


def split_list(values, allowed, what):
    items = []
    for v in values or []:
        items.extend(x for x in v.split(",") if x)
    for x in items:
        if allowed is not None and x not in allowed:
            sys.exit("unknown %s '%s' (known: %s)" % (what, x, ", ".join(allowed)))
    return items


def add_common_options(parser):
    parser.add_argument("--targets", action="append",
                        help="comma-separated targets (default: all 11)")
    parser.add_argument("--opt-levels", action="append",
                        help="comma-separated -O levels, O0/O2 (default: both)")
    parser.add_argument("--kernels", action="append",
                        help="comma-separated kernel file stems of the kernels folder "
                             "(default: every *.cl)")
    parser.add_argument("--kernels-dir", default=str(DEFAULT_KERNELS),
                        help="folder of the OpenCL kernels (default: tests/kernels)")
    parser.add_argument("--opt", help="stinkytofu-opt (default: build/bin/stinkytofu-opt)")
    parser.add_argument("--clang", help="clang (default: LLVM 22's)")
    parser.add_argument("--llvm-mc", help="llvm-mc (default: LLVM 22's)")
    parser.add_argument("-j", type=int, default=2, help="parallel jobs (default 2)")
    parser.add_argument("--sample", type=int, default=1,
                        help="every N-th kernel of each target, rotating (default 1: all)")
    parser.add_argument("--work", help="folder for the compiled files and outputs "
                                       "(default: a new folder under /tmp/waitcnt-work)")
    parser.add_argument("--dry-run", action="store_true",
                        help="do not run the wait passes of stinkytofu-opt: the Python "
                             "stripper stands in for StinkyRemoveWaitCntPass, insertion "
                             "gives back LLVM's file and the verifier is skipped")


def resolve_common(args):
    args.targets = split_list(args.targets, TARGETS, "target") or list(TARGETS)
    args.opt_levels = [o if o.startswith("O") else "O" + o
                       for o in split_list(args.opt_levels, None, "-O level")] or list(OPT_LEVELS)
    for o in args.opt_levels:
        if o not in ("O0", "O1", "O2", "O3"):
            sys.exit("unknown -O level '%s'" % o)
    args.kernels = split_list(args.kernels, None, "kernel")
    args.opt = str(args.opt or DEFAULT_OPT)
    args.clang = find_tool(args.clang, ["clang"])
    args.llvm_mc = find_tool(args.llvm_mc, ["llvm-mc"])
    if args.work:
        Path(args.work).mkdir(parents=True, exist_ok=True)
    else:
        import tempfile
        Path("/tmp/waitcnt-work").mkdir(parents=True, exist_ok=True)
        args.work = tempfile.mkdtemp(prefix="run-", dir="/tmp/waitcnt-work")
    if not args.dry_run and not Path(args.opt).exists():
        sys.exit("stinkytofu-opt not found: %s (build first, or --opt)" % args.opt)
    return args


def parallel_map(fn, items, jobs):
    if jobs <= 1:
        return [fn(x) for x in items]
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        return list(pool.map(fn, items))
