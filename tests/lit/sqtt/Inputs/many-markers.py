#!/usr/bin/env python3
"""Writes a kernel with N distinct sqtt_marker_point names (N on the command line)."""
import sys

n = int(sys.argv[1])
print('\t.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"')
print("\t.text")
print("many:")
for i in range(n):
    print(f'\tsqtt_marker_point "p{i}"')
print("\ts_endpgm")
