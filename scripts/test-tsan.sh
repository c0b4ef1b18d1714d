#!/usr/bin/env bash
# The ThreadSanitizer configuration: builds build-tsan/ (STINKYTOFU_TSAN=ON in
# CMakeLists.txt: everything we compile instrumented, libLLVM-22.so as
# installed) with the unit tests and stinkytofu-opt, then runs the
# thread-safety tests under it: ConcurrentPipelinesTest (eight kernels, three
# pipelines, eight threads) and tests/lit/tool/jobs.test (--jobs 4 against
# sequential runs). Any report is an error (halt_on_error). Not part of
# scripts/test.sh's default run (docs/performance.md, "Batch", says what
# ThreadSanitizer can and cannot see here); `scripts/test.sh --tsan` runs it.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="$root/build-tsan"
"$root/scripts/bootstrap.sh"
if [ ! -f "$build/build.ninja" ]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DSTINKYTOFU_TSAN=ON >/dev/null
fi
cmake --build "$build" -j "$(nproc)" --target stinkytofu-thread-tests stinkytofu-opt
export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 ${TSAN_OPTIONS:-}"
"$build/bin/stinkytofu-thread-tests"
/usr/lib/llvm-22/bin/lit -sv "$build/tests/lit/tool/jobs.test"
