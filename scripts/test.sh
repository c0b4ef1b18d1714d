#!/usr/bin/env bash
# Sets up, builds and runs every test (gtest and lit) through ctest: the
# normal build (build/), then the sanitizer build (build-sanitize/: ASan +
# UBSan, and the fuzz targets, which its lit suite runs).
#   scripts/test.sh [CTEST ARGS]                 both
#   scripts/test.sh --no-sanitize [CTEST ARGS]   the normal build only
#   scripts/test.sh --sanitize [CTEST ARGS]      the sanitizer build only
#   scripts/test.sh --tsan                       the ThreadSanitizer build's
#                                                thread-safety tests only (scripts/test-tsan.sh)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
normal=1 sanitize=1
case "${1:-}" in
  --tsan) exec "$root/scripts/test-tsan.sh" ;;
  --sanitize) normal=0; shift ;;
  --no-sanitize) sanitize=0; shift ;;
esac

# Runs ctest in build directory $1, then prints how many gtest, lit and
# pytest tests ran (ctest counts the lit suite and the pytest run as one
# entry each; their own summaries are in its log).
run_tests() {
  local dir="$1" status=0
  shift
  (cd "$dir" && ctest --output-on-failure -j "$(nproc)" "$@") || status=$?
  local log="$dir/Testing/Temporary/LastTest.log"
  if [ -f "$log" ]; then
    # Read the log before `ctest -N`, which starts a new one. A build may
    # run no lit or pytest suite (the sanitizer build has no Python module):
    # an empty total, not a failure.
    local lit pytest
    lit="$(grep -E '^ *(Passed|Failed|Unsupported) *:' "$log" | tr -s ' ' | paste -sd, - || true)"
    pytest="$(grep -E '^(=+ )?[0-9]+ (passed|failed).* in [0-9.]+s' "$log" | tail -n 1 || true)"
    echo "Totals ($dir):"
    echo "  gtest:  $(cd "$dir" && ctest -N -L unit "$@" | sed -n 's/^Total Tests: //p') tests"
    echo "  lit:    $lit"
    echo "  pytest: ${pytest:-none in this build}"
  fi
  return "$status"
}

if [ "$normal" = 1 ]; then
  "$root/scripts/build.sh"
  run_tests "$root/build" "$@"
fi
if [ "$sanitize" = 1 ]; then
  "$root/scripts/build-sanitize.sh"
  run_tests "$root/build-sanitize" "$@"
fi
