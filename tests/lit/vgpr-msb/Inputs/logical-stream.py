"""Reads llvm-objdump -d output and prints the instructions as the hardware
runs them: every VGPR as the register it names under the s_set_vgpr_msb
state (llvm-objdump's `v44 /*v300*/` notes), s_set_vgpr_msb and s_nop
left out, addresses and encodings dropped. Two code objects whose streams
are equal run the same instructions on the same registers, wherever their
s_set_vgpr_msb sit."""
import re
import sys

NOTE = re.compile(r"(v\d+|v\[\d+(?::\d+)?\])(\.[lh])? /\*(v\d+|v\[\d+(?::\d+)?\])\*/")
for line in open(sys.argv[1]):
    line = line.split("//")[0].rstrip()
    if not line.startswith("\t"):
        continue
    text = line.strip()
    if text.startswith(("s_set_vgpr_msb", "s_nop")):
        continue
    print(NOTE.sub(lambda m: m.group(3) + (m.group(2) or ""), text))
