# H200 calls (2026-12-04, ninth session), issues 15 and 13's rule: O times 1/d, C fragments stored in
# pairs, and a cp.async ring over whole blocks prefetching in bounds (commit dfc6367) against the
# kernels of 3ae79a7 (build-bundles-old: bench/perf-sm120.txt and the def-* lines of
# bench/perf-default.txt, bundled by 3ae79a7's binary).
#   MODE=time:   PyTorch's flash and cuDNN on the shapes, then 2 alternating rounds of every
#                old and new bundle of those lists (scripts/gpu-abab.sh). $OUT/ab/{anchors.jsonl,abab.json}
#   MODE=final:  after the clamp's revert (commit of that revert): the 11 bundles whose kernel changed
#                by it (the 3 sweep lines and the 7 sm_120 defaults against the fp32 GPU reference) and the
#                3 sm_90a defaults the verify step did not reach; the old and new s120-s64-8192-n on the same
#                inputs; memcheck and racecheck on swz-bias; then the sm_120 defaults beside flash and cuDNN
#                in 2 alternating rounds. $OUT/v/results.json, $OUT/ab/{anchors.jsonl,abab.json}
#   MODE=verify: scripts/gpu-verify.sh over the sm_120-relevant sweeps, the wgmma sweep, the ladder,
#                both lists at full size against the fp32 GPU reference, and sanitizers. $OUT/v/results.json
# Bundle into build-bundles: bench/perf-sm120.txt bench/sweep-{tc,mma-swz,tma-mma,x4,lazy,wgmma}.txt
# bench/ladder.txt bench/perf-default.txt; carry build-deps, build-bundles, build-bundles-old,
# build-bench; COMMIT=<hash>.
set -u
export COMMIT=${COMMIT:-wip} COMMIT_OLD=3ae79a7
if [ "${MODE:-time}" = time ]; then
  mkdir -p $OUT/ab
  NO_FLEX=1 timeout 170 python3 scripts/anchors-all.py 1,8,8,4096,4096,64,f16 1,8,8,4096,4096,64,f16,causal \
    4,32,32,8192,8192,64,f16 8,16,16,4096,4096,128,bf16 8,16,16,4096,4096,128,bf16,causal 4,16,16,8192,8192,128,bf16 \
    2,16,16,16384,16384,128,bf16 2,16,16,16384,16384,128,bf16,causal 4,16,16,8192,8192,128,bf16,causal \
    4,32,8,4096,4096,128,bf16,causal > $OUT/ab/anchors.jsonl 2>/tmp/anch.err || tail -3 /tmp/anch.err
  B=""
  for n in $(ls build-bundles-old); do B="$B build-bundles-old/$n build-bundles/$n"; done
  OUT=$OUT/ab BUNDLES="$B" ROUNDS=2 BENCH=30 timeout 380 bash scripts/gpu-abab.sh 2>&1 | tail -40
  python3 -c "
import json
for l in open('$OUT/ab/anchors.jsonl'):
    r=json.loads(l); print(r['shape'], r['causal'], 'flash', r['flash_us'], 'cudnn', r['cudnn_us'])
"
  rm -f $OUT/ab/gpu.txt
elif [ "${MODE}" = final ]; then
  mkdir -p $OUT/v $OUT/ab
  printf 'x | y\nswz-seed | y\nswz-bias | y\nwg-bias | y\n' | grep -v '^x' > /tmp/l.txt
  printf 's120-s64-n | y\ns120-s64-8192-n | y\ns120-d128-4096-n | y\ns120-d128-8192-n | y\ns120-d128-16k-n | y\ns120-d128-8192-c | y\ns120-gqa-4096-c | y\ndef-d128-16384-n | y\ndef-d128-16384-c | y\ndef-gqa-4096-c | y\n' > /tmp/f.txt
  OUT=$OUT/v SWEEP="/tmp/l.txt" LADDER="" FULL="/tmp/f.txt" REFS="" CONTROLS="" SAN="swz-bias" STEP_TIMEOUT=260 \
    timeout 330 bash scripts/gpu-verify.sh 2>&1 | grep -vE "^\s*$" | grep -v '^{' | tail -12
  rm -f $OUT/v/verify.jsonl $OUT/v/sanitizers.jsonl
  source scripts/gpu-build-runner.sh > /dev/null 2>&1
  timeout 60 "$R" --gpu-reference --json $OUT/v/s64-old-new.jsonl build-bundles-old/s120-s64-8192-n build-bundles/s120-s64-8192-n | tail -1
  python3 -c "
import json
for l in open('$OUT/v/s64-old-new.jsonl'):
    r=json.loads(l); print(r['bundle'], r['status'], r.get('max_err'), r.get('err_bound'), r.get('lse_err'))
"
  NO_FLEX=1 timeout 100 python3 scripts/anchors-all.py 1,8,8,4096,4096,64,f16 1,8,8,4096,4096,64,f16,causal \
    4,32,32,8192,8192,64,f16 8,16,16,4096,4096,128,bf16 4,16,16,8192,8192,128,bf16 2,16,16,16384,16384,128,bf16 \
    4,16,16,8192,8192,128,bf16,causal 4,32,8,4096,4096,128,bf16,causal > $OUT/ab/anchors.jsonl 2>/tmp/anch.err \
    || tail -3 /tmp/anch.err
  B=$(ls -d build-bundles/s120-* | tr '\n' ' ')
  OUT=$OUT/ab BUNDLES="$B" ROUNDS=2 BENCH=30 timeout 150 bash scripts/gpu-abab.sh 2>&1 | tail -9
  python3 -c "
import json
for l in open('$OUT/ab/anchors.jsonl'):
    r=json.loads(l); print(r['shape'], r['causal'], 'flash', r['flash_us'], 'cudnn', r['cudnn_us'])
"
  rm -f $OUT/ab/gpu.txt
else
  mkdir -p $OUT/v $OUT/ab
  # The 16k shape ran 1.8 % slower after the change in the time call: the whole-block clamp
  # alone (nc-*: the new epilogue, the clamp disabled in the binary) against old and new.
  B=""
  for n in d128-16k-n d128-4096-n; do B="$B build-bundles-old/s120-$n build-bundles/nc-$n build-bundles/s120-$n"; done
  OUT=$OUT/ab BUNDLES="$B" ROUNDS=3 BENCH=30 timeout 100 bash scripts/gpu-abab.sh 2>&1 | tail -8
  rm -f $OUT/ab/gpu.txt
  mkdir -p $OUT/v
  OUT=$OUT/v SWEEP="bench/sweep-tc.txt bench/sweep-mma-swz.txt bench/sweep-tma-mma.txt bench/sweep-x4.txt bench/sweep-lazy.txt bench/sweep-wgmma.txt" \
    LADDER=bench/ladder.txt FULL="bench/perf-sm120.txt bench/perf-default.txt" REFS="" CONTROLS="" \
    SAN="tc-ring-c swz-97-c" STEP_TIMEOUT=300 timeout 440 bash scripts/gpu-verify.sh 2>&1 | grep -vE "^\s*$" | tail -25
  rm -f $OUT/v/verify.jsonl $OUT/v/sanitizers.jsonl
fi
