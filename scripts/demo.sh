#!/usr/bin/env bash
# Sets up the machine and builds (scripts/build.sh), then runs stinkytofu-opt
# on the shipped example kernel (examples/saxpy_loop_gfx942.s): reads it into
# the IR, writes it back as assembly and as the textual IR (.stir), checks
# that both round trips give the input back byte for byte, and prints what it
# did. Outputs go to build/demo/.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/build.sh"

opt="$root/build/bin/stinkytofu-opt"
input="$root/examples/saxpy_loop_gfx942.s"
out="$root/build/demo"
mkdir -p "$out"
name="$(basename "$input" .s)"

echo
echo "== stinkytofu-opt on examples/$(basename "$input")"
"$opt" "$input" -o "$out/$name.s"
"$opt" "$input" --print-output -o "$out/$name.stir"
"$opt" --arch gfx942 "$out/$name.stir" --emit-asm -o "$out/$name.stir.s"

status=0
check() {
  if cmp -s "$input" "$2"; then
    echo "  $1: byte-identical"
  else
    echo "  $1: DIFFERS ($(cmp "$input" "$2" 2>&1 | head -1))"
    status=1
  fi
}
echo "round trips:"
check ".s -> IR -> .s        " "$out/$name.s"
check ".s -> .stir -> .s     " "$out/$name.stir.s"

stir="$out/$name.stir"
echo "read:"
echo "  $(wc -l < "$input") lines of gfx942 assembly"
echo "  $(grep -c '^  st\.func ' "$stir") functions, $(grep -c '^  \^' "$stir") basic blocks, $(grep -c '"st\.' "$stir") instructions"
echo "  $(grep -c '"st\.s_swappc_b64"' "$stir") calls (s_swappc_b64), $(grep -c '"st\.s_setpc_b64"' "$stir") s_setpc_b64 (long branches and returns), $(grep -c '"st\.s_barrier"' "$stir") barriers"
echo "wrote:"
echo "  ${out#"$root"/}/$name.s      (the assembly written back)"
echo "  ${out#"$root"/}/$name.stir   (the textual IR; try: less ${out#"$root"/}/$name.stir)"
exit $status
