#!/usr/bin/env bash
# Runs on the GPU host (see gpu-check.sh for what must be carried along).
# Issue 4, all in one device call:
#   1. the tensor-core correctness sweep (bench/sweep-tc.txt);
#   2. the ladder (bench/ladder.txt): checked at [1,8,1024,64], timed at 4096;
#   3. the speed shapes (bench/perf-tc.txt): N=4096 bundles checked at full
#      size, all timed; PyTorch's backends timed on each shape (anchors.py);
#   4. memcheck and racecheck on ring (d2) kernels.
# Writes JSON lines to $OUT and a table (scripts/tc-table.py) last.
set -uo pipefail
source "$(dirname "$0")/gpu-build-runner.sh"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > "$out/gpu.txt" 2>&1
names() { grep -v '^#' "$1" | cut -d'|' -f1 | tr -d ' ' | sed '/^$/d'; }
B=${BENCH:-20}

echo "== 1. sweep"
# shellcheck disable=SC2046
$R --json "$out/sweep.jsonl" $(names bench/sweep-tc.txt | grep -v sym | sed 's|^|build-bundles/|') | tail -1
for b in tc-sym tc-ring-sym; do
  $R --json "$out/sweep.jsonl" --set batch=2 --set seq_q=300 --set seq_k=77 build-bundles/$b | tail -1
  $R --json "$out/sweep.jsonl" --set batch=1 --set seq_q=1 --set seq_k=1000 build-bundles/$b | tail -1
  $R --json "$out/sweep.jsonl" --set batch=3 --set seq_q=129 --set seq_k=129 build-bundles/$b | tail -1
done

echo "== 2. ladder"
for b in $(names bench/ladder.txt); do
  $R --json "$out/sweep.jsonl" --set seq_q=1024 --set seq_k=1024 "build-bundles/$b" | tail -1
  $R --no-check --bench "$B" --json "$out/perf.jsonl" "build-bundles/$b" > /dev/null
done

echo "== 3. speed shapes"
for b in $(names bench/perf-tc.txt); do
  case "$b" in *-4096-*|s64-*|gqa-*) $R --json "$out/sweep.jsonl" "build-bundles/$b" | tail -1 ;; esac
  $R --no-check --bench "$B" --json "$out/perf.jsonl" "build-bundles/$b" > /dev/null
done
A=build-bench/anchors.py
for c in "" "--causal"; do
  python3 $A --shape 1,8,8,4096,4096,64 --dtype f16 $c >> "$out/anchors.jsonl" 2>> "$out/anchors.err"
  python3 $A --shape 8,16,16,4096,4096,128 --dtype bf16 $c >> "$out/anchors.jsonl" 2>> "$out/anchors.err"
  python3 $A --shape 4,16,16,8192,8192,128 --dtype bf16 $c >> "$out/anchors.jsonl" 2>> "$out/anchors.err"
  python3 $A --shape 2,16,16,16384,16384,128 --dtype bf16 $c >> "$out/anchors.jsonl" 2>> "$out/anchors.err"
done
python3 $A --shape 4,32,8,4096,4096,128 --dtype bf16 --causal >> "$out/anchors.jsonl" 2>> "$out/anchors.err"

echo "== 4. sanitizers"
san=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for b in tc-ring-c tc-ring-d128; do
  "$san" --tool memcheck --error-exitcode 3 $R --no-check "build-bundles/$b" > "$out/memcheck-$b.log" 2>&1
  echo "memcheck $b: exit $?  $(grep -E 'ERROR SUMMARY' "$out/memcheck-$b.log")"
  "$san" --tool racecheck --error-exitcode 3 $R --no-check "build-bundles/$b" > "$out/racecheck-$b.log" 2>&1
  echo "racecheck $b: exit $?  $(grep -E 'RACECHECK SUMMARY' "$out/racecheck-$b.log")"
done
echo "== table"
python3 scripts/tc-table.py "$out"
cd "$out" && tar czf /tmp/gpu-out.tgz . && mv /tmp/gpu-out.tgz "$out/gpu-out.tgz"
