#!/usr/bin/env bash
# Times stinkytofu-opt on a batch of kernels, several ways, on the same files:
#   per-file      one process per file, one after another
#   per-file-P    one process per file, NPROC at a time (xargs -P)
#   batch         one process, every file (--jobs 1)
#   batch-P       NPROC batch processes, the files dealt out among them
#   llvm-mc-P     llvm-mc -filetype=obj, one process per file, NPROC at a time
# and checks that every way wrote the same bytes as per-file. The batch is
# tests/kernels/*.cl compiled with clang-22 -O2 -nogpulib for each target
# (a kernel a target cannot compile is left out). Each line prints wall
# seconds and CPU seconds (user + system of every process); on a shared
# machine compare CPU seconds, wall seconds only on an idle one.
#
# Usage: bench/batch-bench.sh [--build DIR] [--work DIR] [--targets "gfx942 ..."] [-- OPTIONS...]
#   OPTIONS  the pipeline (default: -O2)
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
build="$root/build"
work=/tmp/stinkytofu-batch-bench
targets="gfx900 gfx906 gfx908 gfx90a gfx942 gfx950 gfx1030 gfx1100 gfx1200 gfx1201 gfx1250"
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build="$2"; shift 2 ;;
    --work) work="$2"; shift 2 ;;
    --targets) targets="$2"; shift 2 ;;
    --) shift; break ;;
    *) echo "usage: $0 [--build DIR] [--work DIR] [--targets LIST] [-- OPTIONS...]" >&2; exit 2 ;;
  esac
done
pipeline=("$@")
[ ${#pipeline[@]} -gt 0 ] || pipeline=(-O2)
opt="$build/bin/stinkytofu-opt"
mc=/usr/lib/llvm-22/bin/llvm-mc
jobs="$(nproc)"

mkdir -p "$work/in"
for t in $targets; do
  for k in "$root"/tests/kernels/*.cl; do
    s="$work/in/$(basename "$k" .cl)-$t.s"
    [ -f "$s" ] || clang-22 -x cl -cl-std=CL2.0 --target=amdgcn-amd-amdhsa -mcpu="$t" \
      -nogpulib -O2 -S "$k" -o "$s" 2>/dev/null || rm -f "$s"
  done
done
files=("$work"/in/*.s)
echo "${#files[@]} files, pipeline ${pipeline[*]}, $jobs cores, load $(cut -d' ' -f1-3 /proc/loadavg)"

# step NAME COMMAND...: runs COMMAND into a fresh $work/NAME, prints its times.
step() {
  local name="$1" wall user sys
  shift
  rm -rf "${work:?}/$name" && mkdir "$work/$name"
  /usr/bin/time -o "$work/time" -f '%e %U %S' "$@" >"$work/$name.log" 2>&1 ||
    { echo "$name failed, see $work/$name.log" >&2; exit 1; }
  read -r wall user sys <"$work/time"
  printf '%-11s wall %6.2f s   cpu %6.2f s\n' "$name" "$wall" "$(echo "$user + $sys" | bc)"
}

# one_opt FILE DIR, one_mc FILE DIR: one file, its output into DIR. The
# target llvm-mc needs is the file name's last part (kernel-gfx942.s).
one_opt() { "$OPT" $PIPELINE "$1" -o "$2/${1##*/}"; }
one_mc() { local t="${1##*-}"; "$MC" -triple=amdgcn-amd-amdhsa -mcpu="${t%.s}" -filetype=obj "$1" -o "$2/${1##*/}.o"; }
export -f one_opt one_mc
export OPT="$opt" MC="$mc" WORK="$work" PIPELINE="${pipeline[*]}"
per=$(( (${#files[@]} + jobs - 1) / jobs ))
step per-file bash -c 'for f; do one_opt "$f" "$WORK/per-file" || exit 1; done' _ "${files[@]}"
step per-file-P bash -c 'printf "%s\0" "$@" |
  xargs -0 -P '"$jobs"' -n 1 bash -c '\''one_opt "$1" "$WORK/per-file-P"'\'' _' _ "${files[@]}"
step batch "$opt" "${pipeline[@]}" --jobs 1 "${files[@]}" -o "$work/batch"
step batch-P bash -c 'printf "%s\0" "$@" |
  xargs -0 -P '"$jobs"' -n '"$per"' bash -c '\''"$OPT" $PIPELINE --jobs 1 "$@" -o "$WORK/batch-P"'\'' _' _ "${files[@]}"
step llvm-mc-P bash -c 'printf "%s\0" "$@" |
  xargs -0 -P '"$jobs"' -n 1 bash -c '\''one_mc "$1" "$WORK/llvm-mc-P"'\'' _' _ "${files[@]}"

for way in per-file-P batch batch-P; do
  diff -r "$work/per-file" "$work/$way" >/dev/null ||
    { echo "$way wrote other bytes than per-file" >&2; exit 1; }
done
echo "per-file-P, batch and batch-P wrote the bytes per-file wrote"
