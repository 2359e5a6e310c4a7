# H200 call (2026-12-04, eighth session): a paged KV cache (issue 16, criterion 4). Checks every
# line of bench/sweep-paged.txt against the float64 reference (ragged lengths, random page
# permutations, NaN in unused pages), bench/perf-paged.txt at full size against the fp32 GPU
# reference (which reads the logical K and V), that reference against the float64 one on three
# paged lines,
# memcheck and racecheck of four lines; then times bench/perf-paged.txt with every sequence full
# (--full-lengths) in alternating rounds, beside PyTorch's flash and cuDNN on the contiguous
# problem. Bundle both lists into build-bundles; carry build-deps, build-bundles; COMMIT=<hash>.
set -u
export COMMIT=${COMMIT:-wip}
mkdir -p $OUT/v $OUT/ab
SAN="${SAN:-pg-decode-64 pg-wg-d128-c pg-mma-16-c pg-t5-64-c}"
OUT=$OUT/v SWEEP="bench/sweep-paged.txt" FULL="bench/perf-paged.txt" LADDER="" \
  SAN="$SAN" CONTROLS="" REFS="pg-decode-64 pg-wg-d128-c pg-s120-32" \
  STEP_TIMEOUT=200 SAN_TIMEOUT=${SAN_TIMEOUT:-120} timeout 420 bash scripts/gpu-verify.sh 2>&1 | grep -vE "^\s*$" | tail -30
python3 scripts/results-json.py $OUT/v --what "bench/paged-call.sh: a paged KV cache (bench/sweep-paged.txt; bench/perf-paged.txt at full size); memcheck and racecheck of $SAN" > /dev/null 2>&1 || echo results-json failed
rm -f $OUT/v/verify.jsonl $OUT/v/gpu.txt
[ "${ONLY:-}" = verify ] && exit 0
timeout 60 python3 - > $OUT/ab/anchors.jsonl 2>/tmp/anch.err <<'PY' || tail -3 /tmp/anch.err
import sys; sys.path.insert(0, "build-bench"); sys.modules["torch.nn.attention.flex_attention"] = None
import torch, anchors
anchors.measure(8, 32, 8, 1, 32768, 128, torch.bfloat16, False)
PY
OUT=$OUT/ab BUNDLES="build-bundles/pf-contiguous build-bundles/pf-p16 build-bundles/pf-p64 build-bundles/pf-p256 build-bundles/pf-p64-hnd" \
  RUNNER_FLAGS=--full-lengths ROUNDS=3 BENCH=30 timeout 120 bash scripts/gpu-abab.sh 2>&1 | tail -8
cut -c1-160 $OUT/ab/anchors.jsonl
rm -f $OUT/ab/x.jsonl $OUT/ab/gpu.txt # at most 8 files come back
