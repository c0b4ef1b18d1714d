#!/usr/bin/env bash
# Checks stinkytofu-opt on every assembly file under a directory.
#
# Default mode, round trips:  .s -> .s,   .s -> .stir -> .s,   .stir -> .stir
#   prints `N/M identical`, with the first differing line (both sides) of each
#   file that does not come back byte for byte.
#   Then, over the identical files, the CFG after --LongBranchLoweringPass
#   --CallTargetRecoveryPass: `CFG: R/L long branches resolved, K/C calls with
#   a known callee, U unreachable blocks`, and a `CFG file: ...` line for each
#   file where one is missing (not a failure).
# --instrument: SQTT instrumentation
#   stinkytofu-opt F --LongBranchLoweringPass --CallTargetRecoveryPass
#     --SQTTInstrumentPass=functions=10,barriers,memory=4:8,verify
#   (default scope), then llvm-mc assembles the original and the output for the
#   file's target, and the output's disassembly with the inserted instructions
#   taken out must be the original's (tests/lit/sqtt/Inputs/compare-disassembly.py).
#   Also prints the markers refused (the --stats total), per target.
# --end-to-end: --instrument, then the one-shot route of the same pipeline,
#   `--emit-obj --link`, must give the bytes of llvm-mc + ld.lld -shared +
#   sqtt-funcmap patch, and `sqtt-funcmap dump` must give every K:/F: row the
#   address llvm-nm gives its symbol (tests/lit/funcmap/Inputs/helper.py vaddrs).
# These two modes print `N/M ok` and the first failure of each file.
# --full: the parallel check of a broad corpus (bench/corpus_check.py): round
#   trips; SQTT instrumentation with functions=1 and `verify`, assembled and
#   compared as above, refusals counted; -O3, assembled, with no wait or
#   hazard finding (--verify-waitcnt --verify-hazards) the input does not
#   have; the input's own findings (counted, not failures). Prints ok/total
#   per check for each variant and target (DIR/<variant>/<target>/..., the
#   layout of bench/build-corpus.sh) and the failure classes, each with its
#   first error lines, its count per variant/target and a command that
#   reproduces it. Takes -j N (default: nproc), --checks LIST (roundtrip,
#   instrument,o3,input), --match REGEX (files whose path under DIR matches),
#   --failures FILE (every failing file's first lines), --results FILE (each
#   file's results as it is checked; --summarize FILE prints their tables
#   while the run goes on) and several DIRs.
#
# Usage: bench/corpus-check.sh [--instrument | --end-to-end] [--opt PATH]
#                              [--funcmap-tool PATH] [DIR]
#        bench/corpus-check.sh --full [-j N] [--checks LIST] [--match REGEX]
#                              [--failures FILE] [--results FILE] [--opt PATH] [DIR ...]
#        bench/corpus-check.sh --full --summarize FILE
#   DIR     defaults to $STINKYTOFU_CORPUS; when neither is given the check is
#           skipped (exit 77, which ctest reports as skipped).
#   --opt   the stinkytofu-opt binary (default: $STINKYTOFU_OPT, else
#           build/bin/stinkytofu-opt of this checkout).
#   --funcmap-tool  the sqtt-funcmap binary (default: next to stinkytofu-opt).
# Files: *.s and *.s.txt at any depth. Each is read with the processor of its
# `.amdgcn_target` directive (gfx942 when it has none); the .stir steps get
# that processor through --arch, llvm-mc gets it as -mcpu and the target id's
# features (xnack+, sramecc-) as -mattr. LLVM tools come from $LLVM_TOOLS_DIR
# (default /usr/lib/llvm-22/bin).
# Exit status: 0 when every file passes, 1 otherwise, 2 on bad usage.
set -uo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
for arg in "$@"; do
  if [ "$arg" = --full ]; then
    args=()
    for arg in "$@"; do [ "$arg" = --full ] || args+=("$arg"); done
    dirs=0
    for arg in "${args[@]}"; do [ -d "$arg" ] || [ "$arg" = --summarize ] && dirs=1; done
    if [ "$dirs" = 0 ]; then
      if [ -z "${STINKYTOFU_CORPUS:-}" ]; then
        echo "corpus-check: no directory given and STINKYTOFU_CORPUS is not set: skipped"
        exit 77
      fi
      args+=("$STINKYTOFU_CORPUS")
    fi
    exec python3 "$root/bench/corpus_check.py" "${args[@]}"
  fi
done
opt="${STINKYTOFU_OPT:-$root/build/bin/stinkytofu-opt}"
funcmap_tool=""
llvm="${LLVM_TOOLS_DIR:-/usr/lib/llvm-22/bin}"
mode=roundtrip
dir=""
while [ $# -gt 0 ]; do
  case "$1" in
    --instrument) mode=instrument; shift ;;
    --end-to-end) mode=end-to-end; shift ;;
    --opt) opt="$2"; shift 2 ;;
    --opt=*) opt="${1#--opt=}"; shift ;;
    --funcmap-tool) funcmap_tool="$2"; shift 2 ;;
    --funcmap-tool=*) funcmap_tool="${1#--funcmap-tool=}"; shift ;;
    -h|--help) sed -n '2,52p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "corpus-check: unknown option $1" >&2; exit 2 ;;
    *) dir="$1"; shift ;;
  esac
done
funcmap_tool="${funcmap_tool:-$(dirname "$opt")/sqtt-funcmap}"
dir="${dir:-${STINKYTOFU_CORPUS:-}}"
if [ -z "$dir" ]; then
  echo "corpus-check: no directory given and STINKYTOFU_CORPUS is not set: skipped"
  exit 77
fi
if [ ! -d "$dir" ]; then
  echo "corpus-check: $dir is not a directory" >&2
  exit 2
fi
if [ ! -x "$opt" ]; then
  echo "corpus-check: $opt not found (build first: scripts/build.sh)" >&2
  exit 2
fi
if [ "$mode" != roundtrip ]; then
  for tool in llvm-mc llvm-objdump; do
    [ -x "$llvm/$tool" ] || { echo "corpus-check: $llvm/$tool not found (set LLVM_TOOLS_DIR)" >&2; exit 2; }
  done
fi
if [ "$mode" = end-to-end ]; then
  for tool in "$llvm/ld.lld" "$llvm/llvm-nm" "$funcmap_tool"; do
    [ -x "$tool" ] || { echo "corpus-check: $tool not found" >&2; exit 2; }
  done
fi
# compare-disassembly.py runs llvm-objdump from PATH.
export PATH="$llvm:$PATH"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# The target id of the first .amdgcn_target directive ("gfx90a:xnack-"), or gfx942.
target_id_of() {
  local id
  id="$(grep -m1 -oE '^[[:space:]]*\.amdgcn_target[[:space:]]+"[^"]*"' "$1" | sed -E 's/.*"(.*)"/\1/')"
  id="${id##*--}"
  echo "${id:-gfx942}"
}
# llvm-mc's -mcpu and -mattr for a target id: gfx90a:xnack-:sramecc+ ->
# -mcpu=gfx90a -mattr=-xnack,+sramecc.
mc_target_flags() {
  local id="$1" feature attrs=""
  echo "-mcpu=${id%%:*}"
  for feature in $(tr ':' ' ' <<<"${id#"${id%%:*}"}"); do
    attrs="${attrs:+$attrs,}${feature: -1}${feature%?}"
  done
  [ -z "$attrs" ] || echo "-mattr=$attrs"
}

# Prints the first line where $1 and $2 differ, both sides (cat -A style:
# `$` marks the end of a line, ^I a tab, ^M a carriage return).
show_line() {
  if [ "$(sed -n "${2}{p;q}" "$1" | wc -c)" -eq 0 ]; then
    echo "<end of file>"
  else
    head -n "$2" "$1" | tail -n 1 | cat -A | cut -c1-200
  fi
}
first_difference() {
  local expected="$1" actual="$2" out line
  out="$(cmp "$expected" "$actual" 2>&1)"
  line="$(grep -oE 'line [0-9]+' <<<"$out" | head -1 | cut -d' ' -f2)"
  # "EOF on X after byte B, line L": the shorter file ended in line L; when
  # that line is complete the first difference is the next one.
  if grep -q 'EOF' <<<"$out"; then
    local shorter="$expected"
    [ "$(wc -c < "$actual")" -lt "$(wc -c < "$expected")" ] && shorter="$actual"
    if [ ! -s "$shorter" ] || [ "$(tail -c1 "$shorter" | od -An -c | tr -d ' ')" = '\n' ]; then
      line=$(( ${line:-0} + 1 ))
    fi
    [ -s "$shorter" ] || line=1
  fi
  printf '    line %s\n' "$line"
  printf '    expected: %s\n' "$(show_line "$expected" "$line")"
  printf '    actual:   %s\n' "$(show_line "$actual" "$line")"
}

# Each check_* runs one file ($1) in the scratch directory $2 with processor
# $3 and target id $4, and sets `report` to its first failure (empty: passed).
report=""

check_roundtrip() {
  local file="$1" t="$2" arch="$3"
  # 1. .s -> .s
  if ! "$opt" "$file" -o "$t/rt.s" 2>"$t/err"; then
    report="  .s -> .s failed: $(head -3 "$t/err")"
  elif ! cmp -s "$file" "$t/rt.s"; then
    report="  .s -> .s differs:"$'\n'"$(first_difference "$file" "$t/rt.s")"
  # 2. .s -> .stir -> .s
  elif ! "$opt" "$file" --print-output -o "$t/a.stir" 2>"$t/err" ||
       ! "$opt" --arch "$arch" "$t/a.stir" --emit-asm -o "$t/stir.s" 2>"$t/err"; then
    report="  .s -> .stir -> .s failed: $(head -3 "$t/err")"
  elif ! cmp -s "$file" "$t/stir.s"; then
    report="  .s -> .stir -> .s differs:"$'\n'"$(first_difference "$file" "$t/stir.s")"
  # 3. .stir -> .stir
  elif ! "$opt" --arch "$arch" "$t/a.stir" -o "$t/b.stir" 2>"$t/err"; then
    report="  .stir -> .stir failed: $(head -3 "$t/err")"
  elif ! cmp -s "$t/a.stir" "$t/b.stir"; then
    report="  .stir -> .stir differs:"$'\n'"$(first_difference "$t/a.stir" "$t/b.stir")"
  fi
}

# Round-trip mode also builds the CFG of each identical file and adds up the
# <total> row of --stats; files with an unresolved long branch, a call
# without a known callee or an unreachable block are listed (not failures).
cfg_totals=(0 0 0 0 0) # long branches, resolved, calls, known callee, unreachable
cfg_notes=()
cfg_stats() {
  local file="$1" t="$2" rel="$3" row
  if ! "$opt" "$file" --LongBranchLoweringPass --CallTargetRecoveryPass --passes=CFGBuilder \
       --stats-file="$t/stats" -o /dev/null 2>"$t/err"; then
    report="  CFG pipeline failed: $(head -3 "$t/err")"
    return
  fi
  read -r -a row < <(sed -n 's/^<total> *//p' "$t/stats")
  local i
  for i in 0 1 2 3 4; do cfg_totals[i]=$((cfg_totals[i] + row[i + 2])); done
  if [ "${row[2]}" -ne "${row[3]}" ] || [ "${row[4]}" -ne "${row[5]}" ] || [ "${row[6]}" -ne 0 ]; then
    cfg_notes+=("$rel: ${row[3]}/${row[2]} long branches resolved, ${row[5]}/${row[4]} calls with a known callee, ${row[6]} unreachable blocks")
  fi
}

pipeline=(--LongBranchLoweringPass --CallTargetRecoveryPass
          --SQTTInstrumentPass=functions=10,barriers,memory=4:8,verify)
inserted=0         # instructions the last check_instrument saw inserted
inserted_total=0   # over the passing files
nothing_inserted=0 # passing files that got nothing
declare -A refused_of # target -> markers refused (--stats), over the instrumented files

check_instrument() {
  local file="$1" t="$2" id="$4" mc_flags
  mapfile -t mc_flags < <(mc_target_flags "$id")
  local mc=("$llvm/llvm-mc" -triple=amdgcn-amd-amdhsa "${mc_flags[@]}" -filetype=obj)
  if ! "$opt" "$file" "${pipeline[@]}" --stats-file="$t/stats" -o "$t/k.s" 2>"$t/err"; then
    report="  instrumenting failed: $(head -3 "$t/err")"
  elif ! "${mc[@]}" "$file" -o "$t/orig.o" 2>"$t/err"; then
    report="  llvm-mc rejects the original: $(head -3 "$t/err")"
  elif ! "${mc[@]}" "$t/k.s" -o "$t/k.o" 2>"$t/err"; then
    report="  llvm-mc rejects the instrumented assembly: $(head -3 "$t/err")"
  elif ! python3 "$root/tests/lit/sqtt/Inputs/compare-disassembly.py" "$t/orig.o" "$t/k.o" \
         >"$t/cmp" 2>&1; then
    report="  disassembly: $(head -3 "$t/cmp")"
  else
    inserted="$(sed -nE 's/^OK: [0-9]+ original, ([0-9]+) inserted$/\1/p' "$t/cmp")"
  fi
  local n
  n="$(sed -nE 's/^total: .* refused ([0-9]+),.*/\1/p' "$t/stats" 2>/dev/null)"
  refused_of[$3]=$(( ${refused_of[$3]:-0} + ${n:-0} ))
}

check_end_to_end() {
  local file="$1" t="$2"
  check_instrument "$@"
  [ -z "$report" ] || return
  local sqtt="${pipeline[-1]}"
  # The manual route: the output above, linked, its funcmap patched in.
  if ! "$opt" "$file" "${pipeline[@]:0:${#pipeline[@]}-1}" "$sqtt,funcmap-out=$t/k.map" \
       --emit-obj --link -o "$t/k.co" 2>"$t/err"; then
    report="  --emit-obj --link failed: $(head -3 "$t/err")"
  elif ! "$llvm/ld.lld" -shared "$t/k.o" -o "$t/lld.co" 2>"$t/err"; then
    report="  ld.lld fails on llvm-mc's object: $(head -3 "$t/err")"
  elif [ -s "$t/k.map" ] &&
       ! "$funcmap_tool" patch "$t/lld.co" --funcmap "$t/k.map" -o "$t/lld.co" 2>"$t/err"; then
    report="  sqtt-funcmap patch failed: $(head -3 "$t/err")"
  elif ! cmp -s "$t/k.co" "$t/lld.co"; then
    report="  --emit-obj --link differs from llvm-mc + ld.lld + sqtt-funcmap patch: $(cmp "$t/k.co" "$t/lld.co")"
  elif ! "$funcmap_tool" dump "$t/k.co" >"$t/dump" 2>"$t/err"; then
    report="  sqtt-funcmap dump failed: $(head -3 "$t/err")"
  elif ! "$llvm/llvm-nm" --defined-only "$t/k.co" >"$t/nm" 2>"$t/err"; then
    report="  llvm-nm failed: $(head -3 "$t/err")"
  elif ! python3 "$root/tests/lit/funcmap/Inputs/helper.py" vaddrs "$t/nm" "$t/dump" \
         >"$t/vaddrs" 2>&1; then
    report="  funcmap rows: $(head -3 "$t/vaddrs")"
  elif ! grep -q ', 0 without one$' "$t/vaddrs"; then
    report="  funcmap rows without a vaddr: $(cat "$t/vaddrs")"
  fi
}

total=0
passed=0
failures=()
while IFS= read -r -d '' file; do
  total=$((total + 1))
  id="$(target_id_of "$file")"
  arch="${id%%:*}"
  t="$work/$total"
  mkdir -p "$t"
  rel="${file#"$dir"/}"
  report=""
  inserted=0
  "check_${mode//-/_}" "$file" "$t" "$arch" "$id"
  [ "$mode" != roundtrip ] || [ -n "$report" ] || cfg_stats "$file" "$t" "$rel"
  if [ -z "$report" ]; then
    passed=$((passed + 1))
    inserted_total=$((inserted_total + ${inserted:-0}))
    [ "${inserted:-0}" -ne 0 ] || nothing_inserted=$((nothing_inserted + 1))
  else
    failures+=("$rel ($id)"$'\n'"$report")
  fi
  rm -rf "$t"
done < <(find "$dir" -type f \( -name '*.s' -o -name '*.s.txt' \) -print0 | sort -z)

for f in "${failures[@]+"${failures[@]}"}"; do
  echo "FAIL $f"
done
if [ "$mode" = roundtrip ]; then
  for n in "${cfg_notes[@]+"${cfg_notes[@]}"}"; do
    echo "CFG $n"
  done
  echo "$passed/$total identical"
  echo "CFG: ${cfg_totals[1]}/${cfg_totals[0]} long branches resolved," \
       "${cfg_totals[3]}/${cfg_totals[2]} calls with a known callee," \
       "${cfg_totals[4]} unreachable blocks"
else
  echo "$passed/$total ok ($mode); in those: $inserted_total instructions inserted," \
       "$nothing_inserted files got none"
  line=""
  for arch in $(printf '%s\n' "${!refused_of[@]}" | sort); do
    line="${line:+$line, }$arch ${refused_of[$arch]}"
  done
  echo "markers refused per target: ${line:-none instrumented}"
fi
[ "$passed" -eq "$total" ]
