#!/usr/bin/env bash
# On the GPU host: the sweep bundles checked against the fp32 GPU reference
# (instead of float64 on the CPU), a negative control that both references
# must reject, and the perf bundle at full size against the GPU reference.
set -uo pipefail
source "$(dirname "$0")/gpu-build-runner.sh"
attn=$(grep -v '^#' bench/sweep-scalar.txt | grep -v -- '--kind' | cut -d'|' -f1 | tr -d ' ' | sed '/^$/d' | sed 's|^|build-bundles/|')
echo "== sweep against the fp32 GPU reference"
# shellcheck disable=SC2086
$R --gpu-reference --json "$out/gpuref.jsonl" $attn | tail -1
echo "== control (causal kernel, non-causal problem): must fail with both references"
$R build-bundles/control-causal | head -1
$R --gpu-reference build-bundles/control-causal | head -1
echo "== perf bundle at full size, fp32 GPU reference and float64 CPU reference"
$R --gpu-reference build-bundles/seed-perf-sym | head -1
$R build-bundles/seed-perf-sym | head -1
tar czf "$out/gpu-out.tgz" -C "$out" --exclude gpu-out.tgz . 2>/dev/null
