#!/usr/bin/env bash
# One command on a fresh machine: install the dependencies, build, and run the
# main job on its default: the loop-level IR of the seed's listing shape
# (q, k, v [1, 4, 128, 64] f16, non-causal).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/scripts/setup.sh"
bash "$root/scripts/build.sh"
"${ATTNCC_BUILD_DIR:-$root/build}/tools/attncc/attncc" compile --ir loop
