#!/usr/bin/env bash
# AMD-built code: Debian's rocSPARSE library (librocsparse0), fetched with
# `apt-get download` and unpacked with `dpkg -x` into library-local/ (git-
# ignored; nothing is installed), checked by bench/library_check.py: every
# kernel of every selected bundle entry of its .hip_fatbin disassembled,
# written as .s and .stir, assembled and linked back (identical .text and
# kernel descriptors), and verified (--verify-waitcnt --verify-hazards);
# findings counted by rule. --bench times `llvm-objdump -d` and
# stinkytofu-opt on the code objects of the largest bundle, side by side.
#
# Usage: bench/library-check.sh [--package NAME] [library_check.py options]
#   e.g. bench/library-check.sh --bundles 0-110/10 --bench
# The package defaults to librocsparse0; its largest shared library is used.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
package=librocsparse0
if [ "${1:-}" = --package ]; then package=$2; shift 2; fi
dir="$root/library-local/$package"
if [ ! -d "$dir/root" ]; then
  mkdir -p "$dir"
  (cd "$dir" && apt-get download "$package" && dpkg -x ./*.deb root)
fi
library=$(find "$dir/root" -name '*.so*' -type f -printf '%s %p\n' | sort -n | tail -1 | cut -d' ' -f2)
[ -n "$library" ] || { echo "$package: no shared library in the package" >&2; exit 1; }
exec python3 "$root/bench/library_check.py" --library "$library" --work "$dir/work" "$@"
