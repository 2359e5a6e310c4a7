#!/usr/bin/env bash
# Sourced by the gpu-*.sh scripts on the GPU host: builds attncc-runner from
# runtime/ alone (no MLIR) into /tmp/attncc-gpu and sets R to its path and
# out to the output folder, and defines names LIST (the bundle names of a
# bench list). Needs build-deps/ (scripts/gpu-deps.sh).
out=${OUT:-$PWD/gpu-out}
mkdir -p "$out"
gen=; command -v ninja >/dev/null && gen="-G Ninja"
cmake -S . -B /tmp/attncc-gpu $gen -DATTNCC_ENABLE_MLIR=OFF -DATTNCC_BUILD_TESTS=OFF \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$PWD/build-deps" \
  -DCMAKE_POLICY_VERSION_MINIMUM=3.5 > /tmp/attncc-cmake.log 2>&1 || { tail -20 /tmp/attncc-cmake.log; exit 1; }
cmake --build /tmp/attncc-gpu -j "$(nproc)" --target attncc-runner > /tmp/attncc-build.log 2>&1 \
  || { tail -30 /tmp/attncc-build.log; exit 1; }
export ATTNCC_CACHE_DIR=/tmp/attncc-cache
R=/tmp/attncc-gpu/tools/attncc-runner/attncc-runner
names() { grep -v '^#' "$1" | cut -d'|' -f1 | tr -d ' ' | sed '/^$/d'; }
