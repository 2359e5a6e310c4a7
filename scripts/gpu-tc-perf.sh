#!/usr/bin/env bash
# Timing on the GPU host (see gpu-verify.sh for what must be carried along),
# all in one device call:
#   1. PyTorch's backends on every speed shape (scripts/anchors-all.py), and
#      on the shapes in $ANCHORS_EXTRA (B,Hq,Hkv,Sq,Sk,D,dtype[,causal] each);
#      ANCHORS_SET replaces the speed shapes' set;
#      ANCHORS=0 skips them. They run first: a call cut off later keeps them;
#   2. the ladder ($LADDER, default bench/ladder.txt; LADDER= skips it), each
#      rung timed at [1,8,4096,64];
#   3. the speed shapes ($PERF, lists, default bench/perf-default.txt) timed;
#   4. the timed bundles whose names match $CHECKPAT checked at full size
#      against the fp32 GPU reference (O and LSE); CHECK=0 skips this.
# Correctness sweeps are scripts/gpu-verify.sh's. Lines go to perf.jsonl and
# sweep.jsonl; scripts/results-json.py writes results.json; the table last.
# Exits non-zero when any bundle errors, any check fails, or the anchors fail.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/gpu-build-runner.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > "$out/gpu.txt"
B=${BENCH:-20}
PERF=${PERF:-bench/perf-default.txt}
LADDER=${LADDER-bench/ladder.txt}
failed=0
t0=$(date +%s); stamp() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
timed() { "$R" --no-check --bench "$B" --json "$out/perf.jsonl" "$@" > /dev/null || failed=$((failed + 1)); }

stamp "0. NVRTC-compile the bundles into the cubin cache, in parallel"
for list in $LADDER $PERF; do names "$list"; done | sed 's|^|build-bundles/|' \
  | xargs -P "$(nproc)" -n 2 "$R" --compile-only > /tmp/compile.log 2>&1 || true

stamp "1. anchors"
if [ "${ANCHORS:-1}" != 0 ]; then
  # shellcheck disable=SC2086
  python3 scripts/anchors-all.py ${ANCHORS_SET:-1,8,8,4096,4096,64,f16 1,8,8,4096,4096,64,f16,causal \
    8,16,16,4096,4096,128,bf16 8,16,16,4096,4096,128,bf16,causal \
    4,16,16,8192,8192,128,bf16 4,16,16,8192,8192,128,bf16,causal \
    2,16,16,16384,16384,128,bf16 2,16,16,16384,16384,128,bf16,causal \
    4,32,8,4096,4096,128,bf16,causal} ${ANCHORS_EXTRA:-} > "$out/anchors.jsonl" 2> /tmp/anchors.err \
    || { tail -5 /tmp/anchors.err; failed=$((failed + 1)); }
fi

stamp "2. ladder"
for b in $(for list in $LADDER; do names "$list"; done); do timed "build-bundles/$b"; done

stamp "3. speed shapes"
for b in $(for list in $PERF; do names "$list"; done); do timed "build-bundles/$b"; done

stamp "4. checks at full size"
if [ "${CHECK:-1}" != 0 ]; then
  # shellcheck disable=SC2046
  "$R" --gpu-reference --json "$out/sweep.jsonl" $(for list in $PERF; do names "$list"; done \
    | grep -E "${CHECKPAT:-4096|s64|gqa}" | grep -v alt | sed 's|^|build-bundles/|') | tail -1 \
    || failed=$((failed + 1))
fi

stamp "table"
python3 scripts/results-json.py "$out" --what "scripts/gpu-tc-perf.sh PERF='$PERF' LADDER='$LADDER'"
python3 scripts/tc-table.py "$out"
echo "gpu-tc-perf: $([ $failed = 0 ] && echo PASSED || echo "FAILED ($failed failed steps)")"
[ $failed = 0 ]
