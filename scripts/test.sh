#!/usr/bin/env bash
# The whole test suite from a fresh machine: install, build, run every tier
# that needs no GPU (Catch2 unit tests, lit/FileCheck, CPU semantics).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${ATTNCC_BUILD_DIR:-$root/build}
start=$(date +%s)
bash "$root/scripts/setup.sh"
bash "$root/scripts/build.sh"
built=$(date +%s)
echo "attncc: set-up and build took $((built - start)) s"
# Tests run in parallel (the CPU tier is four shards); each prints its time.
ctest --test-dir "$build" --output-on-failure -j "$(nproc)"
echo "attncc: tests took $(( $(date +%s) - built )) s"
