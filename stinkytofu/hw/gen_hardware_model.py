#!/usr/bin/env python3
"""Turn the `llvm-tblgen --dump-json` output of HardwareModel.td into C++.

Usage: gen_hardware_model.py HardwareModel.json HardwareModel.inc

The output holds constexpr tables only (no dynamic allocation) in namespace
stinkytofu::hwgen and is included by lib/hw/HardwareModel.cpp, which defines
the ProcessorDesc / PrefixEntry types it initialises. The output is
deterministic: processors in natural gfx order, instruction classes by name,
prefixes longest first. The file is rewritten only when its content changes.

Python 3.11 standard library only.
"""

import json
import os
import re
import sys

GENERATIONS = ("gfx9", "gfx10", "gfx11", "gfx12")
CLOCK_KINDS = ("SMemTime", "HwRegShaderCycles", "HwRegShaderCyclesLoHi",
               "GetShaderCyclesU64")
NAME_RE = re.compile(r"^[A-Za-z0-9_]+$")
PREFIX_RE = re.compile(r"^[a-z0-9_]+$")


class GenError(Exception):
    pass


def fail(msg):
    raise GenError(msg)


class Records:
    def __init__(self, data):
        self.data = data

    def instances(self, cls):
        return sorted(self.data.get("!instanceof", {}).get(cls, []))

    def record(self, name):
        if name not in self.data:
            fail(f"unknown record '{name}'")
        return self.data[name]

    def field(self, rec, key, kind, allow_null=False):
        """Field `key` of record dict `rec`, checked against `kind`:
        'int', 'bit', 'string', 'def', 'list'. A `def` is returned resolved."""
        where = rec.get("!name", "?")
        if key not in rec:
            fail(f"{where}: missing field '{key}'")
        val = rec[key]
        if val is None:
            if allow_null:
                return None
            fail(f"{where}: field '{key}' is unset")
        if kind in ("int", "bit"):
            if not isinstance(val, int) or isinstance(val, bool):
                fail(f"{where}.{key}: expected {kind}, got {val!r}")
            if kind == "bit" and val not in (0, 1):
                fail(f"{where}.{key}: expected bit, got {val}")
            return val
        if kind == "string":
            if not isinstance(val, str):
                fail(f"{where}.{key}: expected string, got {val!r}")
            return val
        if kind == "def":
            return self.resolve(val, f"{where}.{key}")
        if kind == "list":
            if not isinstance(val, list):
                fail(f"{where}.{key}: expected list, got {val!r}")
            return val
        raise AssertionError(kind)

    def resolve(self, ref, where):
        if not isinstance(ref, dict) or ref.get("kind") != "def":
            fail(f"{where}: expected a record reference, got {ref!r}")
        return self.record(ref["def"])


def cstr(s):
    """A C++ string literal; inputs are validated to need no escaping."""
    if not re.fullmatch(r"[A-Za-z0-9_ .()\-]*", s):
        fail(f"string {s!r} has characters the generator does not emit")
    return f'"{s}"'


def natural_key(name):
    """gfx90a -> (9, 0, 10); gfx1250 -> (12, 5, 0)."""
    m = re.fullmatch(r"gfx([0-9]+)([0-9a-f])([0-9a-f])", name)
    if not m:
        fail(f"processor name '{name}' is not gfxNNN")
    return (int(m.group(1)), int(m.group(2), 16), int(m.group(3), 16))


def collect_classes(recs):
    classes = []
    for name in recs.instances("InstClass"):
        r = recs.record(name)
        c = {
            "def": name,
            "name": recs.field(r, "Name", "string"),
            "prefixes": [p for p in recs.field(r, "Prefixes", "list")],
            "issue": recs.field(r, "IssueCycles", "int"),
            "latency": recs.field(r, "LatencyCycles", "int"),
            "cost": recs.field(r, "CostWeight", "int"),
        }
        if not NAME_RE.match(c["name"]):
            fail(f"{name}: bad class name {c['name']!r}")
        if c["issue"] < 1 or c["latency"] < 0 or c["cost"] < 0:
            fail(f"{name}: cycles/cost out of range")
        for p in c["prefixes"]:
            if not isinstance(p, str) or not PREFIX_RE.match(p):
                fail(f"{name}: bad prefix {p!r} (lower-case mnemonic text)")
        classes.append(c)
    classes.sort(key=lambda c: c["name"])
    names = [c["name"] for c in classes]
    if len(set(names)) != len(names):
        fail("duplicate instruction class names")
    defaults = [c for c in classes if not c["prefixes"]]
    if len(defaults) != 1:
        fail("exactly one InstClass must have no prefixes (the fallback); "
             f"found {len(defaults)}")
    owner = {}
    for i, c in enumerate(classes):
        for p in c["prefixes"]:
            if p in owner:
                fail(f"prefix '{p}' is claimed by {classes[owner[p]]['name']} "
                     f"and {c['name']}")
            owner[p] = i
    prefixes = sorted(owner.items(), key=lambda kv: (-len(kv[0]), kv[0]))
    default_index = classes.index(defaults[0])
    return classes, prefixes, default_index


def collect_field(recs, ref, where):
    r = recs.resolve(ref, where)
    reg = recs.field(r, "Reg", "def")
    f = {
        "name": recs.field(r, "Name", "string"),
        "reg_name": recs.field(reg, "AsmName", "string"),
        "reg_id": recs.field(reg, "Id", "int"),
        "offset": recs.field(r, "Offset", "int"),
        "width": recs.field(r, "Width", "int"),
    }
    if not NAME_RE.match(f["name"]):
        fail(f"{where}: bad field name {f['name']!r}")
    if not 0 <= f["reg_id"] < 64:
        fail(f"{where} {f['name']}: hwreg id {f['reg_id']} out of range")
    if not (0 <= f["offset"] < 32 and 1 <= f["width"] <= 32 - f["offset"]):
        fail(f"{where} {f['name']}: bits [{f['offset']}+{f['width']}] "
             "do not fit a 32-bit register")
    return f


def collect_clock(recs, r):
    where = r["!name"]
    kind = recs.field(r, "Kind", "string")
    if kind not in CLOCK_KINDS:
        fail(f"{where}: unknown clock kind '{kind}'")
    lo = recs.field(r, "Reg", "def", allow_null=True)
    hi = recs.field(r, "RegHi", "def", allow_null=True)
    if kind.startswith("HwReg") and lo is None:
        fail(f"{where}: kind {kind} needs Reg")
    if (kind == "HwRegShaderCyclesLoHi") != (hi is not None):
        fail(f"{where}: RegHi is set exactly for HwRegShaderCyclesLoHi")

    def reg(x):
        if x is None:
            return ("", 0)
        return (recs.field(x, "AsmName", "string"), recs.field(x, "Id", "int"))

    return {
        "kind": kind,
        "mnemonic": recs.field(r, "Mnemonic", "string"),
        "lo": reg(lo),
        "hi": reg(hi),
        "width": recs.field(r, "Width", "int"),
        "lgkm": recs.field(r, "NeedsLgkmWait", "bit"),
    }


def collect_processors(recs, classes):
    by_def = {c["def"]: i for i, c in enumerate(classes)}
    procs = []
    for name in recs.instances("Processor"):
        r = recs.record(name)
        p = {
            "def": name,
            "name": recs.field(r, "Name", "string"),
            "generation": recs.field(r, "Generation", "string"),
            "wave": recs.field(r, "WaveSize", "int"),
            "imm": recs.field(r, "HasTtraceDataImm", "bit"),
            "imm_max": recs.field(r, "TtraceDataImmMax", "int"),
            "nop": recs.field(r, "NeedsNopBeforeTtraceData", "bit"),
            "sgprs": recs.field(r, "MaxSGPRs", "int"),
            "vgprs": recs.field(r, "MaxVGPRs", "int"),
            "agprs": recs.field(r, "HasAGPRs", "bit"),
            "vgpr_msb": recs.field(r, "VgprMsb", "string"),
            "se_aid": recs.field(r, "SeAidSendMsgId", "int"),
            "clock": collect_clock(recs, recs.field(r, "Clock", "def")),
        }
        if p["generation"] not in GENERATIONS:
            fail(f"{name}: unknown generation '{p['generation']}'")
        if p["vgpr_msb"] not in ("None", "Msb8", "Msb16"):
            fail(f"{name}: VgprMsb must be None, Msb8 or Msb16")
        if p["wave"] not in (32, 64):
            fail(f"{name}: wave size {p['wave']}")
        if p["imm"] != (p["imm_max"] > 0) or not 0 <= p["imm_max"] <= 0xFFFF:
            fail(f"{name}: TtraceDataImmMax must be >0 exactly when "
                 "HasTtraceDataImm")
        if not (0 < p["sgprs"] <= 106 and 0 < p["vgprs"] <= 1024):
            fail(f"{name}: register budget out of range")
        fields = [collect_field(recs, f, f"{name}.HwIdFields[{i}]")
                  for i, f in enumerate(recs.field(r, "HwIdFields", "list"))]
        seen = set()
        for f in fields:
            if f["name"] in seen:
                fail(f"{name}: HW_ID field {f['name']} listed twice")
            seen.add(f["name"])
        p["fields"] = fields
        scope = []
        for key in ("ScopeWaveField", "ScopeSimdField", "ScopeCuField",
                    "ScopeWgField"):
            v = recs.field(r, key, "string")
            if v not in seen:
                fail(f"{name}.{key}: '{v}' is not one of its HW_ID fields")
            scope.append(v)
        p["scope"] = scope
        timing = [(c["issue"], c["latency"]) for c in classes]
        overridden = set()
        for i, ref in enumerate(recs.field(r, "CycleOverrides", "list")):
            o = recs.resolve(ref, f"{name}.CycleOverrides[{i}]")
            cls = recs.field(o, "Class", "def")["!name"]
            idx = by_def[cls]
            if idx in overridden:
                fail(f"{name}: {cls} overridden twice")
            overridden.add(idx)
            issue = recs.field(o, "IssueCycles", "int")
            lat = recs.field(o, "LatencyCycles", "int")
            if issue < 1 or lat < 0:
                fail(f"{name}: override of {cls} out of range")
            timing[idx] = (issue, lat)
        p["timing"] = timing
        collect_counters(recs, r, p)
        collect_depctr(recs, r, p)
        p["occupancy"] = collect_occupancy(recs, recs.field(r, "Occupancy", "def"))
        procs.append(p)
    procs.sort(key=lambda p: natural_key(p["name"]))
    names = [p["name"] for p in procs]
    if len(set(names)) != len(names):
        fail("duplicate processor names")
    if not procs:
        fail("no Processor records")
    return procs


def collect_occupancy(recs, o):
    """The occupancy rules of a processor (Occupancy records)."""
    where = o.get("!name", "?")
    occ = {k: recs.field(o, k, "int") for k in (
        "MaxWavesPerSimd", "VgprGranule", "VgprFile", "VgprGranuleWave64",
        "VgprFileWave64", "LdsBytes", "WorkgroupBarriers", "ExtraSgprsVcc",
        "ExtraSgprsXnack", "ExtraSgprsFlatScratch")}
    occ["HasCuMode"] = recs.field(o, "HasCuMode", "bit")
    steps = recs.field(o, "SgprWaveSteps", "list")
    if any(not isinstance(x, int) for x in steps) or steps != sorted(set(steps)):
        fail(f"{where}: SgprWaveSteps must be ascending integers")
    if not 0 < occ["MaxWavesPerSimd"] <= 20 or occ["VgprGranule"] <= 0 or \
            occ["VgprFile"] % occ["VgprGranule"]:
        fail(f"{where}: the VGPR file must be a whole number of granules")
    if (occ["VgprGranuleWave64"] == 0) != (occ["VgprFileWave64"] == 0):
        fail(f"{where}: wave64 granule and file are both set or both 0")
    occ["SgprWaveSteps"] = steps
    occ["def"] = where
    return occ


def collect_depctr(recs, r, p):
    """The processor's depctr fields (name, offset, width) and hazard rules."""
    name = p["def"]
    fields, used = [], 0
    for i, ref in enumerate(recs.field(r, "DepCtrFields", "list")):
        f = recs.resolve(ref, f"{name}.DepCtrFields[{i}]")
        fn = recs.field(f, "Name", "string")
        off, width = recs.field(f, "Offset", "int"), recs.field(f, "Width", "int")
        mask = ((1 << width) - 1) << off
        if width < 1 or off + width > 16 or mask & used:
            fail(f"{name}: depctr field {fn} overlaps or leaves the 16 bits")
        used |= mask
        fields.append((fn, off, width))
    p["depctr_fields"] = fields
    p["depctr_hazards"] = [
        recs.field(recs.resolve(ref, f"{name}.DepCtrHazards[{i}]"), "Name", "string")
        for i, ref in enumerate(recs.field(r, "DepCtrHazards", "list"))]
    if p["depctr_hazards"] and not fields:
        fail(f"{name}: depctr hazards without depctr fields")


def collect_all_depctr_fields(recs):
    """Every DepCtrField record (name, offset, width), high bits first."""
    fields = [(recs.field(recs.record(n), "Name", "string"),
               recs.field(recs.record(n), "Offset", "int"),
               recs.field(recs.record(n), "Width", "int"))
              for n in recs.instances("DepCtrField")]
    return sorted(fields, key=lambda f: -f[1])


def event_names(recs):
    return {recs.field(recs.record(n), "Name", "string")
            for n in recs.instances("WaitEvent")}


def collect_counters(recs, r, p):
    """The processor's wait counters (in declared order) and, per event, the
    counter it increments."""
    name = p["def"]
    counters = []
    for i, ref in enumerate(recs.field(r, "Counters", "list")):
        c = recs.resolve(ref, f"{name}.Counters[{i}]")
        counters.append((recs.field(c, "Name", "string"),
                         recs.field(c, "Max", "int")))
    names = [c[0] for c in counters]
    if len(set(names)) != len(names) or not counters:
        fail(f"{name}: counters missing or listed twice")
    for n, mx in counters:
        if not PREFIX_RE.match(n) or not 0 < mx < 0x10000:
            fail(f"{name}: bad counter {n!r} (max {mx})")
    known = event_names(recs)
    events = []
    for i, ref in enumerate(recs.field(r, "CounterEvents", "list")):
        e = recs.resolve(ref, f"{name}.CounterEvents[{i}]")
        ev = recs.field(recs.field(e, "Event", "def"), "Name", "string")
        counter = recs.field(e, "Counter", "string")
        if ev not in known:
            fail(f"{name}: unknown event {ev!r}")
        if counter not in names:
            fail(f"{name}: event {ev} counts on {counter!r}, not one of its "
                 "counters")
        if any(x[0] == ev for x in events):
            fail(f"{name}: event {ev} mapped twice")
        events.append((ev, names.index(counter), recs.field(e, "InOrder", "bit")))
    p["counters"] = counters
    p["events"] = sorted(events)
    p["barrier_idle"] = recs.field(r, "BarrierNeedsIdleCounters", "bit")
    p["vmem_in_order"] = recs.field(r, "VmemWritesVgprInOrder", "bit")
    p["flat_in_order"] = recs.field(r, "FlatCountsInOrder", "bit")
    p["delay_alu_matrix_trans"] = recs.field(r, "DelayAluMatrixIsTrans", "bit")
    p["salu_sgpr_read_wait"] = recs.field(r, "SaluSgprReadWait", "string")
    p["lane_save_wait"] = recs.field(r, "SgprLaneSaveWait", "string")
    p["lane_restore_wait"] = recs.field(r, "SgprLaneRestoreWait", "string")
    p["ds_m0_free"] = recs.field(r, "DsM0FreeVariant", "string")


def collect_tsflags(recs):
    """The one TSFlagBits record: (name, bit) sorted by name."""
    defs = recs.instances("TSFlagBits")
    if len(defs) != 1:
        fail(f"exactly one TSFlagBits record expected, found {len(defs)}")
    r = recs.record(defs[0])
    bits = []
    for key in sorted(k for k in r if not k.startswith("!")):
        v = recs.field(r, key, "int")
        if not NAME_RE.match(key) or not 0 <= v < 64:
            fail(f"TSFlagBits.{key}: bit {v} out of range")
        bits.append((key, v))
    return bits


def mnemonic_table(recs, cls, value_of):
    """{mnemonic: value} over the `Mnemonics` of every \p cls record;
    value_of(name, record) gives a record's value (or fails)."""
    out = {}
    for name in recs.instances(cls):
        r = recs.record(name)
        value = value_of(name, r)
        for m in recs.field(r, "Mnemonics", "list"):
            if not isinstance(m, str) or not PREFIX_RE.match(m) or m in out:
                fail(f"{name}: bad or repeated mnemonic {m!r}")
            out[m] = value
    return out


def string_name(recs, field, what):
    """A value_of for mnemonic_table: the record's string \p field, which
    must be a name."""
    def value_of(name, r):
        v = recs.field(r, field, "string")
        if not NAME_RE.match(v):
            fail(f"{name}: bad {what} {v!r}")
        return v
    return value_of


def collect_event_mnemonics(recs):
    known = event_names(recs)

    def event_of(name, r):
        ev = recs.field(recs.field(r, "Event", "def"), "Name", "string")
        if ev not in known:
            fail(f"{name}: unknown event {ev!r}")
        return ev
    return sorted(mnemonic_table(recs, "WaitEventMnemonics", event_of).items())


def collect_lane_permutes(recs):
    """(mnemonic, kind) of every LanePermute record, sorted by mnemonic."""
    return sorted(mnemonic_table(recs, "LanePermute", string_name(recs, "Kind", "kind")).items())


def collect_roles(recs):
    """(mnemonic, role) of every InstRole and (mnemonic, counters) of every
    CounterWait, each sorted by mnemonic; a mnemonic appears once."""
    roles = mnemonic_table(recs, "InstRole", string_name(recs, "Role", "role"))
    waits = {}
    for name in recs.instances("CounterWait"):
        r = recs.record(name)
        m = recs.field(r, "Mnemonic", "string")
        counters = recs.field(r, "Counters", "list")
        if not PREFIX_RE.match(m) or m in waits or not counters:
            fail(f"{name}: bad or repeated counter wait {m!r}")
        for c in counters:
            if not isinstance(c, str) or not PREFIX_RE.match(c):
                fail(f"{name}: bad counter {c!r}")
        offsets = recs.field(r, "Offsets", "list")
        width = recs.field(r, "Width", "int")
        if offsets and (len(offsets) != len(counters) or not 0 < width <= 16 or
                        any(not 0 <= o <= 16 - width for o in offsets)):
            fail(f"{name}: Offsets need one bit offset per counter and a "
                 "Width, inside 16 bits")
        waits[m] = (" ".join(counters), offsets, width)
    return sorted(roles.items()), sorted(waits.items())


def emit(classes, prefixes, default_index, procs, roles=(), waits=(),
         tsflags=(), event_mnemonics=(), lane_permutes=(), depctr_fields=()):
    out = []
    w = out.append
    w("// Generated by stinkytofu/hw/gen_hardware_model.py from "
      "HardwareModel.td.")
    w("// Do not edit: change HardwareModel.td instead.")
    w("")
    w("namespace stinkytofu {")
    w("namespace hwgen {")
    w("")
    w(f"inline constexpr unsigned NumInstClasses = {len(classes)};")
    w(f"inline constexpr unsigned DefaultInstClass = {default_index}; "
      f"// {classes[default_index]['name']}")
    w("")
    w("// Mnemonic prefixes, longest first; ClassIndex into the per-processor")
    w("// InstClass tables (classes sorted by name).")
    w("inline constexpr PrefixEntry Prefixes[] = {")
    for p, idx in prefixes:
        w(f"    {{{cstr(p)}, {idx}}}, // {classes[idx]['name']}")
    w("};")
    for p in procs:
        ident = p["name"].upper()
        w("")
        w(f"// {p['name']} ({p['generation']})")
        w(f"inline constexpr HwIdField {ident}_HwIdFields[] = {{")
        for f in p["fields"]:
            w(f"    {{{cstr(f['name'])}, {cstr(f['reg_name'])}, {f['reg_id']}, "
              f"{f['offset']}, {f['width']}}},")
        w("};")
        w(f"inline constexpr InstClass {ident}_InstClasses[] = {{")
        for c, (issue, lat) in zip(classes, p["timing"]):
            w(f"    {{{cstr(c['name'])}, {issue}, {lat}, {c['cost']}}},")
        w("};")
        w(f"static_assert(std::size({ident}_InstClasses) == NumInstClasses);")
        w(f"inline constexpr CounterDesc {ident}_Counters[] = {{")
        for n, mx in p["counters"]:
            w(f"    {{{cstr(n)}, {mx}}},")
        w("};")
        # C++ has no empty arrays: a processor without them gets {}.
        if p["depctr_fields"]:
            w(f"inline constexpr DepCtrField {ident}_DepCtrFields[] = {{")
            for n, off, width in p["depctr_fields"]:
                w(f"    {{{cstr(n)}, {off}, {width}}},")
            w("};")
        if p["depctr_hazards"]:
            w(f"inline constexpr llvm::StringRef {ident}_DepCtrHazards[] = {{")
            for n in p["depctr_hazards"]:
                w(f"    {cstr(n)},")
            w("};")
        w(f"inline constexpr EventCounterDesc {ident}_Events[] = {{")
        for ev, idx, in_order in p["events"]:
            w(f"    {{{cstr(ev)}, {idx}, {'true' if in_order else 'false'}}},")
        w("};")
    w("")
    occupancies = {p["occupancy"]["def"]: p["occupancy"] for p in procs}
    for name, o in sorted(occupancies.items()):
        steps = ", ".join(str(x) for x in o["SgprWaveSteps"])
        if steps:
            w(f"inline constexpr unsigned {name}_SgprWaveSteps[] = {{{steps}}};")
        else:
            w(f"inline constexpr llvm::ArrayRef<unsigned> {name}_SgprWaveSteps;")
    w("inline constexpr ProcessorDesc Processors[] = {")
    for p in procs:
        ident = p["name"].upper()
        c = p["clock"]
        b = lambda v: "true" if v else "false"
        w("    {")
        w(f"        .Name = {cstr(p['name'])},")
        w(f"        .Generation = {cstr(p['generation'])},")
        w(f"        .WaveSize = {p['wave']},")
        w(f"        .HasTtraceDataImm = {b(p['imm'])},")
        w(f"        .TtraceDataImmMax = {p['imm_max']},")
        w(f"        .NeedsNopBeforeTtraceData = {b(p['nop'])},")
        w(f"        .MaxSGPRs = {p['sgprs']},")
        w(f"        .MaxVGPRs = {p['vgprs']},")
        w(f"        .HasAGPRs = {b(p['agprs'])},")
        o = p["occupancy"]
        w(f"        .Occupancy = {{{o['MaxWavesPerSimd']}, {o['VgprGranule']}, "
          f"{o['VgprFile']}, {o['VgprGranuleWave64']}, {o['VgprFileWave64']}, "
          f"{o['def']}_SgprWaveSteps, {o['LdsBytes']}, {o['WorkgroupBarriers']}, "
          f"{b(o['HasCuMode'])}, {o['ExtraSgprsVcc']}, "
          f"{o['ExtraSgprsXnack']}, {o['ExtraSgprsFlatScratch']}}},")
        w(f"        .VgprMsb = VgprMsbMode::{p['vgpr_msb']},")
        w(f"        .HwIdFields = {ident}_HwIdFields,")
        w("        .ScopeFields = {" +
          ", ".join(cstr(s) for s in p["scope"]) + "},")
        w(f"        .SeAidSendMsgId = {p['se_aid']},")
        w(f"        .Clock = {{ShaderClockKind::{c['kind']}, "
          f"{cstr(c['mnemonic'])}, {cstr(c['lo'][0])}, {c['lo'][1]}, "
          f"{cstr(c['hi'][0])}, {c['hi'][1]}, {c['width']}, {b(c['lgkm'])}}},")
        w(f"        .InstClasses = {ident}_InstClasses,")
        w(f"        .Counters = {ident}_Counters,")
        w(f"        .CounterEvents = {ident}_Events,")
        w(f"        .BarrierNeedsIdleCounters = {b(p['barrier_idle'])},")
        w(f"        .VmemWritesVgprInOrder = {b(p['vmem_in_order'])},")
        w(f"        .FlatCountsInOrder = {b(p['flat_in_order'])},")
        w(f"        .DelayAluMatrixIsTrans = {b(p['delay_alu_matrix_trans'])},")
        w(f"        .SaluSgprReadWait = {cstr(p['salu_sgpr_read_wait'])},")
        w(f"        .SgprLaneSaveWait = {cstr(p['lane_save_wait'])},")
        w(f"        .SgprLaneRestoreWait = {cstr(p['lane_restore_wait'])},")
        w(f"        .DsM0FreeVariant = {cstr(p['ds_m0_free'])},")
        w("        .DepCtrFields = " +
          (f"{ident}_DepCtrFields," if p["depctr_fields"] else "{},"))
        w("        .DepCtrHazards = " +
          (f"{ident}_DepCtrHazards," if p["depctr_hazards"] else "{},"))
        w("    },")
    w("};")
    w("")
    w("// Instruction roles and counter waits (InstRole, CounterWait), by")
    w("// mnemonic.")
    w("inline constexpr MnemonicEntry Roles[] = {")
    for m, role in roles:
        w(f"    {{{cstr(m)}, {cstr(role)}}},")
    w("};")
    w("inline constexpr MnemonicEntry CounterWaits[] = {")
    for m, (counters, _, _) in waits:
        w(f"    {{{cstr(m)}, {cstr(counters)}}},")
    w("};")
    w("// Waits packing several counts in one immediate: bit offsets, width.")
    w("inline constexpr PackedWaitEntry PackedWaits[] = {")
    for m, (_, offsets, width) in waits:
        if offsets:
            w(f"    {{{cstr(m)}, {{{{{', '.join(map(str, offsets))}}}, "
              f"{len(offsets)}, {width}}}}},")
    w("};")
    w("")
    w("// Memory events of instructions MC's flags do not place, by mnemonic.")
    w("inline constexpr MnemonicEntry EventMnemonics[] = {")
    for m, ev in event_mnemonics:
        w(f"    {{{cstr(m)}, {cstr(ev)}}},")
    w("};")
    w("")
    w("// DS lane shuffles address tracing records, by mnemonic.")
    w("inline constexpr MnemonicEntry LanePermutes[] = {")
    for m, kind in lane_permutes:
        w(f"    {{{cstr(m)}, {cstr(kind)}}},")
    w("};")
    w("")
    w("// LLVM 22 SIInstrFlags bit positions (TSFlagBits).")
    w("inline constexpr TSFlagBit TSFlagBits[] = {")
    for n, bit in tsflags:
        w(f"    {{{cstr(n)}, {bit}}},")
    w("};")
    w("")
    w("// Every depctr field, high bits first (DepCtrField).")
    w("inline constexpr DepCtrField AllDepCtrFields[] = {")
    for n, off, width in depctr_fields:
        w(f"    {{{cstr(n)}, {off}, {width}}},")
    w("};")
    w("")
    w("inline constexpr llvm::StringRef ProcessorNames[] = {")
    w("    " + ", ".join(cstr(p["name"]) for p in procs) + ",")
    w("};")
    w("")
    w("} // namespace hwgen")
    w("} // namespace stinkytofu")
    return "\n".join(out) + "\n"


def write_if_changed(path, text):
    """Writes \p text to \p path unless it already holds it (so the build
    does not recompile what includes it)."""
    try:
        with open(path, encoding="utf-8") as f:
            if f.read() == text:
                return
    except OSError:
        pass
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)


def main(argv):
    if len(argv) != 3:
        print("usage: gen_hardware_model.py HardwareModel.json "
              "HardwareModel.inc", file=sys.stderr)
        return 2
    try:
        with open(argv[1], encoding="utf-8") as f:
            recs = Records(json.load(f))
        classes, prefixes, default_index = collect_classes(recs)
        procs = collect_processors(recs, classes)
        roles, waits = collect_roles(recs)
        text = emit(classes, prefixes, default_index, procs, roles, waits,
                    collect_tsflags(recs), collect_event_mnemonics(recs),
                    collect_lane_permutes(recs), collect_all_depctr_fields(recs))
    except (GenError, OSError, json.JSONDecodeError) as e:
        print(f"gen_hardware_model.py: error: {e}", file=sys.stderr)
        return 1
    write_if_changed(argv[2], text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
