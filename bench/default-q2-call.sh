# H200 call (2026-12-04, seventh session): the new sm_100a default (two Q tiles with the TMA and mma
# warps, rung T5) under emulation: the TESTING sweep over the rungs and the default
# (bench/sweep-tcgen05-rungs.txt), the problems of one point, the tcgen05 ladder at [1,8,1024,64]
# (gpu-verify's ladder step), memcheck and racecheck of the default at [1,2,200,128] and of rdef-97-c.
# Bundle bench/sweep-tcgen05-rungs.txt bench/sweep-one-point.txt bench/ladder-tcgen05.txt
# bench/san-tcgen05.txt into build-bundles; carry build-deps, build-bundles; COMMIT=<hash>.
set -u
export COMMIT=${COMMIT:-wip}
mkdir -p $OUT/v
OUT=$OUT/v SWEEP="bench/sweep-tcgen05-rungs.txt bench/sweep-one-point.txt" FULL="" LADDER="bench/ladder-tcgen05.txt" \
  SAN="sdef-d128 rdef-97-c" CONTROLS="" REFS="" STEP_TIMEOUT=240 SAN_TIMEOUT=100 \
  timeout 520 bash scripts/gpu-verify.sh 2>&1 | grep -vE "^\s*$" | tail -24
python3 scripts/results-json.py $OUT/v --what "bench/default-q2-call.sh: the sm_100a default (two Q tiles, load1/mma1) under emulation: bench/sweep-tcgen05-rungs.txt, bench/sweep-one-point.txt, the tcgen05 ladder; memcheck and racecheck of sdef-d128 and rdef-97-c" > /dev/null 2>&1 || echo results-json failed
rm -f $OUT/v/verify.jsonl $OUT/v/gpu.txt
