#!/usr/bin/env bash
# Times the build and test loop of a source tree, in a fresh build directory:
#   tools        clean build of the shipped tools (what scripts/demo.sh and
#                the lit suite run): stinkytofu-opt, sqtt-funcmap,
#                sqtt-trace, perf-dkms-packets, pm4-decode
#   rest         then everything else `cmake --build` builds (unit tests,
#                Python module, fixtures); tools + rest = a clean build of
#                everything
#   incremental  rebuild of everything after touching one pass file
#                (stinkytofu/lib/transforms/DeadCodeEliminationPass.cpp)
#   test         the default test run (ctest -j NPROC, as scripts/test.sh)
# Each line prints wall seconds and CPU seconds (user + system of every
# process the step ran). CPU seconds are the figure to compare when the
# machine is shared; wall seconds are what a user waits on an idle machine.
# ccache, when installed, is bypassed (CCACHE_DISABLE=1) so that "clean"
# means compiled; --ccache measures a second clean build with a warm cache.
#
# Usage: bench/build-loop.sh [--src DIR] [--build DIR] [--no-test] [--ccache]
#   --src DIR    source tree (default: this checkout)
#   --build DIR  build directory, deleted first (default: /tmp/stinkytofu-build-loop)
set -euo pipefail

src="$(cd "$(dirname "$0")/.." && pwd)"
build=/tmp/stinkytofu-build-loop
run_test=1 ccache_run=0
while [ $# -gt 0 ]; do
  case "$1" in
    --src) src="$(cd "$2" && pwd)"; shift 2 ;;
    --build) build="$2"; shift 2 ;;
    --no-test) run_test=0; shift ;;
    --ccache) ccache_run=1; shift ;;
    *) echo "usage: $0 [--src DIR] [--build DIR] [--no-test] [--ccache]" >&2; exit 2 ;;
  esac
done
jobs="$(nproc)"
tools=(stinkytofu-opt sqtt-funcmap sqtt-trace perf-dkms-packets pm4-decode)
touched="$src/stinkytofu/lib/transforms/DeadCodeEliminationPass.cpp"
log="$build.log"

# step NAME COMMAND...: runs COMMAND (output to $log), prints its times.
step() {
  local name="$1" wall user sys
  shift
  /usr/bin/time -o "$log.time" -f '%e %U %S' "$@" >>"$log" 2>&1 ||
    { echo "$name failed, see $log" >&2; exit 1; }
  read -r wall user sys <"$log.time"
  printf '%-12s wall %7.1f s   cpu %7.1f s\n' "$name" "$wall" "$(echo "$user + $sys" | bc)"
}

configure() {
  rm -rf "$build"
  cmake -S "$src" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 >>"$log" 2>&1
}

: >"$log"
echo "source $src ($(git -C "$src" rev-parse --short HEAD 2>/dev/null || echo '?')), build $build, -j $jobs, load $(cut -d' ' -f1-3 /proc/loadavg)"
export CCACHE_DISABLE=1
configure
step tools cmake --build "$build" -j "$jobs" --target "${tools[@]}"
step rest cmake --build "$build" -j "$jobs"
touch "$touched"
step incremental cmake --build "$build" -j "$jobs"
if [ "$run_test" = 1 ]; then
  step test sh -c "cd '$build' && ctest -j $jobs --output-on-failure"
fi
if [ "$ccache_run" = 1 ] && command -v ccache >/dev/null; then
  unset CCACHE_DISABLE
  configure
  cmake --build "$build" -j "$jobs" --target "${tools[@]}" >>"$log" 2>&1
  configure
  step tools-ccache cmake --build "$build" -j "$jobs" --target "${tools[@]}"
fi
