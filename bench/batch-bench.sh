#!/usr/bin/env bash
# Times stinkytofu-opt on a batch of kernels, several ways, on the same files:
#   per-file      one process per file, one after another
#   per-file-P    one process per file, NPROC at a time (xargs -P)
#   batch         one process, every file (--jobs 1)
#   batch-jobs    one process, every file, NPROC threads (--jobs NPROC); then
#                 its threads' CPU seconds (bench/thread_cpu.py): the main
#                 thread's plus the busiest worker's is its time on idle cores
#   batch-P       NPROC batch processes, the files dealt out among them
#   llvm-mc-P     llvm-mc -filetype=obj, one process per file, NPROC at a time
# and checks that every way wrote the same bytes as per-file. The batch is
# tests/kernels/*.cl compiled with clang-22 -O2 -nogpulib for each target
# (a kernel a target cannot compile is left out), then the real Tensile
# kernels of --tensile DIR, then files of --corpus DIR (bench/build-corpus.sh's
# O2/ kernels, taken evenly from its sorted list) up to --count files in all.
# Each line prints wall seconds and CPU seconds (user + system of every
# process) and the load average before it; on a shared machine compare CPU
# seconds, wall seconds only on an idle one.
#
# Usage: bench/batch-bench.sh [--build DIR] [--work DIR] [--targets "gfx942 ..."]
#          [--tensile DIR] [--corpus DIR] [--count N] [-- OPTIONS...]
#   OPTIONS  the pipeline (default: -O2)
#   --tensile  real kernels, *.s and *.s.txt (default: corpus-local/tensile, if there)
#   --corpus   a broad corpus (default: corpus-broad, if there); its O2/ kernels
#   --count    files in all, when the corpus has enough (default: 200)
#   --ways     the ways to time (default: all; per-file always runs, as the reference)
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
build="$root/build"
work=/tmp/stinkytofu-batch-bench
targets="gfx900 gfx906 gfx908 gfx90a gfx942 gfx950 gfx1030 gfx1100 gfx1200 gfx1201 gfx1250"
tensile="$root/corpus-local/tensile"
corpus="$root/corpus-broad"
count=200
ways="per-file-P batch batch-jobs batch-P llvm-mc-P"
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build="$2"; shift 2 ;;
    --work) work="$2"; shift 2 ;;
    --targets) targets="$2"; shift 2 ;;
    --tensile) tensile="$2"; shift 2 ;;
    --corpus) corpus="$2"; shift 2 ;;
    --count) count="$2"; shift 2 ;;
    --ways) ways="$2"; shift 2 ;;
    --) shift; break ;;
    *) echo "usage: $0 [--build DIR] [--work DIR] [--targets LIST] [--tensile DIR]" \
            "[--corpus DIR] [--count N] [--ways LIST] [-- OPTIONS...]" >&2; exit 2 ;;
  esac
done
pipeline=("$@")
[ ${#pipeline[@]} -gt 0 ] || pipeline=(-O2)
opt="$build/bin/stinkytofu-opt"
mc=/usr/lib/llvm-22/bin/llvm-mc
jobs="$(nproc)"

# Every input is $work/in/NAME.t.TARGET.s, TARGET its target id spelt with
# characters a source location may hold (gfx90a:xnack- as gfx90a_xnackm),
# for llvm-mc.
rm -rf "$work/in" && mkdir -p "$work/in" "$work/kernels"
for t in $targets; do
  for k in "$root"/tests/kernels/*.cl; do
    s="$work/kernels/$(basename "$k" .cl).t.$t.s"
    [ -f "$s" ] || clang-22 -x cl -cl-std=CL2.0 --target=amdgcn-amd-amdhsa -mcpu="$t" \
      -nogpulib -O2 -S "$k" -o "$s" 2>/dev/null || rm -f "$s"
  done
done
cp "$work"/kernels/*.s "$work/in/"
# stage FILE NAME: copies a kernel with an .amdgcn_target into the batch.
stage() {
  local id
  id="$(sed -n 's/^[[:space:]]*\.amdgcn_target[[:space:]]*"[^"]*--\([^"]*\)".*/\1/p' "$1" | head -n 1)"
  [ -n "$id" ] && cp "$1" "$work/in/$2.t.$(echo "$id" | tr ':+-' '_pm').s"
}
if [ -d "$tensile" ]; then
  for f in "$tensile"/*.s "$tensile"/*.s.txt; do
    [ -f "$f" ] && stage "$f" "tensile-$(basename "${f%.txt}" .s)"
  done
fi
have=$(ls "$work/in" | wc -l)
if [ -d "$corpus/O2" ] && [ "$have" -lt "$count" ]; then
  mapfile -t pool < <(find "$corpus/O2" -name '*.s' | sort)
  want=$((count - have)) n=${#pool[@]} i=0
  while [ "$i" -lt "$want" ] && [ "$i" -lt "$n" ]; do
    f="${pool[$((i * n / want))]}"
    rel="${f#"$corpus"/O2/}"
    stage "$f" "corpus-$(echo "${rel%.s}" | tr '/' '_')"
    i=$((i + 1))
  done
fi
files=("$work"/in/*.s)
echo "${#files[@]} files ($(ls "$work"/in | grep -c '^tensile-' || true) Tensile," \
  "$(ls "$work"/in | grep -c '^corpus-' || true) corpus)," \
  "$(cat "${files[@]}" | wc -c) bytes, pipeline ${pipeline[*]}, $jobs cores"

# step NAME COMMAND...: runs COMMAND into a fresh $work/NAME, prints its
# times; nothing when NAME is not one of the ways asked for.
step() {
  local name="$1" wall user sys
  shift
  [ "$name" = per-file ] || [[ " $ways " == *" $name "* ]] || return 0
  rm -rf "${work:?}/$name" && mkdir "$work/$name"
  local load
  load="$(cut -d' ' -f1 /proc/loadavg)"
  /usr/bin/time -o "$work/time" -f '%e %U %S' "$@" >"$work/$name.log" 2>&1 ||
    { echo "$name failed, see $work/$name.log" >&2; exit 1; }
  read -r wall user sys <"$work/time"
  printf '%-11s wall %6.2f s   cpu %6.2f s   (load before: %s)\n' "$name" "$wall" \
    "$(echo "$user + $sys" | bc)" "$load"
}

# one_opt FILE DIR, one_mc FILE DIR: one file, its output into DIR. The
# target llvm-mc needs is the file name's last part (kernel.t.gfx90a_xnackm.s):
# the processor, and its features as -mattr (-xnack).
one_opt() { "$OPT" $PIPELINE "$1" -o "$2/${1##*/}"; }
one_mc() {
  local t="${1##*.t.}" cpu attrs=() f
  t="${t%.s}" cpu="${t%%_*}"
  if [ "$cpu" != "$t" ]; then
    IFS=_ read -ra feats <<<"${t#*_}"
    for f in "${feats[@]}"; do attrs+=("-mattr=$(echo "${f: -1}" | tr pm +-)${f%?}"); done
  fi
  "$MC" -triple=amdgcn-amd-amdhsa -mcpu="$cpu" "${attrs[@]}" -filetype=obj "$1" -o "$2/${1##*/}.o"
}
export -f one_opt one_mc
export OPT="$opt" MC="$mc" WORK="$work" PIPELINE="${pipeline[*]}"
per=$(( (${#files[@]} + jobs - 1) / jobs ))
step per-file bash -c 'for f; do one_opt "$f" "$WORK/per-file" || exit 1; done' _ "${files[@]}"
step per-file-P bash -c 'printf "%s\0" "$@" |
  xargs -0 -P '"$jobs"' -n 1 bash -c '\''one_opt "$1" "$WORK/per-file-P"'\'' _' _ "${files[@]}"
step batch "$opt" "${pipeline[@]}" --jobs 1 "${files[@]}" -o "$work/batch"
step batch-jobs "$opt" "${pipeline[@]}" --jobs "$jobs" "${files[@]}" -o "$work/batch-jobs"
# What batch-jobs would take on idle cores: its threads' CPU seconds.
if [[ " $ways " == *" batch-jobs "* ]]; then
  rm -rf "$work/threads" && mkdir "$work/threads"
  printf '%-11s %s\n' "" "$("$root/bench/thread_cpu.py" "$opt" "${pipeline[@]}" --jobs "$jobs" \
    "${files[@]}" -o "$work/threads" 2>"$work/threads.log")"
fi
step batch-P bash -c 'printf "%s\0" "$@" |
  xargs -0 -P '"$jobs"' -n '"$per"' bash -c '\''"$OPT" $PIPELINE --jobs 1 "$@" -o "$WORK/batch-P"'\'' _' _ "${files[@]}"
step llvm-mc-P bash -c 'printf "%s\0" "$@" |
  xargs -0 -P '"$jobs"' -n 1 bash -c '\''one_mc "$1" "$WORK/llvm-mc-P"'\'' _' _ "${files[@]}"

for way in per-file-P batch batch-jobs batch-P; do
  [[ " $ways " == *" $way "* ]] || continue
  diff -r "$work/per-file" "$work/$way" >/dev/null ||
    { echo "$way wrote other bytes than per-file" >&2; exit 1; }
done
echo "every way wrote the bytes per-file wrote"
