#!/bin/sh
# For each target: the kernel of DIR/head.s + DIR/<family>.s assembled, its
# words written as `.long` lines (words.py), read and written back
# byte-identical (also through `.stir`), with the --stats of the mnemonics.
# Usage: long-words.sh DIR STINKYTOFU_OPT LLVM_MC LLVM_OBJDUMP PYTHON CPU...
set -e
dir=$1 opt=$2 mc=$3 objdump=$4 python=$5
shift 5
here=$(dirname "$0")
for cpu in "$@"; do
  case $cpu in gfx9*) body=gfx9 ;; gfx11*) body=gfx11 ;; *) body=gfx12 ;; esac
  sed "s/CPU/$cpu/" "$dir/head.s" > "$dir/$cpu.head.s"
  cat "$dir/$cpu.head.s" "$dir/$body.s" > "$dir/$cpu.s"
  "$mc" -triple=amdgcn-amd-amdhsa -mcpu=$cpu -filetype=obj "$dir/$cpu.s" -o "$dir/$cpu.o"
  { cat "$dir/$cpu.head.s"; "$objdump" -d "$dir/$cpu.o" | "$python" "$here/words.py"; } \
    > "$dir/$cpu.words.s"
  "$opt" "$dir/$cpu.words.s" -o "$dir/$cpu.out.s"
  cmp "$dir/$cpu.words.s" "$dir/$cpu.out.s"
  "$opt" "$dir/$cpu.s" --stats -o /dev/null 2> "$dir/$cpu.stats"
  "$opt" "$dir/$cpu.words.s" --stats -o /dev/null 2> "$dir/$cpu.words.stats"
  diff "$dir/$cpu.stats" "$dir/$cpu.words.stats"
  "$opt" "$dir/$cpu.words.s" --print-output -o "$dir/$cpu.stir"
  "$opt" "$dir/$cpu.stir" --arch $cpu --emit-asm -o "$dir/$cpu.back.s"
  cmp "$dir/$cpu.words.s" "$dir/$cpu.back.s"
  echo "$cpu ok"
done
