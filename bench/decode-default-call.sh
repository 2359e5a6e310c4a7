# H200 call for the decode defaults (issue 16; written 2026-12-03, not run yet: the session's
# device time ran out). Bundle bench/sweep-decode-default.txt, bench/perf-decode-default.txt,
# bench/sweep-gauto.txt and
# bench/sweep-pack-tma.txt into build-bundles (scripts/make-bundles.sh); carry build-deps,
# build-bundles; COMMIT=<hash>. The defaults against the float64 reference at small sizes and
# the fp32 GPU reference at the shape, the TMA variant's sweep, sanitizers on two lines.
set -u
export COMMIT=${COMMIT:-wip}
mkdir -p $OUT/v
OUT=$OUT/v SWEEP="bench/sweep-decode-default.txt bench/sweep-pack-tma.txt bench/sweep-gauto.txt" FULL="bench/perf-decode-default.txt" \
  LADDER="" SAN="dd-q4-c pt-decode" CONTROLS="" REFS="" STEP_TIMEOUT=100 timeout 240 bash scripts/gpu-verify.sh 2>&1 \
  | grep -vE "^\s*$" | tail -14
python3 scripts/results-json.py $OUT/v --what "bench/decode-default-call.sh: the decode defaults (small and full size) and K, V by TMA with PACK=gqa; sanitizers" > /dev/null 2>&1 || echo results-json failed
rm -f $OUT/v/verify.jsonl
