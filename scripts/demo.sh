#!/usr/bin/env bash
# The main job on the shipped example kernel (examples/saxpy_loop_gfx942.s,
# a loop with a call, barriers, LDS and global memory):
#   1. reads it into the IR and writes it back as assembly and as the textual
#      IR (.stir), checking that both round trips give the input back byte
#      for byte;
#   2. instruments it with SQTT markers (function entry/exit, barriers,
#      memory groups, default CU scope check) after long-branch and call
#      target recovery, with the instrumentation verifier on;
#   3. assembles and links the result (llvm-mc, ld.lld) and prints the
#      `.sqtt_funcmap` the code object carries, as decoders will read it.
# Outputs go to build/demo/. Builds only the two tools it runs (the tests
# are built by scripts/test.sh).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/build.sh" stinkytofu-opt sqtt-funcmap

bin="$root/build/bin"
llvm_bin="$(llvm-config-22 --bindir 2>/dev/null || echo /usr/lib/llvm-22/bin)"
input="$root/examples/saxpy_loop_gfx942.s"
out="$root/build/demo"
mkdir -p "$out"
name="$(basename "$input" .s)"
rel() { echo "${1#"$root"/}"; }

echo
echo "== 1. round trips of examples/$(basename "$input")"
"$bin/stinkytofu-opt" "$input" -o "$out/$name.s"
"$bin/stinkytofu-opt" "$input" --print-output -o "$out/$name.stir"
"$bin/stinkytofu-opt" --arch gfx942 "$out/$name.stir" --emit-asm -o "$out/$name.stir.s"
status=0
check() {
  if cmp -s "$input" "$2"; then
    echo "  $1: byte-identical"
  else
    echo "  $1: DIFFERS ($(cmp "$input" "$2" 2>&1 | head -1))"
    status=1
  fi
}
check ".s -> IR -> .s   " "$out/$name.s"
check ".s -> .stir -> .s" "$out/$name.stir.s"
stir="$out/$name.stir"
echo "  read $(wc -l < "$input") lines: $(grep -c '^  st\.func ' "$stir") functions," \
  "$(grep -c '^  \^' "$stir") basic blocks, $(grep -c '"st\.' "$stir") instructions"

echo
echo "== 2. SQTT instrumentation (functions, barriers, memory=4:8, CU scope check)"
sqtt="$out/$name.sqtt.s"
"$bin/stinkytofu-opt" "$input" --LongBranchLoweringPass --CallTargetRecoveryPass \
  --SQTTInstrumentPass=functions=10,barriers,memory=4:8 --verify-instrumentation \
  --funcmap-in-asm --funcmap-out="$out/$name.funcmap" --stats-file="$out/$name.stats" \
  -o "$sqtt" 2> "$out/$name.sqtt.log" || { cat "$out/$name.sqtt.log" >&2; exit 1; }
grep -E '^((kernel|function) [^ ]+|total):' "$out/$name.stats" | sed 's/^/  /'
refused="$(grep -c 'not inserted' "$out/$name.sqtt.log" || true)"
[ "$refused" = 0 ] || echo "  $refused marker(s) refused where no register was free (see $(rel "$out/$name.sqtt.log"))"
echo "  verifier: every register the inserted code writes is dead or restored;"
echo "            removing it gives back the input"
echo "  first inserted marker (diff against the input):"
{ diff "$input" "$sqtt" || true; } | awk '/^[0-9]/{n++} n==1' | sed 's/^/    /'

echo
echo "== 3. assemble, link, read the funcmap back from the code object"
"$llvm_bin/llvm-mc" -triple=amdgcn-amd-amdhsa -mcpu=gfx942 -filetype=obj "$sqtt" -o "$out/$name.sqtt.o"
"$llvm_bin/ld.lld" -shared "$out/$name.sqtt.o" -o "$out/$name.sqtt.co"
echo "  funcmap text ($(rel "$out/$name.funcmap")):"
sed 's/^/    /' "$out/$name.funcmap"
echo "  sqtt-funcmap dump $(rel "$out/$name.sqtt.co"):"
"$bin/sqtt-funcmap" dump "$out/$name.sqtt.co" | sed 's/^/    /'

echo
echo "wrote: $(rel "$out")/{$name.s, $name.stir, $name.sqtt.s, $name.funcmap, $name.sqtt.co}"
exit $status
