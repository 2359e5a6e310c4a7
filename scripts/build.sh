#!/usr/bin/env bash
# Configures and builds attncc into ./build (Release, Ninja). Idempotent.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${ATTNCC_BUILD_DIR:-$root/build}
if [ ! -f "$build/build.ninja" ]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release
fi
cmake --build "$build" -j "$(nproc)"
