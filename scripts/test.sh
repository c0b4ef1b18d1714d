#!/usr/bin/env bash
# Sets up, builds and runs every test (gtest and lit) through ctest.
#   scripts/test.sh [CTEST ARGS]               the normal build (build/)
#   scripts/test.sh --sanitize [CTEST ARGS]    the sanitizer build
#       (build-sanitize/: ASan + UBSan, and the fuzz targets, which the lit
#       suite runs there)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
if [ "${1:-}" = --sanitize ]; then
  shift
  "$root/scripts/build-sanitize.sh"
  cd "$root/build-sanitize"
else
  "$root/scripts/build.sh"
  cd "$root/build"
fi
ctest --output-on-failure -j "$(nproc)" "$@"
