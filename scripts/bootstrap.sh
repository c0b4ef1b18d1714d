#!/usr/bin/env bash
# Installs exactly the Debian 12 packages StinkyTofu builds and tests with.
# Idempotent: returns at once when everything is already installed.
set -euo pipefail
packages=(
  cmake ninja-build ccache python3 python3-dev
  llvm-22-dev llvm-22-tools clang-22 clang-tools-22 lld-22 libclang-rt-22-dev
  libabsl-dev libgtest-dev libbenchmark-dev pybind11-dev python3-pytest libsimdjson-dev
  libmimalloc-dev
  graphviz chromium
  rocm-device-libs git
  linux-headers-amd64 make gcc
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
echo "bootstrap: installing ${missing[*]}" >&2
sudo_cmd=()
[ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
