#!/usr/bin/env bash
# Builds amdgpu_pmu.ko out of tree: copies the Kbuild package (Kbuild,
# core/, module/) into OUT_DIR so the source tree stays clean, then runs
# `make -C KERNEL_DIR M=OUT_DIR modules`.
#   kbuild.sh [--werror] [--object OBJ] SRC_DIR KERNEL_DIR OUT_DIR [make args...]
# --werror     fail when the build prints any warning (the test suite's mode)
# --object OBJ compile only that object, e.g. module/amdgpu_pmu_submit_kfd.o
#              with AMDGPU_PMU_PATCHED_KFD=y, whose symbols a stock kernel
#              lacks so the module could not be linked against it
set -euo pipefail
werror=0
target=modules
while [ $# -gt 0 ]; do
  case "$1" in
    --werror) werror=1; shift ;;
    --object) target=${2:?--object needs a path}; shift 2 ;;
    *) break ;;
  esac
done
if [ $# -lt 3 ]; then
  echo "error: usage: kbuild.sh [--werror] [--object OBJ] SRC_DIR KERNEL_DIR OUT_DIR [make args...]" >&2
  exit 1
fi
src=$1 kdir=$2 out=$3
shift 3
# The kernel's compiler checks compile /dev/null; a regular file there (a
# program that renamed its output over it) makes them fail at random.
if [ ! -c /dev/null ]; then
  echo "error: /dev/null is not the null device (restore it: rm /dev/null; mknod -m 666 /dev/null c 1 3)" >&2
  exit 1
fi
if [ ! -f "$kdir/Makefile" ]; then
  echo "error: '$kdir' is not a kernel build tree (install linux-headers-amd64)" >&2
  exit 1
fi
rm -rf "$out"
mkdir -p "$out"
cp -r "$src/Kbuild" "$src/core" "$src/module" "$out/"
log="$out/build.log"
if ! make -C "$kdir" M="$out" "$@" "$target" >"$log" 2>&1; then
  cat "$log" >&2
  echo "error: Kbuild build of $target failed" >&2
  exit 1
fi
cat "$log"
# Compiler (file:line: warning:) and modpost (WARNING:) warnings; make's own
# notes about its jobserver are not the code's.
if [ "$werror" = 1 ] && grep -E ': warning:|^WARNING:' "$log" | grep -v '^make' >&2; then
  echo "error: the Kbuild build printed warnings" >&2
  exit 1
fi
if [ "$target" = modules ]; then
  test -f "$out/amdgpu_pmu.ko"
else
  test -f "$out/$target"
fi
