#!/usr/bin/env python3
"""Checks that SQTT address tracing records the addresses the traced
instructions access.

Usage: eval-address-trace.py ORIGINAL.s INSTRUMENTED.s FUNCMAP [--seeds N]

Every register gets a random value (each VGPR one per lane, EXEC a random
mask). The inserted code (the lines of INSTRUMENTED.s that are not the
original's, in order) is executed by a small interpreter of the scalar and
readlane instructions it uses, following its branches (loop-phase scope
markers on CFG edges branch on the original SCC, EXEC or VCC: random too); original instructions
are not executed (the insertion verifier proves the inserted code leaves what
they read as it was). Scope checks read HW_ID fields as 0, so the markers
run. Each `s_ttracedata` records M0. Before each original
instruction the records since the last address-trace header must be exactly
what the spec's framing gives for that instruction, computed here from its
own operands: the header ID (an `addr_trace_*` row of the funcmap), EXEC low
and high, then per category the 64-bit lane addresses, the buffer components,
or the 32-bit LDS addresses / permute indices, for every lane.

Prints `OK: N traced operations checked, R records` or the first mismatch
(exit 1).
"""
import random
import re
import sys

MASK = 0xFFFFFFFF


def parse_funcmap(path):
    wave, names, counts = 64, {}, {}
    for line in open(path):
        line = line.strip()
        if line.startswith("W:"):
            wave = int(line[2:])
        elif line.startswith("P:"):
            _, ident, rest = line.split(":", 2)
            names[int(ident)] = rest.split("@")[0]
        elif line.startswith("R:"):
            _, ident, rest = line.split(":", 2)
            counts[int(ident)] = int(rest.split("=")[1])
    return wave, names, counts


def statements(path):
    """(text, is_label) of each instruction or label line, comments off."""
    out = []
    for raw in open(path):
        line = re.sub(r"/\*.*?\*/", "", raw).split(";")[0].split("//")[0].strip()
        if not line or line.startswith("."):
            if re.match(r"^\.L[\w.$]*:$", line):
                out.append((line[:-1], True))
            continue
        if line.endswith(":"):
            out.append((line[:-1], True))
        else:
            out.append((" ".join(line.split()), False))
    return out


SYMBOLS = {}
MODIFIER = re.compile(r"^(offen|idxen|glc|slc|dlc|nt|sc0|sc1|lds|gds|addr64|tfe|lwe|swz"
                      r"|[a-z_]+[0-9]*:.*)$")


def read_symbols(path):
    """`.set NAME, EXPR` and `NAME = EXPR`, for registers written with them
    (Tensile's v[vgprValuC+3])."""
    for raw in open(path):
        line = raw.split("//")[0].split(";")[0].strip()
        m = re.match(r"^\.set\s+([A-Za-z_.$][\w.$]*)\s*,\s*(.+)$", line) or \
            re.match(r"^([A-Za-z_.$][\w.$]*)\s*=\s*(.+)$", line)
        if m:
            try:
                SYMBOLS[m.group(1)] = evaluate(m.group(2))
            except (ValueError, SyntaxError, NameError, TypeError):
                pass


def evaluate(expr):
    expr = re.sub(r"[A-Za-z_.$][\w.$]*",
                  lambda m: str(SYMBOLS[m.group(0)]) if m.group(0) in SYMBOLS else m.group(0),
                  expr)
    if not re.fullmatch(r"[0-9xXa-fA-F+\-*/() <>]*", expr):
        raise ValueError(expr)
    return int(eval(expr.replace("/", "//")))


def split_operands(text):
    mnemonic, _, rest = text.partition(" ")
    ops, depth, cur = [], 0, ""
    for ch in rest:
        if ch in "[(":
            depth += 1
        elif ch in "])":
            depth -= 1
        if ch == "," and depth == 0:
            ops.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        ops.append(cur.strip())
    # Modifiers follow the last operand; Tensile also writes some after a
    # comma (`s6, offen offset:0, glc slc`).
    mods, words = [], []
    for op in ops:
        words += [(w, k == 0) for k, w in enumerate(op.split())]
    operands = []
    for w, first in words:
        if MODIFIER.match(w) or not first:
            mods.append(w)
        else:
            operands.append(w)
    return mnemonic, operands, mods


def regs(op):
    m = re.fullmatch(r"([vs])\[([^:\]]+)(?::([^\]]+))?\]", op)
    if m:
        lo = evaluate(m.group(2))
        hi = evaluate(m.group(3)) if m.group(3) else lo
        return [f"{m.group(1)}{k}" for k in range(lo, hi + 1)]
    if re.fullmatch(r"[vs]\d+", op):
        return [op]
    return []


def field(mods, name):
    for m in mods:
        if m.startswith(name + ":"):
            return int(m.split(":", 1)[1], 0)
    return None


class Machine:
    def __init__(self, seed, wave):
        self.rng = random.Random(seed)
        self.wave = wave
        self.s = {}
        self.v = {}
        self.exec = self.rng.getrandbits(wave)
        self.m0 = self.rng.getrandbits(32)
        self.scc = self.rng.getrandbits(1)
        self.vcc = self.rng.getrandbits(wave)
        self.records = []

    def sgpr(self, name):
        if name not in self.s:
            self.s[name] = self.rng.getrandbits(32)
        return self.s[name]

    def vgpr(self, name, lane):
        if name not in self.v:
            self.v[name] = [self.rng.getrandbits(32) for _ in range(self.wave)]
        return self.v[name][lane]

    def value(self, op):
        if op == "m0":
            return self.m0
        if op == "exec_lo":
            return self.exec & MASK
        if op == "exec_hi":
            return self.exec >> 32
        if re.fullmatch(r"s\d+", op):
            return self.sgpr(op)
        if op.startswith("s["):
            return self.sgpr(regs(op)[0])
        return int(op, 0) & MASK

    def set(self, op, val):
        val &= MASK
        if op == "m0":
            self.m0 = val
        else:
            self.s[op] = val

    def step(self, text):
        """Executes one inserted instruction; returns a branch target or None."""
        mn, ops, _ = split_operands(text)
        # Wait states and ALU waits (the emitter's and the hazard repair's
        # that ends the pipeline) change no register.
        if mn in ("s_nop", "v_nop", "s_wait_alu", "s_waitcnt_depctr", "s_delay_alu"):
            return None
        if mn == "s_ttracedata":
            self.records.append(self.m0)
        elif mn == "s_ttracedata_imm":
            self.records.append(int(ops[0], 0))
        elif mn == "s_mov_b32":
            self.set(ops[0], self.value(ops[1]))
        elif mn == "s_add_u32":
            total = self.value(ops[1]) + self.value(ops[2])
            self.set(ops[0], total)
            self.scc = total >> 32
        elif mn == "s_addc_u32":
            total = self.value(ops[1]) + self.value(ops[2]) + self.scc
            self.set(ops[0], total)
            self.scc = total >> 32
        elif mn == "s_getreg_b32":
            self.set(ops[0], 0)  # HW_ID fields 0: the wave is in every scope
        elif mn == "s_lshr_b32":
            self.set(ops[0], self.value(ops[1]) >> (self.value(ops[2]) & 31))
        elif mn == "s_and_b32":
            self.set(ops[0], self.value(ops[1]) & self.value(ops[2]))
            self.scc = int(self.value(ops[0]) != 0)
        elif mn == "s_bitcmp1_b32":
            self.scc = (self.value(ops[0]) >> (self.value(ops[1]) & 31)) & 1
        elif mn == "s_cmp_lg_u32":
            self.scc = int(self.value(ops[0]) != self.value(ops[1]))
        elif mn == "s_cselect_b32":
            self.set(ops[0], self.value(ops[1]) if self.scc else self.value(ops[2]))
        elif mn == "v_writelane_b32":
            self.vgpr(ops[0], 0)
            self.v[ops[0]][self.value(ops[2]) % self.wave] = self.value(ops[1])
        elif mn == "v_readlane_b32":
            self.set(ops[0], self.vgpr(ops[1], self.value(ops[2]) % self.wave))
        elif mn == "s_cbranch_scc1":
            return ops[0] if self.scc else None
        elif mn == "s_cbranch_scc0":
            return ops[0] if not self.scc else None
        elif mn in ("s_cbranch_execz", "s_cbranch_execnz"):
            return ops[0] if (self.exec == 0) == mn.endswith("execz") else None
        elif mn in ("s_cbranch_vccz", "s_cbranch_vccnz"):
            return ops[0] if (self.vcc == 0) == mn.endswith("vccz") else None
        else:
            raise SystemExit(f"eval-address-trace: cannot execute '{text}'")
        return None

    # --- what the instruction accesses ------------------------------------
    def expected(self, text, name):
        mn, ops, mods = split_operands(text)
        out = [self.exec & MASK, self.exec >> 32 if self.wave == 64 else 0]
        lanes = range(self.wave)
        offset = field(mods, "offset") or 0
        if "buffer" in name:
            vaddr = regs(ops[1])
            rsrc = regs(ops[2])
            idxen, offen = "idxen" in mods, "offen" in mods
            out += [self.sgpr(rsrc[0]), self.sgpr(rsrc[1])]
            soff = 0 if ops[3] in ("off", "null") else self.value(ops[3])
            out.append((soff + offset) & MASK)
            vindex = vaddr[0] if idxen else None
            voffset = vaddr[-1] if offen else None
            out += [self.vgpr(voffset, l) if voffset else 0 for l in lanes]
            if idxen:
                out += [self.vgpr(vindex, l) for l in lanes]
            return out
        defs = 0 if name.endswith("store") or (
            "atomic" in name and not self.returns(mn, ops, mods, name)) else 1
        if name.startswith(("lds_", "ds_")):
            addr = regs(ops[defs])[0]
            if field(mods, "offset0") is not None:
                width = len(regs(ops[0])) // 2 if defs else len(regs(ops[defs + 1]))
                scale = 64 if "st64" in mn or "stride64" in mn else 1
                offset = field(mods, "offset0") * 4 * width * scale
            return out + [(self.vgpr(addr, l) + offset) & MASK for l in lanes]
        vaddr = regs(ops[defs])
        saddr = regs(ops[-1]) if mn.startswith("global_") else []
        for l in lanes:
            if len(saddr) == 2:
                base = self.sgpr(saddr[0]) | self.sgpr(saddr[1]) << 32
                a = base + self.vgpr(vaddr[0], l) + offset
            else:
                a = (self.vgpr(vaddr[0], l) | self.vgpr(vaddr[1], l) << 32) + offset
            a &= (1 << 64) - 1
            out += [a & MASK, a >> 32]
        return out

    @staticmethod
    def returns(mn, ops, mods, name):
        # An atomic returns when it has a destination before the address:
        # global/flat ret forms print vdst, vaddr, vdata[, saddr]; LDS rtn.
        if name.startswith(("lds_", "ds_")):
            return "rtn" in mn
        return "glc" in mods or "sc0" in mods or "th:TH_ATOMIC_RETURN" in mods


def run(original, instrumented, funcmap, seed):
    wave, names, counts = parse_funcmap(funcmap)
    read_symbols(original)
    orig = [t for t, lab in statements(original) if not lab]
    prog = statements(instrumented)
    labels = {t: k for k, (t, lab) in enumerate(prog) if lab}
    m = Machine(seed, wave)
    k, oi, checked, records = 0, 0, 0, 0
    steps = 0
    while k < len(prog):
        text, is_label = prog[k]
        k += 1
        if is_label:
            continue
        if oi < len(orig) and text == orig[oi]:
            oi += 1
            if m.records:
                header = m.records[0] & ~3
                ident = m.records[0] >> 2
                name = names.get(ident, "")
                if name.startswith("addr_trace_"):
                    kind = name[len("addr_trace_"):]
                    got = m.records[1:]
                    want = m.expected(text, kind)
                    if len(got) != counts[ident] or got != want:
                        bad = next((j for j in range(min(len(got), len(want)))
                                    if got[j] != want[j]), min(len(got), len(want)))
                        print(f"MISMATCH before '{text}' ({name}, seed {seed}): "
                              f"{len(got)} records, expected {len(want)} "
                              f"(R: {counts[ident]}); first difference at record "
                              f"{bad + 1}")
                        return None
                    checked += 1
                    records += len(got)
                del header
            m.records = []
            continue
        steps += 1
        if steps > 10_000_000:
            raise SystemExit("eval-address-trace: no end")
        target = m.step(text)
        if target is not None:
            k = labels[target]
    if oi != len(orig):
        print(f"original instruction {oi + 1} ('{orig[oi]}') not found")
        return None
    return checked, records


def main(argv):
    seeds = 3
    if "--seeds" in argv:
        seeds = int(argv[argv.index("--seeds") + 1])
        argv = argv[:argv.index("--seeds")]
    if len(argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    total = None
    for seed in range(seeds):
        r = run(argv[1], argv[2], argv[3], seed)
        if r is None:
            return 1
        total = r
    print(f"OK: {total[0]} traced operations checked, {total[1]} records")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
