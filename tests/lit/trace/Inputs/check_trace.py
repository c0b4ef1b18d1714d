#!/usr/bin/env python3
"""Checks sqtt-trace outputs against their formats' own rules.

  folded FILE      flamegraph.pl's parsing rule: the last space-separated
                   field is an integer count, frames (split on ';') are
                   non-empty
  perfetto FILE    Chrome trace JSON: phases, integer pid/tid <= 2^31, ts in
                   microseconds (numbers >= 0), B/E nested per (pid, tid)
                   with matching names, nothing left open
  speedscope FILE  sampled profile: samples and weights agree, frame indices
                   in range
  json FILE        parses as JSON
  xml FILE         parses as XML
  empty DIR        the directory has no entries
  png FILE SVG     a PNG screenshot of the flame graph SVG: its size, and per
                   frame of the SVG the pixels of that frame's fill colour
Prints one summary line; exits 1 with a reason on the first violation.
"""
import json
import os
import struct
import sys
import zlib


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def folded(path):
    total = 0
    lines = open(path).read().splitlines()
    for n, line in enumerate(lines, 1):
        stack, _, count = line.rpartition(" ")
        if not count.isdigit():
            fail("line %d: last field %r is not an integer" % (n, count))
        if not stack or any(f == "" for f in stack.split(";")):
            fail("line %d: empty frame in %r" % (n, stack))
        total += int(count)
    print("folded ok: %d stacks, %d cycles" % (len(lines), total))


def perfetto(path):
    doc = json.load(open(path))
    events = doc["traceEvents"] if isinstance(doc, dict) else doc
    stacks = {}
    max_ts = 0.0
    counts = {}
    for e in events:
        ph = e.get("ph")
        counts[ph] = counts.get(ph, 0) + 1
        if ph not in ("B", "E", "i", "I", "C", "M", "X"):
            fail("unknown phase %r" % ph)
        for key in ("pid", "tid"):
            v = e.get(key)
            if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= 2**31:
                fail("%s %r is not an integer in [0, 2^31]" % (key, v))
        if ph == "M":
            if "name" not in e.get("args", {}) and "sort_index" not in e.get("args", {}):
                fail("metadata event without args.name/sort_index")
            continue
        ts = e.get("ts")
        if not isinstance(ts, (int, float)) or ts < 0:
            fail("ts %r is not a non-negative number" % ts)
        max_ts = max(max_ts, ts)
        key = (e["pid"], e["tid"])
        if ph == "B":
            stacks.setdefault(key, []).append((e["name"], ts))
        elif ph == "E":
            open_ = stacks.get(key)
            if not open_:
                fail("E %r on %r with nothing open" % (e["name"], key))
            name, begin = open_.pop()
            if name != e["name"]:
                fail("E %r closes B %r on %r" % (e["name"], name, key))
            if ts < begin:
                fail("E %r at %r before its B at %r" % (name, ts, begin))
        elif ph in ("i", "I") and e.get("s", "t") not in ("t", "p", "g"):
            fail("instant scope %r" % e.get("s"))
    left = {k: v for k, v in stacks.items() if v}
    if left:
        fail("slices left open: %r" % left)
    print("perfetto ok: %s, max ts %.3f us" %
          (" ".join("%s=%d" % kv for kv in sorted(counts.items())), max_ts))


def speedscope(path):
    doc = json.load(open(path))
    frames = doc["shared"]["frames"]
    for p in doc["profiles"]:
        if len(p["samples"]) != len(p["weights"]):
            fail("samples and weights differ in length")
        for s in p["samples"]:
            if any(not 0 <= f < len(frames) for f in s):
                fail("frame index out of range in %r" % s)
        if sum(p["weights"]) != p["endValue"] - p["startValue"]:
            fail("weights do not add up to endValue")
    print("speedscope ok: %d frames, %d samples, %d cycles" %
          (len(frames), sum(len(p["samples"]) for p in doc["profiles"]),
           sum(sum(p["weights"]) for p in doc["profiles"])))


def png(path, svg_path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        fail("not a PNG file")
    pos, idat, width, height, depth, ctype = 8, b"", 0, 0, 0, 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, ctype = struct.unpack(">IIBB", body[:10])
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    if depth != 8 or ctype not in (2, 6):
        fail("unsupported PNG (depth %d, colour type %d)" % (depth, ctype))
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * bpp
    prev = bytearray(stride)
    colours = {}
    at = 0
    for _ in range(height):
        f = raw[at]
        line = bytearray(raw[at + 1:at + 1 + stride])
        at += 1 + stride
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pred) & 255
        for i in range(0, stride, bpp):
            px = bytes(line[i:i + 3])
            colours[px] = colours.get(px, 0) + 1
        prev = line
    print("png: %dx%d, %d colours" % (width, height, len(colours)))
    import re
    svg = open(svg_path).read()
    for name, fill in re.findall(r'data-n="([^"]*)"><title>.*?fill="rgb\((\d+,\d+,\d+)\)"', svg):
        want = bytes(int(x) for x in fill.split(","))
        print("frame %s: %s" % (name, "drawn" if colours.get(want, 0) > 50 else "MISSING"))


if __name__ == "__main__":
    cmd = sys.argv[1]
    if cmd == "json":
        json.load(open(sys.argv[2]))
        print("json ok")
    elif cmd == "xml":
        import xml.dom.minidom
        xml.dom.minidom.parse(sys.argv[2])
        print("xml ok")
    elif cmd == "empty":
        left = os.listdir(sys.argv[2])
        if left:
            fail("left behind: %s" % ", ".join(sorted(left)))
        print("empty ok")
    elif cmd == "png":
        png(sys.argv[2], sys.argv[3])
    else:
        {"folded": folded, "perfetto": perfetto, "speedscope": speedscope}[cmd](sys.argv[2])
