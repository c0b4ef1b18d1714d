#!/usr/bin/env bash
# Fuzzing campaigns with the libFuzzer targets of the sanitizer build.
#
# Usage: bench/fuzz.sh [-j N] DURATION [TARGET...]
#   DURATION  seconds per target
#   TARGET    asm, stir, pipeline, funcmap, binary, statement-lexer,
#             expression, expansion-lines (default: all eight; tests/fuzz)
#   -j N      run N targets at a time (default 1); every fuzzer runs niced
#             (nice -n 19), one process each
#
# Builds build-sanitize/ (scripts/build-sanitize.sh) when needed. Each target
# keeps its corpus in fuzz-corpus/<target>/corpus (git-ignored), which grows
# from campaign to campaign; the seeds, the repository's test inputs
# (tests/fuzz/seeds.py, kernels compiled for every family), are made anew
# into fuzz-corpus/<target>/seeds. The fuzzer runs in fork mode and goes on
# after a finding: each crash, hang (an input over 30 s of wall time: the
# runs are niced on a shared machine), leak or
# out-of-memory input is saved as fuzz-corpus/<target>/artifacts/
# {crash,timeout,leak,oom}-<sha1>, the log is fuzz-corpus/<target>/log.txt.
#
# Prints per target: executions, executions per second, corpus files, and
# the crash/timeout/leak/oom files this campaign wrote (with their names).
# Exit status 1 when a campaign found anything, 2 on bad usage.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
all_targets=(asm stir pipeline funcmap binary statement-lexer expression expansion-lines)

jobs=1
if [ "${1:-}" = "-j" ]; then
  jobs="${2:?-j needs a number}"
  shift 2
fi
duration="${1:-}"
if ! [[ "$duration" =~ ^[0-9]+$ ]]; then
  sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
  exit 2
fi
shift
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=("${all_targets[@]}")

binary() {
  case "$1" in
    asm | stir | pipeline | binary | statement-lexer | expression | expansion-lines) echo "stinkytofu-$1-fuzzer" ;;
    funcmap) echo "sqtt-funcmap-fuzzer" ;;
    *) echo "bench/fuzz.sh: unknown target '$1' (${all_targets[*]})" >&2; exit 2 ;;
  esac
}
binaries=()
for t in "${targets[@]}"; do binaries+=("$(binary "$t")"); done
"$root/scripts/build-sanitize.sh" "${binaries[@]}" stinkytofu-opt >/dev/null

llvm_bin=/usr/lib/llvm-22/bin
bin="$root/build-sanitize/bin"
corpus_root="$root/fuzz-corpus"

# The options of one target: the seeds it is given and the largest input.
prepare() {
  local target="$1" dir="$corpus_root/$1"
  rm -rf "$dir/seeds"
  mkdir -p "$dir/corpus" "$dir/artifacts"
  local seeds=(python3 "$root/tests/fuzz/seeds.py" --clang "$llvm_bin/clang"
               --targets gfx90a,gfx942,gfx1100,gfx1201,gfx1250)
  case "$target" in
    asm | pipeline | statement-lexer | expression | expansion-lines) "${seeds[@]}" asm "$dir/seeds" ;;
    stir) "${seeds[@]}" --opt "$bin/stinkytofu-opt" stir "$dir/seeds" ;;
    funcmap | binary) "${seeds[@]}" --lld "$llvm_bin/ld.lld" funcmap "$dir/seeds" ;;
  esac
}

campaign() {
  local target="$1" dir="$corpus_root/$1"
  # The pipeline instruments what it reads: its inputs are kept smaller.
  local max_len=32768
  [ "$target" = asm ] || [ "$target" = stir ] || max_len=16384
  ls "$dir/artifacts" >"$dir/artifacts.before"
  nice -n 19 "$bin/$(binary "$target")" -fork=1 -ignore_crashes=1 -ignore_timeouts=1 \
    -ignore_ooms=1 -max_total_time="$duration" -timeout=30 -rss_limit_mb=2048 \
    -max_len="$max_len" -artifact_prefix="$dir/artifacts/" -print_final_stats=1 \
    "$dir/corpus" "$dir/seeds" >"$dir/log.txt" 2>&1 || true
}

# One line of the table; the last status line of a fork-mode run reads
# `#N: cov: C ft: F corp: K exec/s: E oom/timeout/crash: O/T/C time: S ...`.
report() {
  local target="$1" dir="$corpus_root/$1"
  local status execs seconds rate="" found
  status="$(grep -E '^#[0-9]+: cov:' "$dir/log.txt" | tail -n 1 || true)"
  execs="$(sed -nE 's/^#([0-9]+):.*/\1/p' <<<"$status")"
  # Over the whole campaign (fork mode's own exec/s is that of its last job).
  seconds="$(sed -nE 's/.* time: ([0-9]+)s.*/\1/p' <<<"$status")"
  [ -n "$execs" ] && [ "${seconds:-0}" -gt 0 ] && rate="$(awk "BEGIN {printf \"%.1f\", $execs / $seconds}")"
  found="$(ls "$dir/artifacts" | grep -vxF -f "$dir/artifacts.before" || true)"
  printf '%-9s %12s %8s %8s %6s %8s %5s %4s\n' "$target" "${execs:-?}" "${rate:-?}" \
    "$(ls "$dir/corpus" | wc -l)" \
    "$(grep -c '^crash-' <<<"$found" || true)" "$(grep -c '^timeout-' <<<"$found" || true)" \
    "$(grep -c '^leak-' <<<"$found" || true)" "$(grep -c '^oom-' <<<"$found" || true)"
  [ -z "$found" ] || sed "s|^|          $dir/artifacts/|" <<<"$found"
  [ -z "$found" ]
}

for t in "${targets[@]}"; do prepare "$t"; done
running=0
for t in "${targets[@]}"; do
  campaign "$t" &
  running=$((running + 1))
  if [ "$running" -ge "$jobs" ]; then
    wait -n
    running=$((running - 1))
  fi
done
wait

printf '%-9s %12s %8s %8s %6s %8s %5s %4s\n' target executions exec/s corpus crash timeout leak oom
status=0
for t in "${targets[@]}"; do report "$t" || status=1; done
exit "$status"
