#!/usr/bin/env python3
"""Checks the .sqtt_funcmap section of a code object against funcmap text.

Usage: check-funcmap-section.py OBJECT MAPFILE

The section (read with llvm-objcopy --dump-section, as the decoders do) must
hold exactly the text of MAPFILE and one terminating NUL.
"""
import os
import subprocess
import sys
import tempfile

with tempfile.TemporaryDirectory() as tmp:
    out = os.path.join(tmp, "section.bin")
    subprocess.run(["llvm-objcopy", "--dump-section=.sqtt_funcmap=" + out, sys.argv[1],
                    os.path.join(tmp, "copy.o")], check=True)
    data = open(out, "rb").read()
text = open(sys.argv[2], "rb").read()
if data != text + b"\0":
    print(f"MISMATCH: section {data!r}\n   funcmap {text!r} + NUL")
    sys.exit(1)
print(f"OK: {len(data)} bytes")
