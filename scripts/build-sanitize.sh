#!/usr/bin/env bash
# Sets up the machine (scripts/bootstrap.sh), configures and builds the
# sanitizer configuration into build-sanitize/: everything compiled with
# ASan + UBSan (STINKYTOFU_SANITIZE=ON in CMakeLists.txt), plus the libFuzzer
# targets of tests/fuzz. Arguments name the targets to build (default: all).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/bootstrap.sh"
if [ ! -f "$root/build-sanitize/build.ninja" ]; then
  cmake -S "$root" -B "$root/build-sanitize" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DSTINKYTOFU_SANITIZE=ON >/dev/null
fi
targets=()
for t in "$@"; do targets+=(--target "$t"); done
cmake --build "$root/build-sanitize" -j "$(nproc)" "${targets[@]}"
