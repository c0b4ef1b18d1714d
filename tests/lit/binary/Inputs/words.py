"""Writes the instructions of `llvm-objdump -d` output (stdin) as `.long`
lines, one instruction a line: a kernel whose code is data words, as
hand-written Tensile kernels have it."""
import re
import sys

for line in sys.stdin:
    m = re.search(r"//\s*[0-9A-Fa-f]+:((?:\s+[0-9A-F]{8})+)", line)
    if m:
        print(".long " + ", ".join("0x" + w for w in m.group(1).split()))
