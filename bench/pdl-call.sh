# H200 call (2026-12-05, twelfth session): LAUNCH=pdl (programmatic dependent launch between a
# split's kernels).
#   1. bench/sweep-pdl.txt against the float64 reference (mma.sync, wgmma, scalar and emulated
#      tcgen05 splits, gauto, the cut fold, varlen), every repeat bitwise equal; memcheck of two.
#   2. bench/perf-pdl.txt: each decode default serial (ds-*) and with LAUNCH=pdl (dp-*),
#      2 alternating rounds (scripts/gpu-abab.sh), beside flash and cuDNN on the dense shapes.
# Bundle both lists into build-bundles; carry build-deps, build-bundles, build-bench; COMMIT=<hash>.
set -u
export COMMIT=${COMMIT:-wip} COMMIT_OLD=${COMMIT:-wip}
mkdir -p $OUT/v $OUT/ab
OUT=$OUT/v SWEEP="bench/sweep-pdl.txt" FULL="" LADDER="" SAN="pdl-decode pdl-cut" SAN_TOOLS="memcheck" CONTROLS="" \
  REFS="" STEP_TIMEOUT=60 SAN_TIMEOUT=25 timeout 75 bash scripts/gpu-verify.sh 2>&1 | grep -vE "^\s*$" | tail -10
python3 scripts/results-json.py $OUT/v --what "bench/pdl-call.sh: bench/sweep-pdl.txt (LAUNCH=pdl), memcheck of pdl-decode and pdl-cut" > /dev/null 2>&1 || echo results-json failed
rm -f $OUT/v/verify.jsonl $OUT/v/gpu.txt
B=$(grep -v '^#' bench/perf-pdl.txt | cut -d'|' -f1 | tr -d ' ' | sed '/^$/d' | sed 's|^|build-bundles/|' | tr '\n' ' ')
OUT=$OUT/ab BUNDLES="$B" ROUNDS=2 BENCH=30 timeout 75 bash scripts/gpu-abab.sh 2>&1 | tail -14
NO_FLEX=1 timeout 45 python3 scripts/anchors-all.py 8,32,8,1,32768,128,bf16 1,32,8,1,131072,128,bf16 64,32,8,1,4096,128,bf16 \
  16,32,1,1,8192,128,bf16 8,32,8,16,32768,128,bf16,causal > $OUT/ab/anchors.jsonl 2>/tmp/anch.err || tail -3 /tmp/anch.err
python3 -c "
import json
for l in open('$OUT/ab/anchors.jsonl'):
    r=json.loads(l); print(r['shape'], r['causal'], 'flash', r['flash_us'], 'cudnn', r['cudnn_us'])
" || true
rm -f $OUT/ab/gpu.txt $OUT/ab/x.jsonl
