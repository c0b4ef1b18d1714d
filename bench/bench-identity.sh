#!/usr/bin/env bash
# Times the identity pipeline (`stinkytofu-opt in.s -o out.s`: read with
# LLVM MC, build the IR, write the assembly back) against
# `llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=<gfx> -filetype=obj -o out.o in.s`
# on the same files, side by side (or, with --opt-args, any stinkytofu-opt
# pipeline against the same llvm-mc run). The two commands alternate, the one
# going first changing from one repetition to the next, so machine noise hits
# both alike. Prints per file the median
# wall time and CPU time (user + system) of each and the ratios
# stinkytofu-opt / llvm-mc (<= 1.0: no slower than llvm-mc), then the ratios
# on the largest file, with the ratio of the two fastest runs.
#
# Usage: bench/bench-identity.sh [-n N] [--callgrind] [--opt PATH]
#                                 [--opt-args "ARGS"] [DIR|FILE ...]
#   -n N         repetitions per file (default 10)
#   --callgrind  also count instructions executed (valgrind --tool=callgrind),
#                one run of each command per file
#   --opt PATH   the stinkytofu-opt binary (default: $STINKYTOFU_OPT, else
#                build/bin/stinkytofu-opt of this checkout)
#   --opt-args "ARGS"  extra stinkytofu-opt arguments, split at white space
#                and put before the input, to time a pipeline instead of the
#                identity: --opt-args "--LongBranchLoweringPass
#                --passes=CFGBuilder,PrintLiveness" (PrintLiveness reports go
#                to stderr, which is discarded)
#   DIR|FILE     *.s and *.s.txt files, directories searched at any depth
#                (default: $STINKYTOFU_CORPUS, else examples/); bench/startup.s,
#                three lines, times start-up alone
# llvm-mc is $LLVM_MC, else /usr/lib/llvm-22/bin/llvm-mc. Each file's -mcpu
# comes from its `.amdgcn_target` (gfx942 when it has none).
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
opt="${STINKYTOFU_OPT:-$root/build/bin/stinkytofu-opt}"
mc="${LLVM_MC:-/usr/lib/llvm-22/bin/llvm-mc}"
reps=10
callgrind=0
opt_args=()
inputs=()
while [ $# -gt 0 ]; do
  case "$1" in
    -n) reps="$2"; shift 2 ;;
    --callgrind) callgrind=1; shift ;;
    --opt) opt="$2"; shift 2 ;;
    --opt-args) read -r -a opt_args <<< "$2"; shift 2 ;;
    -h|--help) sed -n '2,29p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "bench-identity: unknown option $1" >&2; exit 2 ;;
    *) inputs+=("$1"); shift ;;
  esac
done
if [ ${#inputs[@]} -eq 0 ]; then
  inputs=("${STINKYTOFU_CORPUS:-$root/examples}")
fi
[ -x "$opt" ] || { echo "bench-identity: $opt not found (build first: scripts/build.sh)" >&2; exit 2; }
[ -x "$mc" ] || mc="$(command -v llvm-mc-22 || command -v llvm-mc || true)"
[ -n "$mc" ] || { echo "bench-identity: llvm-mc not found (set LLVM_MC)" >&2; exit 2; }
if [ "$callgrind" = 1 ] && ! command -v valgrind >/dev/null; then
  echo "bench-identity: --callgrind needs valgrind (apt-get install valgrind)" >&2
  exit 2
fi

files=()
for input in "${inputs[@]}"; do
  if [ -d "$input" ]; then
    while IFS= read -r -d '' f; do files+=("$f"); done \
      < <(find "$input" -type f \( -name '*.s' -o -name '*.s.txt' \) -print0 | sort -z)
  else
    files+=("$input")
  fi
done
[ ${#files[@]} -gt 0 ] || { echo "bench-identity: no .s files in ${inputs[*]}" >&2; exit 2; }

arch_of() {
  local id
  id="$(grep -m1 -oE '^[[:space:]]*\.amdgcn_target[[:space:]]+"[^"]*"' "$1" | sed -E 's/.*"(.*)"/\1/')"
  id="${id##*--}"
  id="${id%%:*}"
  echo "${id:-gfx942}"
}

# Wall time and CPU time (user + system) of one run, in microseconds. On a
# shared or virtual machine the wall time of both tools drifts by tens of
# percent from minute to minute; CPU time drifts less.
run_times() {
  local TIMEFORMAT='%3R %3U %3S' t
  t="$( { time "$@" >/dev/null 2>&1; } 2>&1 )" ||
    { echo "bench-identity: failed: $*" >&2; exit 1; }
  awk '{ printf "%.0f %.0f\n", $1 * 1e6, ($2 + $3) * 1e6 }' <<< "$t"
}

median() { sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print int((v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }
fastest() { sort -n | head -1; }

# Instructions executed (callgrind's "Collected" count) by one run.
instructions() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null |
    sed -nE 's/^==[0-9]+== Collected : ([0-9]+).*/\1/p'
}

echo "stinkytofu-opt: $opt${opt_args[*]:+ ${opt_args[*]}}"
echo "llvm-mc:        $mc"
echo "repetitions:    $reps (interleaved), medians of wall and CPU (user + system) time"
echo
header="%-60s %8s %10s %10s %7s %10s %10s %7s"
row="%-60s %8d %10.2f %10.2f %7.3f %10.2f %10.2f %7.3f"
if [ "$callgrind" = 1 ]; then
  header+=" %14s %14s %7s"
  row+=" %14d %14d %7.3f"
fi
columns=(file lines "opt ms" "mc ms" ratio "opt cpu" "mc cpu" ratio)
[ "$callgrind" = 1 ] && columns+=("opt instrs" "mc instrs" "ratio")
# shellcheck disable=SC2059
printf "$header\n" "${columns[@]}"

scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
largest="" largest_size=-1 largest_ratio="" largest_ir_ratio=""
sum_opt=0 sum_mc=0 sum_opt_cpu=0 sum_mc_cpu=0
for f in "${files[@]}"; do
  arch="$(arch_of "$f")"
  # Both write a real file: /dev/null would let either skip the writing.
  opt_cmd=("$opt" "${opt_args[@]}" "$f" -o "$scratch/out.s")
  mc_cmd=("$mc" -triple=amdgcn-amd-amdhsa "-mcpu=$arch" -filetype=obj -o "$scratch/out.o" "$f")
  # One untimed run of each warms the page cache.
  "${opt_cmd[@]}" >/dev/null 2>&1 || { echo "bench-identity: stinkytofu-opt fails on $f" >&2; exit 1; }
  "${mc_cmd[@]}" >/dev/null 2>&1 || { echo "bench-identity: llvm-mc fails on $f" >&2; exit 1; }
  opt_times=() mc_times=() opt_cpus=() mc_cpus=()
  # Which tool goes first alternates, so that whatever the machine does at a
  # fixed point of each pair (the other's output being written back to disk,
  # a neighbour's periodic load) falls on both alike.
  for ((r = 0; r < reps; r++)); do
    if ((r % 2 == 0)); then
      read -r wall cpu < <(run_times "${opt_cmd[@]}")
      opt_times+=("$wall"); opt_cpus+=("$cpu")
    fi
    read -r wall cpu < <(run_times "${mc_cmd[@]}")
    mc_times+=("$wall"); mc_cpus+=("$cpu")
    if ((r % 2 == 1)); then
      read -r wall cpu < <(run_times "${opt_cmd[@]}")
      opt_times+=("$wall"); opt_cpus+=("$cpu")
    fi
  done
  opt_us="$(printf '%s\n' "${opt_times[@]}" | median)"
  mc_us="$(printf '%s\n' "${mc_times[@]}" | median)"
  opt_cpu="$(printf '%s\n' "${opt_cpus[@]}" | median)"
  mc_cpu="$(printf '%s\n' "${mc_cpus[@]}" | median)"
  sum_opt=$((sum_opt + opt_us)); sum_mc=$((sum_mc + mc_us))
  sum_opt_cpu=$((sum_opt_cpu + opt_cpu)); sum_mc_cpu=$((sum_mc_cpu + mc_cpu))
  ratio="$(awk -v a="$opt_us" -v b="$mc_us" 'BEGIN { printf "%.3f", (b > 0 ? a / b : 0) }')"
  cpu_ratio="$(awk -v a="$opt_cpu" -v b="$mc_cpu" 'BEGIN { printf "%.3f", (b > 0 ? a / b : 0) }')"
  lines="$(wc -l < "$f")"
  name="$f"
  [ ${#name} -le 60 ] || name="...${name: -57}"
  values=("$name" "$lines" "$(awk -v u="$opt_us" 'BEGIN { print u / 1000 }')"
          "$(awk -v u="$mc_us" 'BEGIN { print u / 1000 }')" "$ratio"
          "$(awk -v u="$opt_cpu" 'BEGIN { print u / 1000 }')"
          "$(awk -v u="$mc_cpu" 'BEGIN { print u / 1000 }')" "$cpu_ratio")
  if [ "$callgrind" = 1 ]; then
    opt_ir="$(instructions "${opt_cmd[@]}")"
    mc_ir="$(instructions "${mc_cmd[@]}")"
    values+=("$opt_ir" "$mc_ir" "$(awk -v a="$opt_ir" -v b="$mc_ir" 'BEGIN { printf "%.3f", (b > 0 ? a / b : 0) }')")
  fi
  # shellcheck disable=SC2059
  printf "$row\n" "${values[@]}"
  size="$(wc -c < "$f")"
  if [ "$size" -gt "$largest_size" ]; then
    largest="$f" largest_size="$size" largest_ratio="$ratio" largest_cpu_ratio="$cpu_ratio"
    # Machine noise only ever adds time: the fastest runs are a second
    # estimate, steadier than the medians when a neighbour is busy.
    largest_fastest_ratio="$(awk -v a="$(printf '%s\n' "${opt_times[@]}" | fastest)" \
      -v b="$(printf '%s\n' "${mc_times[@]}" | fastest)" 'BEGIN { printf "%.3f", (b > 0 ? a / b : 0) }')"
    largest_ir_ratio="${values[10]:-}"
  fi
done
echo
echo "total of medians: wall opt $(awk -v u="$sum_opt" 'BEGIN { print u / 1000 }') ms, llvm-mc $(awk -v u="$sum_mc" 'BEGIN { print u / 1000 }') ms, ratio $(awk -v a="$sum_opt" -v b="$sum_mc" 'BEGIN { printf "%.3f", a / b }');" \
  "cpu opt $(awk -v u="$sum_opt_cpu" 'BEGIN { print u / 1000 }') ms, llvm-mc $(awk -v u="$sum_mc_cpu" 'BEGIN { print u / 1000 }') ms, ratio $(awk -v a="$sum_opt_cpu" -v b="$sum_mc_cpu" 'BEGIN { printf "%.3f", (b > 0 ? a / b : 0) }')"
echo "largest file: $largest ($(wc -l < "$largest") lines): wall ratio $largest_ratio, cpu ratio $largest_cpu_ratio${largest_ir_ratio:+, instructions ratio $largest_ir_ratio}, fastest-run wall ratio $largest_fastest_ratio"
