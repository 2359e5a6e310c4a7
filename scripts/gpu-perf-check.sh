#!/usr/bin/env bash
# On the GPU host: the seed perf bundle at its full size, checked against the
# float64 reference (all cores) and timed. Needs build-deps/ and build-bundles/.
set -uo pipefail
source "$(dirname "$0")/gpu-build-runner.sh"
time $R --bench 20 --json "$out/perf-checked.jsonl" \
  build-bundles/seed-perf-sym
