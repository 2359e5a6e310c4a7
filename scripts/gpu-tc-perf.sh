#!/usr/bin/env bash
# Runs on the GPU host (see gpu-check.sh for what must be carried along).
# Issue 4, all in one device call:
#   1. PyTorch's backends on every speed shape (scripts/anchors-all.py), and
#      on the shapes in $ANCHORS_EXTRA (B,Hq,Hkv,Sq,Sk,D,dtype[,causal] each);
#   2. compute-sanitizer memcheck and racecheck on staged kernels ($SAN;
#      SAN= skips them);
#   3. the tensor-core correctness sweep ($SWEEP, default bench/sweep-tc.txt;
#      symbolic bundles at several sizes);
#   4. the ladder ($LADDER, default bench/ladder.txt; LADDER= skips it): each
#      rung checked at [1,8,1024,64], timed at [1,8,4096,64];
#   5. the speed shapes ($PERF, lists, default bench/perf-tc.txt): all timed,
#   6. then the N=4096 ones (names matching $CHECKPAT) checked at full size
#      against the fp32 GPU reference.
# The short steps that every result depends on come first: a call cut off
# by its time limit (2026-11-30, run 3 lost its anchors) keeps them.
# CHECK=0 skips the full-size checks of step 3 (tuning runs). PERBUNDLE=<s>
# runs each sweep bundle in its own process with that time limit (hangs.txt).
# Few files come back from the device: sweep.jsonl, perf.jsonl,
# anchors.jsonl, sanitizers.txt, gpu.txt; scripts/tc-table.py prints the table.
set -uo pipefail
source "$(dirname "$0")/gpu-build-runner.sh"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > "$out/gpu.txt" 2>&1
names() { grep -v '^#' "$1" | cut -d'|' -f1 | tr -d ' ' | sed '/^$/d'; }
B=${BENCH:-20}
T="timeout ${PERBUNDLE:-0}" # 0: no limit
PERF=${PERF:-bench/perf-tc.txt}
SWEEP=${SWEEP-bench/sweep-tc.txt}
LADDER=${LADDER-bench/ladder.txt}
t0=$(date +%s); stamp() { echo "[$(( $(date +%s) - t0 )) s] $*"; }

stamp "1. anchors (first: a call cut off later still has them; ANCHORS=0 skips them)"
[ "${ANCHORS:-1}" = 0 ] || python3 scripts/anchors-all.py 1,8,8,4096,4096,64,f16 1,8,8,4096,4096,64,f16,causal \
  8,16,16,4096,4096,128,bf16 8,16,16,4096,4096,128,bf16,causal \
  4,16,16,8192,8192,128,bf16 4,16,16,8192,8192,128,bf16,causal \
  2,16,16,16384,16384,128,bf16 2,16,16,16384,16384,128,bf16,causal \
  4,32,8,4096,4096,128,bf16,causal ${ANCHORS_EXTRA:-} > "$out/anchors.jsonl" 2> /tmp/anchors.err
[ "${ANCHORS:-1}" = 0 ] || tail -3 /tmp/anchors.err

stamp "2. sanitizers"
san=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for b in ${SAN-tc-qstage-c tc-ring-d128-dyn tc-qstage-sync}; do
  timeout 180 "$san" --tool memcheck --error-exitcode 3 $R --no-check "build-bundles/$b" > /tmp/mc.log 2>&1
  echo "memcheck $b: exit $?  $(grep -E 'ERROR SUMMARY' /tmp/mc.log)" | tee -a "$out/sanitizers.txt"
  timeout 180 "$san" --tool racecheck --error-exitcode 3 $R --no-check "build-bundles/$b" > /tmp/rc.log 2>&1
  echo "racecheck $b: exit $?  $(grep -E 'RACECHECK SUMMARY' /tmp/rc.log)" | tee -a "$out/sanitizers.txt"
done

stamp "3. sweep"
for list in $SWEEP; do
  if [ -n "${PERBUNDLE:-}" ]; then
    # One process per bundle with a time limit: a kernel that hangs (a
    # barrier never completes) fails alone instead of ending the device call.
    for b in $(names "$list" | grep -v sym); do
      timeout "$PERBUNDLE" $R --json "$out/sweep.jsonl" "build-bundles/$b" | tail -1
      rc=${PIPESTATUS[0]}; [ "$rc" = 124 ] && echo "$b: TIMED OUT after $PERBUNDLE s" | tee -a "$out/hangs.txt"
    done
    continue
  fi
  # shellcheck disable=SC2046
  $T $R --json "$out/sweep.jsonl" $(names "$list" | grep -v sym | sed 's|^|build-bundles/|') | tail -1
done
for b in $(for list in $SWEEP; do names "$list"; done | grep sym); do
  $T $R --json "$out/sweep.jsonl" --set batch=2 --set seq_q=300 --set seq_k=77 build-bundles/$b | tail -1
  $T $R --json "$out/sweep.jsonl" --set batch=1 --set seq_q=1 --set seq_k=1000 build-bundles/$b | tail -1
  $T $R --json "$out/sweep.jsonl" --set batch=3 --set seq_q=129 --set seq_k=129 build-bundles/$b | tail -1
done

stamp "4. ladder"
for b in $(for list in $LADDER; do names "$list"; done); do
  $T $R --json "$out/sweep.jsonl" --set seq_q=1024 --set seq_k=1024 "build-bundles/$b" | tail -1
  $T $R --no-check --bench "$B" --json "$out/perf.jsonl" "build-bundles/$b" > /dev/null
done

stamp "5. speed shapes"
for b in $(for list in $PERF; do names "$list"; done); do
  $T $R --no-check --bench "$B" --json "$out/perf.jsonl" "build-bundles/$b" > /dev/null
done
stamp "6. checks at full size"
# shellcheck disable=SC2046
[ "${CHECK:-1}" = 0 ] || $R --gpu-reference --json "$out/sweep.jsonl" $(for list in $PERF; do names "$list"; done | grep -E "${CHECKPAT:-4096|s64|gqa}" | grep -v alt | sed 's|^|build-bundles/|') | tail -1

stamp "table"
python3 scripts/tc-table.py "$out"
