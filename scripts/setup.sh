#!/usr/bin/env bash
# Installs everything attncc needs on a fresh Debian 12 machine of this kind (run as root).
# The CUDA toolkit (/usr/local/cuda) is expected to be present already.
set -euo pipefail
# g++ and python3 (lit) are listed too: a minimal Debian 12 has neither
# (scripts/fresh-root-check.sh proves the list on one).
pkgs=(g++ python3 libmlir-22-dev mlir-22-tools llvm-22-dev llvm-22-tools libfmt-dev libcli11-dev
      nlohmann-json3-dev catch2 ninja-build cmake zlib1g-dev libzstd-dev libedit-dev libxml2-dev
      libcurl4-openssl-dev clang-14 libclang-rt-14-dev)
missing=()
for p in "${pkgs[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
if ! [ -x /usr/local/cuda/bin/nvcc ] && ! [ -f /usr/local/cuda/include/nvrtc.h ]; then
  echo "setup: the CUDA toolkit was not found at /usr/local/cuda (NVRTC is needed)" >&2
  exit 1
fi
