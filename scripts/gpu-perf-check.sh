#!/usr/bin/env bash
# On the GPU host: the seed perf bundle at its full size, checked against the
# float64 reference (all cores) and timed. Needs build-deps/ and build-bundles/.
set -uo pipefail
out=${OUT:-$PWD/gpu-out}
mkdir -p "$out"
gen=; command -v ninja >/dev/null && gen="-G Ninja"
cmake -S . -B /tmp/attncc-gpu $gen -DATTNCC_ENABLE_MLIR=OFF -DATTNCC_BUILD_TESTS=OFF \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$PWD/build-deps" \
  -DCMAKE_POLICY_VERSION_MINIMUM=3.5 > "$out/cmake.log" 2>&1 || { tail -20 "$out/cmake.log"; exit 1; }
cmake --build /tmp/attncc-gpu -j "$(nproc)" --target attncc-runner > "$out/build.log" 2>&1 \
  || { tail -30 "$out/build.log"; exit 1; }
export ATTNCC_CACHE_DIR=/tmp/attncc-cache
time /tmp/attncc-gpu/tools/attncc-runner/attncc-runner --bench 20 --json "$out/perf-checked.jsonl" \
  build-bundles/seed-perf-sym
