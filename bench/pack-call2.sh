# H200 call for PACK=gqa after attncc-split-columns (issue 16; written 2026-12-03; the second call). Bundle bench/sweep-pack.txt and
# bench/perf-pack2.txt into build-bundles (scripts/make-bundles.sh); carry build-deps,
# build-bundles, build-bench; COMMIT=<hash>. 1. the sweep against the float64 reference, memcheck
# and racecheck on two lines; 2. PyTorch's flash and cuDNN on the issue's decode shapes; 3. one
# round of the perf bundles (each run fills ~1 GB of inputs on the host, ~15 s).
set -u
export COMMIT=${COMMIT:-wip}
mkdir -p $OUT/v $OUT/ab
OUT=$OUT/v SWEEP="bench/sweep-pack.txt bench/sweep-split-tc.txt bench/sweep-split-scalar.txt" FULL="" LADDER="" SAN="pk-mma-decode split-decode" CONTROLS="" REFS="" \
  STEP_TIMEOUT=120 timeout 240 bash scripts/gpu-verify.sh 2>&1 | grep -vE "^\s*$" | tail -12
python3 scripts/results-json.py $OUT/v --what "bench/pack-call2.sh: PACK=gqa and every split after attncc-split-columns: sweep-pack, sweep-split-tc, sweep-split-scalar; sanitizers" > /dev/null 2>&1 || echo results-json failed
rm -f $OUT/v/verify.jsonl
timeout 120 python3 - > $OUT/ab/anchors.jsonl 2>/tmp/anch.err <<'PY' || tail -3 /tmp/anch.err
import sys; sys.path.insert(0, "build-bench"); sys.modules["torch.nn.attention.flex_attention"] = None
import torch, anchors
for B, Hq, Hkv, Sq, Sk, c in [(8, 32, 8, 1, 32768, False), (1, 32, 8, 1, 131072, False), (64, 32, 8, 1, 4096, False),
                              (16, 32, 1, 1, 8192, False), (8, 32, 8, 4, 32768, False), (8, 32, 8, 16, 32768, False)]:
    # (Sq = 4, 16: non-causal, as PyTorch's is_causal aligns top-left; attncc's causal rows,
    # bottom-right, skip at most Sq - 1 of 32768 keys)
    anchors.measure(B, Hq, Hkv, Sq, Sk, 128, torch.bfloat16, c)
PY
B=$(ls -d build-bundles/q[a-f]-* | tr '\n' ' ')
OUT=$OUT/ab BUNDLES="$B" ROUNDS=1 BENCH=30 timeout 330 bash scripts/gpu-abab.sh 2>&1 | tail -18
cut -c1-150 $OUT/ab/anchors.jsonl
