# H200 call (2026-12-04, eighth session), issue 14 criterion 5: memcheck of the tcgen05 rungs at
# their own size [1,8,4096,64] under emulation, where only racecheck of T3 had finished (seventh
# session): T5-roles (the sm_100a default), T4-q2 and T2-tma. Bundle bench/ladder-tcgen05.txt into
# build-bundles; carry build-deps, build-bundles; COMMIT=<hash>.
set -u
export COMMIT=${COMMIT:-wip}
mkdir -p $OUT/v
SAN="${SAN:-T5-roles T4-q2 T2-tma}"
OUT=$OUT/v SWEEP="" FULL="" LADDER="" SAN="$SAN" SAN_TOOLS=memcheck CONTROLS="" REFS="" \
  STEP_TIMEOUT=120 SAN_TIMEOUT=${SAN_TIMEOUT:-160} timeout 560 bash scripts/gpu-verify.sh 2>&1 | grep -vE "^\s*$" | tail -10
python3 scripts/results-json.py $OUT/v --what "bench/san-full-memcheck-call.sh: memcheck of $SAN at [1,8,4096,64] under emulation" > /dev/null 2>&1 || echo results-json failed
rm -f $OUT/v/verify.jsonl $OUT/v/gpu.txt
