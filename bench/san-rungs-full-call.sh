# H200 call (2026-12-04, seventh session): racecheck of tcgen05 rungs at their own size
# ([1,8,4096,64], the ladder's symbolic bundles at their default length) under emulation: T3 (one Q
# tile) and T5 (the sm_100a default: two Q tiles, TMA and mma warps). Bundle bench/ladder-tcgen05.txt
# into build-bundles; carry build-deps, build-bundles; COMMIT=<hash>.
set -u
export COMMIT=${COMMIT:-wip}
mkdir -p $OUT/v
OUT=$OUT/v SWEEP="" FULL="" LADDER="bench/ladder-tcgen05.txt" SAN="T5-roles T3-ex2" SAN_TOOLS=racecheck CONTROLS="" REFS="" \
  STEP_TIMEOUT=120 SAN_TIMEOUT=170 timeout 440 bash scripts/gpu-verify.sh 2>&1 | grep -vE "^\s*$" | tail -16
python3 scripts/results-json.py $OUT/v --what "bench/san-rungs-full-call.sh: the tcgen05 ladder at [1,8,1024,64], racecheck of T5-roles and T3-ex2 at [1,8,4096,64] under emulation" > /dev/null 2>&1 || echo results-json failed
rm -f $OUT/v/verify.jsonl $OUT/v/gpu.txt
