# H200 call (issue 15, 2026-12-03): bench/sweep-lpt.txt against the float64 reference,
# bench/perf-lpt-check.txt at full size against the fp32 GPU reference, memcheck and
# racecheck on lpt-113x203-c. Carry build-deps, build-bundles; COMMIT=<hash>.
set -u
export COMMIT=${COMMIT:-wip}
mkdir -p $OUT/v
OUT=$OUT/v SWEEP="bench/sweep-lpt.txt" FULL="bench/perf-lpt-check.txt" LADDER="" SAN="lpt-113x203-c" CONTROLS="" REFS="" \
  STEP_TIMEOUT=100 timeout 230 bash scripts/gpu-verify.sh 2>&1 | grep -vE "^\s*$" | tail -16
python3 scripts/results-json.py $OUT/v --what "bench/lpt-verify-call.sh: GRID=lpt sweep, full-size d128 causal lazy8 defaults and d64 causal GRID=lpt, sanitizers" > /dev/null 2>&1 || echo results-json failed
rm -f $OUT/v/verify.jsonl
