#!/usr/bin/env bash
# Round-trips every assembly file under a directory through stinkytofu-opt:
#   .s -> .s,   .s -> .stir -> .s,   .stir -> .stir
# and prints `N/M identical`, with the first differing line (both sides) of
# each file that does not come back byte for byte.
#
# Usage: bench/corpus-check.sh [--opt PATH] [DIR]
#   DIR     defaults to $STINKYTOFU_CORPUS; when neither is given the check is
#           skipped (exit 77, which ctest reports as skipped).
#   --opt   the stinkytofu-opt binary (default: $STINKYTOFU_OPT, else
#           build/bin/stinkytofu-opt of this checkout).
# Files: *.s and *.s.txt at any depth. Each is read with the processor of its
# `.amdgcn_target` directive (gfx942 when it has none); the .stir steps get
# that processor through --arch.
# Exit status: 0 when every file is identical, 1 otherwise, 2 on bad usage.
set -uo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
opt="${STINKYTOFU_OPT:-$root/build/bin/stinkytofu-opt}"
dir=""
while [ $# -gt 0 ]; do
  case "$1" in
    --opt) opt="$2"; shift 2 ;;
    --opt=*) opt="${1#--opt=}"; shift ;;
    -h|--help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "corpus-check: unknown option $1" >&2; exit 2 ;;
    *) dir="$1"; shift ;;
  esac
done
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

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# The processor named by the first .amdgcn_target directive, or gfx942.
arch_of() {
  local id
  id="$(grep -m1 -oE '^[[:space:]]*\.amdgcn_target[[:space:]]+"[^"]*"' "$1" | sed -E 's/.*"(.*)"/\1/')"
  id="${id##*--}"
  id="${id%%:*}"
  echo "${id:-gfx942}"
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

total=0
identical=0
failures=()
while IFS= read -r -d '' file; do
  total=$((total + 1))
  arch="$(arch_of "$file")"
  t="$work/$total"
  mkdir -p "$t"
  rel="${file#"$dir"/}"
  report=""
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
  if [ -z "$report" ]; then
    identical=$((identical + 1))
  else
    failures+=("$rel ($arch)"$'\n'"$report")
  fi
  rm -rf "$t"
done < <(find "$dir" -type f \( -name '*.s' -o -name '*.s.txt' \) -print0 | sort -z)

for f in "${failures[@]+"${failures[@]}"}"; do
  echo "FAIL $f"
done
echo "$identical/$total identical"
[ "$identical" -eq "$total" ]
