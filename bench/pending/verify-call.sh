set -u
export COMMIT=${COMMIT:-wip}
mkdir -p $OUT/v
OUT=$OUT/v SWEEP="bench/sweep-mma-swz.txt bench/sweep-lazy.txt bench/sweep-x4.txt bench/sweep-tc.txt" FULL="bench/perf-sm120.txt" LADDER="bench/ladder.txt" SAN="swz-97-c swz-masked-rows lz-tc-113x203-c" CONTROLS="" REFS="" STEP_TIMEOUT=200 timeout 520 bash scripts/gpu-verify.sh 2>&1 | grep -vE "^\s*$" | tail -25
python3 scripts/results-json.py $OUT/v --what "scripts/gpu-verify.sh: issue 15 (cp into swizzled slabs for mma.sync, skip-rescale, unrolled fold copies): sweeps mma-swz, lazy, x4, tc, the ladder, the sm_120 defaults at full size; sanitizers" > /dev/null 2>&1 || echo results-json failed
rm -f $OUT/v/verify.jsonl
