#!/usr/bin/env bash
# Times the wait-count work of stinkytofu-opt on one assembly file against
# llvm-mc assembling the same file, side by side in one run:
#   wait     stinkytofu-opt IN --verify-waitcnt --StinkyRemoveWaitCntPass
#              --StinkyWaitCntInsertionPass -o OUT.s  (remove every wait,
#              insert them again, verify the result)
#   verify   stinkytofu-opt IN --verify-waitcnt -o OUT.s (the input's waits)
#   identity stinkytofu-opt IN -o OUT.s (reading and writing alone, for scale)
#   llvm-mc  llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=TARGET -filetype=obj IN
# Each command runs N times, the commands taking turns in an order that
# rotates from one repetition to the next (so machine noise hits all alike);
# printed are the best and the median wall time and the best CPU time (user
# + system) of each, and the ratios to llvm-mc. The issue's bar (opt-1): the
# `wait` line within 1.5x llvm-mc (best wall time). A run that exits with a
# status other than 0 is timed anyway and its status printed (the verifier
# exits with 1 on a missing wait).
#
# Usage: bench/waitcnt-bench.sh [-n N] [--opt PATH] [--opt-args "ARGS"] [FILE [TARGET]]
#   FILE     a .s / .s.txt file (default: the largest file in corpus-local/)
#   TARGET   gfxNNN for llvm-mc (default: the file's .amdgcn_target, else gfx942)
#   -n N     repetitions (default 5)
#   --opt PATH  stinkytofu-opt (default: $STINKYTOFU_OPT, else build/bin/stinkytofu-opt)
#   --opt-args "ARGS"  extra arguments for the wait run (e.g. "--NumWaves=2")
# llvm-mc is $LLVM_MC, else /usr/lib/llvm-22/bin/llvm-mc.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
opt="${STINKYTOFU_OPT:-$root/build/bin/stinkytofu-opt}"
mc="${LLVM_MC:-/usr/lib/llvm-22/bin/llvm-mc}"
reps=5
extra=()
positional=()
while [ $# -gt 0 ]; do
  case "$1" in
    -n) reps="$2"; shift 2 ;;
    --opt) opt="$2"; shift 2 ;;
    --opt-args) read -r -a extra <<< "$2"; shift 2 ;;
    -h|--help) sed -n '2,26p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "waitcnt-bench: unknown option $1" >&2; exit 2 ;;
    *) positional+=("$1"); shift ;;
  esac
done
file="${positional[0]:-}"
target="${positional[1]:-}"
if [ -z "$file" ]; then
  file="$(find "$root/corpus-local" -type f \( -name '*.s' -o -name '*.s.txt' \) \
            -printf '%s %p\n' 2>/dev/null | sort -rn | head -1 | cut -d' ' -f2-)"
  [ -n "$file" ] || { echo "waitcnt-bench: no file given and none in $root/corpus-local" >&2; exit 2; }
fi
[ -f "$file" ] || { echo "waitcnt-bench: no such file: $file" >&2; exit 2; }
if [ -z "$target" ]; then
  target="$(grep -m1 -oE '^[[:space:]]*\.amdgcn_target[[:space:]]+"[^"]*"' "$file" | sed -E 's/.*"(.*)"/\1/')"
  target="${target##*--}"
  target="${target%%:*}"
  target="${target:-gfx942}"
fi
[ -x "$opt" ] || { echo "waitcnt-bench: $opt not found (build first, or --opt)" >&2; exit 2; }
[ -x "$mc" ] || mc="$(command -v llvm-mc-22 || command -v llvm-mc || true)"
[ -n "$mc" ] || { echo "waitcnt-bench: llvm-mc not found (set LLVM_MC)" >&2; exit 2; }

scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
# The input keeps its name (diagnostics name it); outputs are real files:
# /dev/null could let a tool skip the writing.
names=(wait verify identity llvm-mc)
# --no-verify: the wait work alone, without the hazard repair and verifier a
# pipeline that changes code gets (docs/passes.md, "How pipelines end").
cmd_wait=("$opt" "$file" --no-verify --verify-waitcnt --StinkyRemoveWaitCntPass
          --StinkyWaitCntInsertionPass "${extra[@]}" -o "$scratch/wait.s")
cmd_verify=("$opt" "$file" --verify-waitcnt -o "$scratch/verify.s")
cmd_identity=("$opt" "$file" -o "$scratch/identity.s")
cmd_mc=("$mc" -triple=amdgcn-amd-amdhsa "-mcpu=$target" -filetype=obj "$file" -o "$scratch/out.o")

run_cmd() {
  case "$1" in
    wait) "${cmd_wait[@]}" ;;
    verify) "${cmd_verify[@]}" ;;
    identity) "${cmd_identity[@]}" ;;
    llvm-mc) "${cmd_mc[@]}" ;;
  esac
}

# "wall_us cpu_us status" of one run.
time_one() {
  local TIMEFORMAT='%3R %3U %3S' t status=0
  t="$( { time run_cmd "$1" >/dev/null 2>"$scratch/$1.err"; } 2>&1 )" || status=$?
  if [ "$status" != 0 ]; then
    # `time` printed its line before the failing status came back.
    t="$(tail -1 <<< "$t")"
  fi
  awk -v s="$status" '{ printf "%.0f %.0f %s\n", $1 * 1e6, ($2 + $3) * 1e6, s }' <<< "$t"
}

echo "file:           $file ($(wc -l < "$file") lines, $(wc -c < "$file") bytes)"
echo "target:         $target"
echo "stinkytofu-opt: $opt"
echo "llvm-mc:        $mc"
echo "repetitions:    $reps (rotating order), best and median wall time, best CPU (user + system)"
echo

declare -A walls cpus status
for n in "${names[@]}"; do walls[$n]="" cpus[$n]="" status[$n]=0; done
# Warm the page cache (and see the exit statuses once).
for n in "${names[@]}"; do run_cmd "$n" >/dev/null 2>&1 || true; done
for ((r = 0; r < reps; r++)); do
  for ((k = 0; k < ${#names[@]}; k++)); do
    n="${names[$(((k + r) % ${#names[@]}))]}"
    read -r w c s < <(time_one "$n")
    walls[$n]+="$w "
    cpus[$n]+="$c "
    [ "$s" = 0 ] || status[$n]="$s"
  done
done

best() { tr ' ' '\n' | grep . | sort -n | head -1; }
median() { tr ' ' '\n' | grep . | sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print int((v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }
ms() { awk -v u="$1" 'BEGIN { printf "%.1f", u / 1000 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }

mc_best="$(best <<< "${walls[llvm-mc]}")"
mc_cpu="$(best <<< "${cpus[llvm-mc]}")"
printf "%-9s %10s %10s %10s %8s %8s  %s\n" run "best ms" "median ms" "cpu ms" "x mc" "cpu x mc" "exit"
for n in "${names[@]}"; do
  b="$(best <<< "${walls[$n]}")"
  m="$(median <<< "${walls[$n]}")"
  c="$(best <<< "${cpus[$n]}")"
  printf "%-9s %10s %10s %10s %8s %8s  %s\n" "$n" "$(ms "$b")" "$(ms "$m")" "$(ms "$c")" \
    "$(ratio "$b" "$mc_best")" "$(ratio "$c" "$mc_cpu")" "${status[$n]}"
done
for n in wait verify; do
  if [ "${status[$n]}" != 0 ]; then
    echo
    echo "$n exited with ${status[$n]}; its last messages:"
    tail -5 "$scratch/$n.err" | sed 's/^/  /'
  fi
done
echo
r="$(ratio "$(best <<< "${walls[wait]}")" "$mc_best")"
verdict="$(awk -v r="$r" 'BEGIN { print (r <= 1.5 ? "within" : "NOT within") }')"
echo "verify + remove + insert: ${r}x llvm-mc (best wall time), $verdict the 1.5x bar"
