# H200 call (2026-12-04, sixth session): decode with 32-key blocks and a ring of three (issue 16)
# and the one sm_90a default whose before/after ratio is in doubt (issue 13, criterion 5).
# Bundle bench/sweep-decode-f4.txt, bench/perf-decode6.txt and bench/perf-decode6-check.txt into
# build-bundles, def-d128-16384-c of bench/perf-default.txt into build-bundles (this commit) and
# build-bundles-old (20310bd); copy ../shared/bench/anchors.py into build-bench. Carry build-deps,
# build-bundles, build-bundles-old, build-bench; COMMIT=<hash>. ONLY=verify stops after step 1 (the
# first run, 0be68d0, returned the timings but not the verify files: over the 8 files a call
# brings back).
# 1. the f1x4/d3 decode schedules against the float64 reference (small) and two at full size;
# 2. PyTorch's flash and cuDNN at the six decode shapes; 3. two rounds of bench/perf-decode6.txt;
# 4. six rounds of def-d128-16384-c, 20310bd's kernel and this commit's, alternating.
set -u
export COMMIT=${COMMIT:-wip}
mkdir -p $OUT/v $OUT/ab $OUT/ba
OUT=$OUT/v SWEEP="bench/sweep-decode-f4.txt" FULL="bench/perf-decode6-check.txt" LADDER="" SAN="d4-q4-c" CONTROLS="" \
  REFS="" STEP_TIMEOUT=150 timeout 240 bash scripts/gpu-verify.sh 2>&1 | grep -vE "^\s*$" | tail -12
python3 scripts/results-json.py $OUT/v --what "bench/decode7-call.sh: the decode defaults with f1x4 and a TMA ring of three (bench/sweep-decode-f4.txt, two at full size); memcheck and racecheck of d4-q4-c" > /dev/null 2>&1 || echo results-json failed
rm -f $OUT/v/verify.jsonl $OUT/v/gpu.txt
[ "${ONLY:-}" = verify ] && exit 0
timeout 100 python3 - > $OUT/ab/anchors.jsonl 2>/tmp/anch.err <<'PY' || tail -3 /tmp/anch.err
import sys; sys.path.insert(0, "build-bench"); sys.modules["torch.nn.attention.flex_attention"] = None
import torch, anchors
for B, Hq, Hkv, Sq, Sk, c in [(8, 32, 8, 1, 32768, False), (1, 32, 8, 1, 131072, False), (64, 32, 8, 1, 4096, False),
                              (16, 32, 1, 1, 8192, False), (8, 32, 8, 4, 32768, False), (8, 32, 8, 16, 32768, False)]:
    anchors.measure(B, Hq, Hkv, Sq, Sk, 128, torch.bfloat16, c)
PY
B=$(ls -d build-bundles/q[n-s]-* | tr '\n' ' ')
OUT=$OUT/ab BUNDLES="$B" ROUNDS=2 BENCH=30 timeout 200 bash scripts/gpu-abab.sh 2>&1 | tail -16
OUT=$OUT/ba COMMIT_OLD=20310bd BUNDLES="build-bundles-old/def-d128-16384-c build-bundles/def-d128-16384-c" ROUNDS=6 BENCH=30 \
  timeout 100 bash scripts/gpu-abab.sh 2>&1 | tail -3
cut -c1-160 $OUT/ab/anchors.jsonl
rm -f $OUT/ab/x.jsonl $OUT/ab/gpu.txt $OUT/ba/x.jsonl $OUT/ba/gpu.txt # at most 8 files come back
