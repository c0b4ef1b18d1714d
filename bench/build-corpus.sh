#!/usr/bin/env bash
# Builds the broad corpus: public OpenCL benchmark suites compiled by clang-22
# for the 11 targets in six variants, into corpus-broad/ (git-ignored).
#
# Usage: bench/build-corpus.sh [--mirror DIR] [--out DIR] [--suites LIST]
#          [--variants LIST] [--targets LIST] [-j N] [--clang PATH] [--refresh]
#   --mirror DIR  take the suites from bare git mirrors DIR/owner+name/repo
#                 (the source files of HEAD) instead of `git clone --depth 1` from GitHub
#   --out DIR     default corpus-broad/ of this checkout
#   --suites      polybench,rodinia,shoc,parboil (default: all)
#   --variants    O0,O2,O0-devlib,O2-devlib,O0-longbr,O2-longbr (default: all)
#                 -devlib: Debian's rocm-device-libs linked in (gfx900, gfx906,
#                 gfx908, gfx90a and gfx1030 only: the package has bitcode for
#                 no other target); -longbr: -mllvm -amdgpu-s-branch-bits=5
#   --targets     default: the 11 targets
#   -j N          parallel compiles (default: nproc)
#   --refresh     fetch the suites again (default: reuse OUT/sources/)
# Files already compiled (newer than their source) are kept: a second run only
# compiles what is missing. A file that does not compile is counted for its
# suite and listed with clang's first error in OUT/build-failures.txt.
# Needs: git, tar, python3, clang-22, rocm-device-libs (Debian packages).
exec python3 "$(dirname "$0")/build_corpus.py" "$@"
