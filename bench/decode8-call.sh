# H200 call (2026-12-04, sixth session): the new decode defaults (f1x4 with a TMA ring of three for
# one or two warps; parts of at least 256 keys) checked: bench/sweep-decode-default.txt and
# bench/sweep-gauto.txt against the float64 reference, every decode default of
# bench/perf-decode-default.txt and perf-decode-default2.txt at full size against the fp32 GPU
# reference, O and LSE; memcheck and racecheck of two lines. Bundle the four lists into
# build-bundles; carry build-deps, build-bundles; COMMIT=<hash>.
set -u
export COMMIT=${COMMIT:-wip}
mkdir -p $OUT/v
OUT=$OUT/v SWEEP="bench/sweep-decode-default.txt bench/sweep-gauto.txt" \
  FULL="bench/perf-decode-default.txt bench/perf-decode-default2.txt" LADDER="" SAN="dd-mqa dd-gqa" CONTROLS="" \
  REFS="" STEP_TIMEOUT=200 timeout 420 bash scripts/gpu-verify.sh 2>&1 | grep -vE "^\s*$" | tail -16
python3 scripts/results-json.py $OUT/v --what "bench/decode8-call.sh: the decode defaults of 2026-12-04 (f1x4/d3 for one or two warps, parts of at least 256 keys), small and full size; gauto; sanitizers" > /dev/null 2>&1 || echo results-json failed
rm -f $OUT/v/verify.jsonl $OUT/v/gpu.txt
