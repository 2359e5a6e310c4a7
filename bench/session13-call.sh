# H200 call (2026-12-05, thirteenth session).
#   1. bench/pdl-call.sh: LAUNCH=pdl over bench/sweep-pdl.txt and timed serial against pdl
#      (bench/perf-pdl.txt) beside flash and cuDNN.                      $OUT/v, $OUT/ab
#   2. The two gauto lines of bench/sweep-varlen.txt (vl-gauto-*), the symbolic bundles at
#      the sizes gpu-verify.sh picks.                                     $OUT/g/results.json
# Bundle bench/perf-pdl.txt, bench/sweep-pdl.txt and the vl-gauto lines into build-bundles;
# carry build-deps, build-bundles, build-bench; COMMIT=<hash>.
set -u
export COMMIT=${COMMIT:-wip}
bash bench/pdl-call.sh
mkdir -p $OUT/g
grep -E '^vl-gauto' bench/sweep-varlen.txt > /tmp/vlg.txt
OUT=$OUT/g SWEEP=/tmp/vlg.txt FULL="" LADDER="" SAN="" CONTROLS="" REFS="" STEP_TIMEOUT=60 \
  timeout 90 bash scripts/gpu-verify.sh 2>&1 | grep -vE "^\s*$" | tail -6
python3 scripts/results-json.py $OUT/g --what "bench/session13-call.sh: the vl-gauto lines of bench/sweep-varlen.txt (gauto over varlen)" > /dev/null 2>&1 || echo results-json failed
rm -f $OUT/g/verify.jsonl $OUT/g/gpu.txt
