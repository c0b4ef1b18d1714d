#!/usr/bin/env bash
# Times the full SQTT instrumentation pipeline (long branches, call
# recovery, functions, barriers, memory, verify) against
# `llvm-mc -filetype=obj` on the same file, side by side (bench-identity.sh
# --opt-args), on generated Tensile-style kernels with 10, 100 and 1000
# activation calls (gen-activation-kernel.py), and on the DGEMM of
# corpus-local/ when it is there. The ratio should stay within 1.5 and the
# time grow linearly with the calls.
#
# Usage: bench/instrument-bench.sh [-n N] [--callgrind] [--opt PATH] [--no-verify] [FILE ...]
#   --no-verify: the tool's --no-verify: the instrumentation alone, without
#         its insertion verifier and without the hazard repair and the wait
#         and hazard verifiers that end its pipeline (all on by default), to
#         measure what the proof costs
#   FILE: more kernels to time (default: the DGEMM of corpus-local/, if any)
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
args=()
files=()
verify=(verify)
while [ $# -gt 0 ]; do
  case "$1" in
    -n|--opt) args+=("$1" "$2"); shift 2 ;;
    --no-verify) verify=(verify=0 --no-verify); shift ;;
    -*) args+=("$1"); shift ;;
    *) files+=("$1"); shift ;;
  esac
done
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
for calls in 10 100 1000; do
  python3 "$root/bench/gen-activation-kernel.py" "$calls" > "$work/activation-$calls.s"
done
if [ ${#files[@]} -eq 0 ]; then
  for f in "$root"/corpus-local/DGEMM*.s; do
    [ -f "$f" ] && files+=("$f")
  done
fi
exec "$root/bench/bench-identity.sh" "${args[@]+"${args[@]}"}" \
  --opt-args "--LongBranchLoweringPass --CallTargetRecoveryPass --SQTTInstrumentPass=functions=1,barriers,memory=4:8,${verify[*]}" \
  "$work"/activation-{10,100,1000}.s "${files[@]+"${files[@]}"}"
