#!/usr/bin/env bash
# The ctest test corpus-sample: a stratified sample of the project's own
# kernels (tests/kernels/*.cl), compiled by clang-22 now for the 11 targets in
# the six variants of bench/build-corpus.sh (-O0, -O2, with Debian's
# rocm-device-libs, with forced long branches), then checked by the corpus
# check's engine (bench/corpus-check.sh --full: round trips, instrumentation
# with verification, -O3 with no new wait/hazard finding, every output
# assembled). Fails when a kernel does not compile or a check fails.
# Usage: sample-check.sh --opt PATH --clang PATH --sample N [-j N]
set -uo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
opt="" clang="" sample="" jobs="$(nproc)"
while [ $# -gt 0 ]; do
  case "$1" in
    --opt) opt="$2"; shift 2 ;;
    --clang) clang="$2"; shift 2 ;;
    --sample) sample="$2"; shift 2 ;;
    -j) jobs="$2"; shift 2 ;;
    -j*) jobs="${1#-j}"; shift ;;
    *) echo "sample-check: unknown argument $1" >&2; exit 2 ;;
  esac
done
[ -n "$opt" ] && [ -n "$clang" ] && [ -n "$sample" ] ||
  { echo "usage: sample-check.sh --opt PATH --clang PATH --sample N [-j N]" >&2; exit 2; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
if ! python3 "$root/bench/build_corpus.py" --sources "$root/tests/kernels" --sample "$sample" \
     --out "$work" --clang "$clang" -j "$jobs" --strict >"$work/build.log" 2>&1; then
  cat "$work/build.log"
  echo "sample-check: a kernel of tests/kernels did not compile" >&2
  exit 1
fi
python3 "$root/bench/corpus_check.py" --opt "$opt" -j "$jobs" --quiet "$work"
