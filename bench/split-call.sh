# H200 call for a split with an atom (issue 16, step 1; branch wip-issue16-gpu, written
# 2026-12-03, not run yet). Bundle bench/sweep-split-tc.txt and bench/perf-split-tc.txt into
# build-bundles (scripts/make-bundles.sh); carry build-deps, build-bundles, build-bench;
# COMMIT=<hash>. 1. the sweep against the float64 reference, memcheck and racecheck on two
# lines; 2. the decode shape [8,32/8,1,32768,128] bf16 beside PyTorch's flash and cuDNN,
# 3 alternating rounds (scripts/gpu-abab.sh).
set -u
export COMMIT=${COMMIT:-wip}
mkdir -p $OUT/v $OUT/ab
OUT=$OUT/v SWEEP="bench/sweep-split-tc.txt" FULL="" LADDER="" SAN="sp-mma-97-c sp-mma-decode" CONTROLS="" REFS="" \
  STEP_TIMEOUT=120 timeout 300 bash scripts/gpu-verify.sh 2>&1 | grep -vE "^\s*$" | tail -20
python3 scripts/results-json.py $OUT/v --what "bench/split-call.sh: a split with an atom, bench/sweep-split-tc.txt; sanitizers" > /dev/null 2>&1 || echo results-json failed
rm -f $OUT/v/verify.jsonl
timeout 60 python3 - > $OUT/ab/anchors.jsonl 2>/tmp/anch.err <<'PY' || tail -3 /tmp/anch.err
import sys; sys.path.insert(0, "build-bench"); sys.modules["torch.nn.attention.flex_attention"] = None
import torch, anchors
anchors.measure(8, 32, 8, 1, 32768, 128, torch.bfloat16, False)
PY
B=$(ls -d build-bundles/dec-* | tr '\n' ' ')
OUT=$OUT/ab BUNDLES="$B" ROUNDS=3 BENCH=30 timeout 180 bash scripts/gpu-abab.sh 2>&1 | tail -10
cat $OUT/ab/anchors.jsonl
