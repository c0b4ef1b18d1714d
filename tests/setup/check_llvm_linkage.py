#!/usr/bin/env python3
"""Does every binary link LLVM the way cmake/StinkyTofuLLVM.cmake says?

A process must hold one copy of LLVM: an executable linked against the
static libraries that also needed libLLVM-22.so would register every
cl::opt twice and abort at start-up. This check reads each binary's
dynamic section and fails when
  - a binary given as static needs libLLVM (or libz3, which only the
    shared library's SMT solver uses),
  - a binary given as shared does not need libLLVM.
Usage: check_llvm_linkage.py READELF (--static|--shared) BINARY... [(--static|--shared) BINARY...]
"""
import re
import subprocess
import sys


def needed(readelf, binary):
    out = subprocess.run([readelf, "--dynamic", binary], check=True, capture_output=True,
                         text=True).stdout
    return re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", out)


def main(argv):
    readelf, mode, failures, checked = argv[1], None, [], 0
    for arg in argv[2:]:
        if arg in ("--static", "--shared"):
            mode = arg[2:]
            continue
        libs = needed(readelf, arg)
        llvm = [lib for lib in libs if lib.startswith("libLLVM")]
        if mode == "static" and (llvm or any(lib.startswith("libz3") for lib in libs)):
            failures.append(f"{arg}: linked statically, but needs {', '.join(libs)}")
        elif mode == "shared" and not llvm:
            failures.append(f"{arg}: should need libLLVM-22.so, needs {', '.join(libs)}")
        checked += 1
    for f in failures:
        print(f"check_llvm_linkage: {f}", file=sys.stderr)
    if not failures:
        print(f"check_llvm_linkage: {checked} binaries link LLVM as configured")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
