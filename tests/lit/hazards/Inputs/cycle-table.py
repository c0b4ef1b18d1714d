"""Checks the cycle table of a --stats file: every function row has a path
(no '-'), hazard cycles and stalls are whole numbers, and the longest path
holds at least the heaviest loop body (a loop body lies on the path once)."""
import sys

lines = open(sys.argv[1]).read().splitlines()
start = next(i for i, l in enumerate(lines) if l.split()[:2] == ["function", "path-cycles"])
rows = [l.split() for l in lines[start + 1:] if l.strip()]
for name, path, stalls, loops, body, waits, cost in rows:
    if path == "-" or int(path) <= 0:
        sys.exit(f"{name}: no path estimate ({path})")
    if int(stalls) > int(path):
        sys.exit(f"{name}: {stalls} stall cycles on a path of {path}")
    if name != "<total>" and int(body) > int(path):
        sys.exit(f"{name}: loop body {body} longer than the path {path}")
