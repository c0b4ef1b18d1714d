#!/usr/bin/env bash
# Sets up, builds and runs every test (gtest and lit) through ctest: the
# normal build (build/), then the sanitizer build (build-sanitize/: ASan +
# UBSan, and the fuzz targets, which its lit suite runs).
#   scripts/test.sh [CTEST ARGS]                 both
#   scripts/test.sh --no-sanitize [CTEST ARGS]   the normal build only
#   scripts/test.sh --sanitize [CTEST ARGS]      the sanitizer build only
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
normal=1 sanitize=1
case "${1:-}" in
  --sanitize) normal=0; shift ;;
  --no-sanitize) sanitize=0; shift ;;
esac
if [ "$normal" = 1 ]; then
  "$root/scripts/build.sh"
  (cd "$root/build" && ctest --output-on-failure -j "$(nproc)" "$@")
fi
if [ "$sanitize" = 1 ]; then
  "$root/scripts/build-sanitize.sh"
  (cd "$root/build-sanitize" && ctest --output-on-failure -j "$(nproc)" "$@")
fi
