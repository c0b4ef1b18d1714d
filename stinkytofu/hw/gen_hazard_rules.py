#!/usr/bin/env python3
"""Turn the `llvm-tblgen --dump-json` output of HazardRules.td into C++.

Usage: gen_hazard_rules.py HazardRules.json HazardRules.inc

The output holds constexpr tables in namespace stinkytofu::hazgen and is
included by lib/hw/HazardModel.cpp, which defines the record types. Class and
relation names are checked against the lists below, which must match
HazardModel.cpp. The file is rewritten only when its content changes.

Python 3.11 standard library only.
"""

import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_hardware_model import GenError, Records, fail, natural_key, write_if_changed  # noqa: E402

CLASSES = {
    "Any", "VALU", "SALU", "VMEM", "SMEM", "DS", "EXP", "DPP", "TRANS", "GDS", "LdsDma",
    "MFMA", "MFMA2Pass", "XDL", "NonXdl", "SMFMA", "DGEMM", "DGEMM4x4", "DGEMM16x16",
    "AccVgprRead", "AccVgprWrite", "DOT", "WMMA", "VALUNotMFMA", "VALUNotMFMANotDOT",
    "VALUNotTRANS", "WideStore", "WideStoreUnlessSgprSoffset", "DstSelForwarding",
    "DenseWMMA", "SWMMAC", "VALUNotWMMA",
}
# The classes HazardRole records define by mnemonic.
ROLES = {"DivFmas", "ReadLane", "WriteLane", "SetReg", "GetReg", "Fma64", "M0Reader"}
RELATIONS = {
    "ScalarRead", "ExplicitScalarRead", "VgprRead", "ExplicitRead", "VccWrite", "VccRead",
    "ExecWrite", "M0Write", "LaneSelect", "Src0Read", "SameHwReg", "StoreDataWrite",
    "SrcCFull", "SrcCOverlap", "SrcCRead", "SrcABOverlap", "SrcCOverwrite", "AgprOverlap",
    "MatrixResultRead", "MatrixResultWrite", "MatrixSourceOverlap", "DotRead",
    "DotOverwrite", "Always", "SrcABRead", "AnyOperand", "MatrixOperandWrite",
    "ExplicitSourceWrite",
}
COUNTINGS = ("States", "Valus")
NAME_RE = re.compile(r"^[A-Za-z0-9_]+$")
MNEMONIC_RE = re.compile(r"^[a-z0-9_]+$")


def literal(s):
    """A C++ string literal of printable ASCII."""
    if not all(32 <= ord(c) < 127 for c in s):
        fail(f"string {s!r} is not printable ASCII")
    return json.dumps(s)


def class_list(where, text):
    parts = text.split("|")
    for p in parts:
        if p not in CLASSES and p not in ROLES:
            fail(f"{where}: unknown class {p!r}")
    return text


def collect_roles(recs):
    out = []
    for name in recs.instances("HazardRole"):
        r = recs.record(name)
        role = recs.field(r, "Name", "string")
        if role not in ROLES:
            fail(f"{name}: unknown role {role!r}")
        for m in recs.field(r, "Mnemonics", "list"):
            if not isinstance(m, str) or not MNEMONIC_RE.match(m):
                fail(f"{name}: bad mnemonic {m!r}")
            out.append((m, role))
    out.sort()
    return out


def collect_matrix_kinds(recs):
    out = []
    for name in recs.instances("MatrixKind"):
        r = recs.record(name)
        kind = recs.field(r, "Name", "string")
        for p in recs.field(r, "Patterns", "list"):
            try:
                re.compile(p)
            except re.error as e:
                fail(f"{name}: bad pattern {p!r}: {e}")
            out.append((kind, p))
    return sorted(out)


def collect_rule(recs, ref, where):
    r = recs.resolve(ref, where)
    name = recs.field(r, "Name", "string")
    if not NAME_RE.match(name):
        fail(f"{where}: bad rule name {name!r}")
    rel = recs.field(r, "Relation", "string")
    if rel not in RELATIONS:
        fail(f"{where} {name}: unknown relation {rel!r}")
    counting = recs.field(r, "Counting", "string")
    if counting not in COUNTINGS:
        fail(f"{where} {name}: Counting must be one of {COUNTINGS}")
    by_passes = recs.field(r, "ByPasses", "list")
    if by_passes and len(by_passes) != 4:
        fail(f"{where} {name}: ByPasses needs 4 entries (2, 4, 8, 16 passes)")
    waits = recs.field(r, "WaitStates", "int")
    if not 0 <= max([waits] + by_passes) <= 32:
        fail(f"{where} {name}: wait states out of range")
    return {
        "name": name,
        "producer": class_list(f"{where} {name}", recs.field(r, "Producer", "string")),
        "consumer": class_list(f"{where} {name}", recs.field(r, "Consumer", "string")),
        "relation": rel, "waits": waits, "by_passes": by_passes,
        "valus": counting == "Valus",
    }


def collect_processors(recs):
    procs = []
    for name in recs.instances("ProcessorHazards"):
        r = recs.record(name)
        proc = recs.field(r, "Processor", "string")
        natural_key(proc)
        rules = [collect_rule(recs, ref, proc) for ref in recs.field(r, "Rules", "list")]
        names = [x["name"] for x in rules]
        if len(set(names)) != len(names):
            fail(f"{proc}: a rule name is repeated")
        procs.append({"name": proc, "rules": rules,
                      "soft_clauses": recs.field(r, "SoftClauses", "bit"),
                      "vmem_soft_clauses": recs.field(r, "VmemSoftClauses", "bit"),
                      "splits_xdl": recs.field(r, "SplitsXdl", "bit"),
                      "max_nop": recs.field(r, "MaxNopStates", "int")})
    procs.sort(key=lambda p: natural_key(p["name"]))
    return procs


def emit(roles, kinds, procs):
    out = ["// Generated by gen_hazard_rules.py from HazardRules.td. Do not edit.",
           "namespace stinkytofu::hazgen {", ""]
    w = out.append
    w("inline constexpr RoleEntry Roles[] = {")
    for m, role in roles:
        w(f"    {{{literal(m)}, {literal(role)}}},")
    w("};")
    w("inline constexpr MatrixKindEntry MatrixKinds[] = {")
    for kind, pattern in kinds:
        w(f"    {{{literal(kind)}, {literal(pattern)}}},")
    w("};")
    w("")
    for p in procs:
        w(f"inline constexpr RuleEntry Rules_{p['name']}[] = {{")
        for x in p["rules"]:
            by = x["by_passes"] or [0, 0, 0, 0]
            w(f"    {{{literal(x['name'])}, {literal(x['producer'])}, "
              f"{literal(x['consumer'])}, {literal(x['relation'])}, {x['waits']}, "
              f"{{{', '.join(map(str, by))}}}, {str(bool(x['by_passes'])).lower()}, "
              f"{str(x['valus']).lower()}}},")
        if not p["rules"]:
            w("    {},")
        w("};")
    w("")
    w("inline constexpr ProcessorEntry Processors[] = {")
    for p in procs:
        count = len(p["rules"])
        w(f"    {{{literal(p['name'])}, Rules_{p['name']}, {count}, "
          f"{str(bool(p['soft_clauses'])).lower()}, "
          f"{str(bool(p['vmem_soft_clauses'])).lower()}, "
          f"{str(bool(p['splits_xdl'])).lower()}, {p['max_nop']}}},")
    w("};")
    w("")
    w("} // namespace stinkytofu::hazgen")
    return "\n".join(out) + "\n"


def main(argv):
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        with open(argv[1], encoding="utf-8") as f:
            recs = Records(json.load(f))
        text = emit(collect_roles(recs), collect_matrix_kinds(recs), collect_processors(recs))
    except GenError as e:
        print(f"gen_hazard_rules.py: error: {e}", file=sys.stderr)
        return 1
    write_if_changed(argv[2], text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
