# H200 call (issue 16; 2026-12-03, fifth session, fourth call): the decode defaults at the issue's
# other shapes at full size against the fp32 GPU reference. Bundle bench/perf-decode-default2.txt
# into build-bundles; carry build-deps, build-bundles; COMMIT=<hash>.
set -u
export COMMIT=${COMMIT:-wip}
mkdir -p $OUT/v
OUT=$OUT/v SWEEP="" FULL="bench/perf-decode-default2.txt" LADDER="" SAN="" CONTROLS="" REFS="" STEP_TIMEOUT=200 \
  timeout 280 bash scripts/gpu-verify.sh 2>&1 | grep -vE "^\s*$" | tail -10
python3 scripts/results-json.py $OUT/v --what "bench/decode6-call.sh: the decode defaults at full size (131072 keys, 64 x 4096, MQA, Sq = 4 causal, f16 d64)" > /dev/null 2>&1 || echo results-json failed
rm -f $OUT/v/verify.jsonl
